package io.bellows.schema;

import io.bellows.config.BloomType;
import io.bellows.config.Compression;
import io.bellows.config.Durability;
import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import io.bellows.config.Settings;
import io.bellows.util.Bytes;
import java.util.Map;

/** A column family's name and settings (the {@code FAMILY} knobs). Immutable. */
public final class ColumnFamilyDescriptor extends Settings {
  private final String name;

  private ColumnFamilyDescriptor(String name, Map<Knob<?>, Object> values) {
    super(Knob.Scope.FAMILY, values);
    this.name = name;
  }

  public static ColumnFamilyDescriptor of(String name) {
    return builder(name).build();
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public Builder toBuilder() {
    Builder b = new Builder(name);
    b.setAllFrom(explicitValues());
    return b;
  }

  public String name() {
    return name;
  }

  public byte[] nameBytes() {
    return Bytes.of(name);
  }

  public int maxVersions() {
    return get(Knobs.VERSIONS);
  }

  public int minVersions() {
    return get(Knobs.MIN_VERSIONS);
  }

  /** Time to live in milliseconds; {@link Long#MAX_VALUE} for forever. */
  public long ttlMillis() {
    long s = get(Knobs.TTL);
    return s >= Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : s * 1000;
  }

  public MemStorePolicy memStorePolicy() {
    return get(Knobs.IN_MEMORY_COMPACTION);
  }

  /**
   * The {@code MAX_ENTRIES_PER_BLOCK} files are written with: the family's own when it sets one;
   * else 0 (static blocks of BLOCKSIZE, as in HBase) when it sets BLOCKSIZE, since a size asked for
   * is a size meant; else the knob's default, dynamic blocks.
   */
  public int maxEntriesPerBlock() {
    return maxEntriesPerBlock(explicitValues());
  }

  private static int maxEntriesPerBlock(Map<Knob<?>, Object> set) {
    Object own = set.get(Knobs.MAX_ENTRIES_PER_BLOCK);
    if (own != null) {
      return (Integer) own;
    }
    return set.containsKey(Knobs.BLOCKSIZE) ? 0 : Knobs.MAX_ENTRIES_PER_BLOCK.defaultValue();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{NAME => '").append(name).append('\'');
    for (Knob<?> k : Knobs.ALL) {
      if (k.scope() == Knob.Scope.FAMILY) {
        Object v = k == Knobs.MAX_ENTRIES_PER_BLOCK ? maxEntriesPerBlock() : get(k);
        String shown = k == Knobs.TTL && (Long) v == Long.MAX_VALUE ? "FOREVER" : String.valueOf(v);
        sb.append(", ").append(k.name()).append(" => '").append(shown).append('\'');
      }
    }
    return sb.append('}').toString();
  }

  /** Builder; family names are 1–127 bytes of printable characters without ':'. */
  public static final class Builder extends Settings.Builder<Builder> {
    private final String name;

    private Builder(String name) {
      super(Knob.Scope.FAMILY);
      this.name = validateName(name);
    }

    void setAllFrom(Map<Knob<?>, Object> values) {
      setAll(values);
    }

    public Builder maxVersions(int v) {
      return set(Knobs.VERSIONS, v);
    }

    public Builder minVersions(int v) {
      return set(Knobs.MIN_VERSIONS, v);
    }

    public Builder ttlSeconds(long v) {
      return set(Knobs.TTL, v);
    }

    public Builder compression(Compression c) {
      return set(Knobs.COMPRESSION, c);
    }

    public Builder bloomType(BloomType b) {
      return set(Knobs.BLOOMFILTER, b);
    }

    public Builder blockSize(int bytes) {
      return set(Knobs.BLOCKSIZE, bytes);
    }

    public Builder durability(Durability d) {
      return set(Knobs.FAMILY_DURABILITY, d);
    }

    public Builder memStorePolicy(MemStorePolicy p) {
      return set(Knobs.IN_MEMORY_COMPACTION, p);
    }

    public ColumnFamilyDescriptor build() {
      int min = (Integer) values.getOrDefault(Knobs.MIN_VERSIONS, 0);
      int max = (Integer) values.getOrDefault(Knobs.VERSIONS, 1);
      if (min > max) {
        throw new IllegalArgumentException("MIN_VERSIONS (" + min + ") exceeds VERSIONS (" + max + ") in family " + name);
      }
      checkBlockSizes();
      return new ColumnFamilyDescriptor(name, values);
    }

    /** Dynamic block sizing needs MIN_BLOCKSIZE <= BLOCKSIZE (the maximum); never clamped silently. */
    private void checkBlockSizes() {
      int maxEntries = maxEntriesPerBlock(values);
      int minSize = (Integer) values.getOrDefault(Knobs.MIN_BLOCKSIZE, Knobs.MIN_BLOCKSIZE.defaultValue());
      int maxSize = (Integer) values.getOrDefault(Knobs.BLOCKSIZE, Knobs.BLOCKSIZE.defaultValue());
      if (maxEntries > 0 && minSize > maxSize) {
        throw new IllegalArgumentException("MIN_BLOCKSIZE (" + minSize + ") exceeds BLOCKSIZE (" + maxSize
            + ") in family " + name + "; with dynamic blocks (MAX_ENTRIES_PER_BLOCK " + maxEntries
            + "), BLOCKSIZE is the largest block and MIN_BLOCKSIZE must not exceed it");
      }
    }
  }

  static String validateName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("family name must not be empty");
    }
    if (Bytes.of(name).length > 127) {
      throw new IllegalArgumentException("family name longer than 127 bytes: " + name);
    }
    for (char c : name.toCharArray()) {
      if (c <= ' ' || c > '~' || c == ':' || c == '/' || c == '\\') {
        throw new IllegalArgumentException(
            "family name '" + name + "' may hold only printable ASCII without ':', '/', '\\' or spaces");
      }
    }
    if (name.startsWith(".")) {
      throw new IllegalArgumentException("family name must not start with '.': " + name);
    }
    return name;
  }
}
