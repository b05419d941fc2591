package io.bellows.sstable;

import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The fixed 64-byte end of a sorted file (see docs, "Trailer"): where the index root, meta block and
 * Bloom block lie, how many index levels there are, the format version and the magic. The version
 * and magic stay at the same distance from the end in every version, so a reader can always tell
 * a future version from garbage. Since version 2 the checksum covers every other trailer byte, the
 * version included, and is checked before any field is believed: a damaged version field is
 * corruption, not an "unsupported version". Immutable.
 */
public record Trailer(
    long dataEnd,
    long rootIndexOffset,
    int rootIndexSize,
    int indexLevels,
    long metaOffset,
    int metaSize,
    long bloomOffset,
    int bloomSize,
    int version) {
  public static final int SIZE = 64;
  /**
   * 4: the meta block's flags byte may say that no row spans two data blocks. 3: the Bloom block
   * has the blocked layout (block type BLOCKED_BLOOM). 2: the checksum covers the version and magic
   * too (version 1: bytes [0, 48) only). All four are read.
   */
  public static final int CURRENT_VERSION = 4;
  /** "BELLOWSF" in ASCII. */
  static final byte[] MAGIC = "BELLOWSF".getBytes(StandardCharsets.US_ASCII);
  /** Deepest index accepted on read; deeper means a corrupt trailer. */
  static final int MAX_INDEX_LEVELS = 16;

  byte[] encode() {
    byte[] b = new byte[SIZE];
    Bytes.putLong(b, 0, dataEnd);
    Bytes.putLong(b, 8, rootIndexOffset);
    Bytes.putInt(b, 16, rootIndexSize);
    Bytes.putInt(b, 20, indexLevels);
    Bytes.putLong(b, 24, metaOffset);
    Bytes.putInt(b, 32, metaSize);
    Bytes.putInt(b, 36, bloomSize);
    Bytes.putLong(b, 40, bloomOffset);
    Bytes.putInt(b, 52, version);
    System.arraycopy(MAGIC, 0, b, 56, 8);
    Bytes.putInt(b, 48, version == 1 ? BlockFormat.crc(b, 0, 48) : checksum(b));
    return b;
  }

  /** The trailer checksum since version 2: CRC32C of every trailer byte but the checksum's own four. */
  static int checksum(byte[] b) {
    CRC32C c = new CRC32C();
    c.update(b, 0, 48);
    c.update(b, 52, SIZE - 52);
    return (int) c.getValue();
  }

  /**
   * Decodes and validates a trailer read from a file of {@code fileSize} bytes. The checksum is
   * checked before any field is believed; a version 1 trailer, whose checksum does not cover its
   * version, is accepted only if its version field says 1 and its checksum matches.
   */
  static Trailer decode(Path path, byte[] b, long fileSize) {
    long at = fileSize - SIZE;
    if (!Bytes.equals(b, 56, 8, MAGIC, 0, 8)) {
      throw new CorruptionException(path + ": not a Bellows sorted file, or truncated or damaged: no magic"
          + " \"BELLOWSF\" at offset " + (fileSize - 8));
    }
    int stored = Bytes.getInt(b, 48);
    int version = Bytes.getInt(b, 52);
    if (stored == checksum(b)) {
      if (version < 2 || version > CURRENT_VERSION) {
        throw new StorageException(path + ": sorted-file format version " + version
            + " is not supported (this build reads versions 1 to " + CURRENT_VERSION + ")");
      }
    } else if (version != 1 || stored != BlockFormat.crc(b, 0, 48)) {
      throw new CorruptionException(path + ": trailer checksum mismatch at offset " + at);
    }
    Trailer t = new Trailer(Bytes.getLong(b, 0), Bytes.getLong(b, 8), Bytes.getInt(b, 16), Bytes.getInt(b, 20),
        Bytes.getLong(b, 24), Bytes.getInt(b, 32), Bytes.getLong(b, 40), Bytes.getInt(b, 36), version);
    long blockArea = at;
    if (t.dataEnd < 0 || t.dataEnd > blockArea
        || !within(t.rootIndexOffset, t.rootIndexSize, t.dataEnd, blockArea)
        || !within(t.metaOffset, t.metaSize, t.dataEnd, blockArea)
        || (t.bloomSize != 0 && !within(t.bloomOffset, t.bloomSize, t.dataEnd, blockArea))
        || t.indexLevels < 1 || t.indexLevels > MAX_INDEX_LEVELS) {
      throw new CorruptionException(path + ": trailer at offset " + blockArea + " is inconsistent with a file of "
          + fileSize + " bytes: " + t);
    }
    return t;
  }

  private static boolean within(long off, int size, long from, long to) {
    return size >= BlockFormat.OVERHEAD && off >= from && off + size <= to;
  }
}
