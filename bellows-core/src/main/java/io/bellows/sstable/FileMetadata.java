package io.bellows.sstable;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.config.BloomType;
import io.bellows.config.Compression;
import java.util.Arrays;

/**
 * What a sorted file holds, written in its META block (see docs, "Meta block") and returned by
 * {@link SortedFileWriter#finish()}: first and last cell key, timestamp range, largest sequence id,
 * counts, and how the file was written. Immutable. For a file without cells the keys are null and
 * the timestamp range is empty ({@code minTimestamp > maxTimestamp}).
 *
 * <p>{@code rowsWithinBlocks}: no row's cells lie in more than one data block, so a row whose cells
 * reach the end of a block ends there. Written since format version 4; false for older files,
 * whose blocks could end inside a row.
 */
public record FileMetadata(
    Cell firstKey,
    Cell lastKey,
    long minTimestamp,
    long maxTimestamp,
    long maxSeqId,
    long cellCount,
    long[] countsByTypeCode,
    long dataBlockCount,
    BloomType bloomType,
    double bloomErrorRate,
    Compression compression,
    int blockSize,
    long creationTimeMillis,
    boolean majorCompaction,
    boolean rowsWithinBlocks,
    long dataSize,
    long uncompressedDataSize,
    long indexSize,
    long fileSize) {

  /** Flags byte, bit 0: the file is the output of a major compaction (the whole byte before version 4). */
  static final int FLAG_MAJOR_COMPACTION = 1;
  /** Flags byte, bit 1 (version 4): no row spans two data blocks. */
  static final int FLAG_ROWS_WITHIN_BLOCKS = 2;

  /** Number of cells of one type. */
  public long count(CellType t) {
    return countsByTypeCode[t.code() & 0xff];
  }

  /** Whether the file holds column or family tombstones (which mask older timestamps). */
  public boolean hasRangeTombstones() {
    return count(CellType.DELETE_COLUMN) > 0 || count(CellType.DELETE_FAMILY) > 0;
  }

  /** The row of the first cell, or null for an empty file. */
  public byte[] firstRow() {
    return firstKey == null ? null : firstKey.row();
  }

  public byte[] lastRow() {
    return lastKey == null ? null : lastKey.row();
  }

  byte[] encode() {
    ByteSink out = new ByteSink(256);
    putKey(out, firstKey);
    putKey(out, lastKey);
    out.putLong(minTimestamp);
    out.putLong(maxTimestamp);
    out.putLong(maxSeqId);
    out.putLong(cellCount);
    int types = 0;
    for (long c : countsByTypeCode) {
      types += c > 0 ? 1 : 0;
    }
    out.putInt(types);
    for (int code = 0; code < countsByTypeCode.length; code++) {
      if (countsByTypeCode[code] > 0) {
        out.putByte(code);
        out.putLong(countsByTypeCode[code]);
      }
    }
    out.putLong(dataBlockCount);
    out.putByte(bloomType.code());
    out.putLong(Double.doubleToLongBits(bloomErrorRate));
    out.putByte(compression.code());
    out.putInt(blockSize);
    out.putLong(creationTimeMillis);
    out.putByte((majorCompaction ? FLAG_MAJOR_COMPACTION : 0) | (rowsWithinBlocks ? FLAG_ROWS_WITHIN_BLOCKS : 0));
    out.putLong(dataSize);
    out.putLong(uncompressedDataSize);
    out.putLong(indexSize);
    out.putLong(fileSize);
    return out.toByteArray();
  }

  private static void putKey(ByteSink out, Cell k) {
    if (k == null) {
      out.putInt(0);
      return;
    }
    out.putInt(k.keyLength());
    out.putBytes(k.array(), k.keyOffset(), k.keyLength());
    out.putLong(k.seqId());
  }

  /** Decodes the meta block of a file of format {@code version} (whose flags byte it checks). */
  static FileMetadata decode(byte[] p, int version) {
    ByteReader r = new ByteReader(p, 0, p.length);
    Cell first = getKey(r);
    Cell last = getKey(r);
    long minTs = r.getLong();
    long maxTs = r.getLong();
    long maxSeq = r.getLong();
    long cells = r.getLong();
    int types = r.getInt();
    if (types < 0 || types > 256) {
      throw new MalformedBlockException("type count " + types + " out of range");
    }
    long[] counts = new long[256];
    for (int i = 0; i < types; i++) {
      counts[r.getByte()] = r.getLong();
    }
    long blocks = r.getLong();
    BloomType bloom;
    Compression comp;
    int bloomCode = r.getByte();
    double fp = Double.longBitsToDouble(r.getLong());
    int compCode = r.getByte();
    try {
      bloom = BloomType.fromCode((byte) bloomCode);
      comp = Compression.fromCode((byte) compCode);
    } catch (IllegalArgumentException e) {
      throw new MalformedBlockException(e.getMessage());
    }
    int blockSize = r.getInt();
    long created = r.getLong();
    int flags = r.getByte() & 0xff;
    int known = version >= 4 ? FLAG_MAJOR_COMPACTION | FLAG_ROWS_WITHIN_BLOCKS : FLAG_MAJOR_COMPACTION;
    if ((flags & ~known) != 0) {
      throw new MalformedBlockException("unknown metadata flags " + Integer.toHexString(flags));
    }
    boolean major = (flags & FLAG_MAJOR_COMPACTION) != 0;
    boolean rowsWithinBlocks = (flags & FLAG_ROWS_WITHIN_BLOCKS) != 0;
    long dataSize = r.getLong();
    long rawSize = r.getLong();
    long indexSize = r.getLong();
    long fileSize = r.getLong();
    if (r.remaining() != 0) {
      throw new MalformedBlockException(r.remaining() + " unexpected bytes after the metadata");
    }
    return new FileMetadata(first, last, minTs, maxTs, maxSeq, cells, counts, blocks, bloom, fp, comp, blockSize,
        created, major, rowsWithinBlocks, dataSize, rawSize, indexSize, fileSize);
  }

  private static Cell getKey(ByteReader r) {
    int len = r.getInt();
    if (len == 0) {
      return null;
    }
    if (len < 0) {
      throw new MalformedBlockException("key length " + len);
    }
    byte[] key = r.getBytes(len);
    DataBlockCursor.checkKey(key, 0, len);
    return new IndexEntry(key, r.getLong(), 0, 0).keyAsCell();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileMetadata && Arrays.equals(encode(), ((FileMetadata) o).encode());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(encode());
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append("firstKey=").append(firstKey).append('\n');
    sb.append("lastKey=").append(lastKey).append('\n');
    sb.append("timestamps=[").append(minTimestamp).append(", ").append(maxTimestamp).append("]\n");
    sb.append("maxSeqId=").append(maxSeqId).append('\n');
    sb.append("cells=").append(cellCount);
    for (CellType t : CellType.values()) {
      if (count(t) > 0) {
        sb.append(' ').append(t).append('=').append(count(t));
      }
    }
    sb.append('\n');
    sb.append("dataBlocks=").append(dataBlockCount).append('\n');
    sb.append("bloomType=").append(bloomType).append(" bloomErrorRate=").append(bloomErrorRate).append('\n');
    sb.append("compression=").append(compression).append(" blockSize=").append(blockSize).append('\n');
    sb.append("creationTimeMillis=").append(creationTimeMillis).append('\n');
    sb.append("majorCompaction=").append(majorCompaction).append(" rowsWithinBlocks=").append(rowsWithinBlocks).append('\n');
    sb.append("dataSize=").append(dataSize).append(" uncompressedDataSize=").append(uncompressedDataSize)
        .append(" indexSize=").append(indexSize).append(" fileSize=").append(fileSize);
    return sb.toString();
  }
}
