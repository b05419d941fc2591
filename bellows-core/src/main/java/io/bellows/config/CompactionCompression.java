package io.bellows.config;

/**
 * The compression of the files a compaction writes ({@code COMPRESSION_COMPACT} and its minor and
 * major variants, HBase's family attributes of the same names): a {@link Compression}, or {@link
 * #SAME} to inherit the setting it refines.
 */
public enum CompactionCompression {
  /** The setting this one refines: {@code COMPRESSION} for {@code COMPRESSION_COMPACT}, that for the others. */
  SAME(null),
  NONE(Compression.NONE),
  LZ4(Compression.LZ4),
  ZSTD(Compression.ZSTD);

  private final Compression compression;

  CompactionCompression(Compression compression) {
    this.compression = compression;
  }

  /** This compression, or {@code inherited} for {@link #SAME}. */
  public Compression or(Compression inherited) {
    return compression == null ? inherited : compression;
  }

  /** The setting naming {@code c} explicitly. */
  public static CompactionCompression of(Compression c) {
    return valueOf(c.name());
  }
}
