package io.bellows.sstable;

import io.bellows.util.Bytes;
import java.util.List;

/**
 * Encodes and searches index block payloads (root and non-root share one layout, see docs, "Index
 * block"): entries of (varint key length, key, varint seqId, varint offset, varint on-disk size),
 * then the int32 offset of every entry and the int32 entry count, so a search binary-searches the
 * payload without decoding it. Stateless.
 */
final class IndexBlockCodec {
  private IndexBlockCodec() {}

  /** Bytes one entry adds to a block (entry plus its offset slot). */
  static int entrySize(IndexEntry e) {
    return io.bellows.util.VarInt.sizeOf(e.key().length) + e.key().length + io.bellows.util.VarInt.sizeOf(e.seqId())
        + io.bellows.util.VarInt.sizeOf(e.offset()) + io.bellows.util.VarInt.sizeOf(e.onDiskSize()) + 4;
  }

  static byte[] encode(List<IndexEntry> entries) {
    ByteSink out = new ByteSink(64 * entries.size() + 4);
    int[] offsets = new int[entries.size()];
    for (int i = 0; i < entries.size(); i++) {
      IndexEntry e = entries.get(i);
      offsets[i] = out.size();
      putEntry(out, e.key(), 0, e.key().length, e.seqId(), e.offset(), e.onDiskSize());
    }
    for (int o : offsets) {
      out.putInt(o);
    }
    out.putInt(entries.size());
    return out.toByteArray();
  }

  /** Appends one entry's bytes (not its offset slot). */
  static void putEntry(ByteSink out, byte[] key, int keyOffset, int keyLength, long seqId, long offset,
      int onDiskSize) {
    out.putVarLong(keyLength);
    out.putBytes(key, keyOffset, keyLength);
    out.putVarLong(seqId);
    out.putVarLong(offset);
    out.putVarLong(onDiskSize);
  }

  static int count(byte[] p) {
    if (p.length < 4) {
      throw new MalformedBlockException("index block of " + p.length + " bytes has no entry count");
    }
    int n = Bytes.getInt(p, p.length - 4);
    if (n < 0 || n > (p.length - 4) / 4) {
      throw new MalformedBlockException("index entry count " + n + " out of range");
    }
    return n;
  }

  /** Decodes entry {@code i} of an index block with {@code n} entries. */
  static IndexEntry entry(byte[] p, int n, int i) {
    int entriesEnd = p.length - 4 - 4 * n;
    int off = Bytes.getInt(p, entriesEnd + 4 * i);
    ByteReader r = new ByteReader(p, Math.max(0, Math.min(off, entriesEnd)), entriesEnd);
    if (off < 0 || off >= entriesEnd) {
      throw new MalformedBlockException("index entry offset " + off + " outside [0, " + entriesEnd + ")");
    }
    int kLen = r.getVarLength();
    byte[] key = r.getBytes(kLen);
    DataBlockCursor.checkKey(key, 0, kLen);
    long seq = r.getVarLong();
    long blockOff = r.getVarLong();
    int size = r.getVarLength();
    return new IndexEntry(key, seq, blockOff, size);
  }

  /**
   * Index of the first entry whose key is &gt;= the search key (&gt; when {@code strict}), or
   * {@code n} if there is none.
   */
  static int search(byte[] p, int n, byte[] k, int kOff, int kLen, long seq, boolean strict) {
    int entriesEnd = p.length - 4 - 4 * n;
    int lo = 0;
    int hi = n;
    ByteReader r = new ByteReader(p, 0, Math.max(0, entriesEnd)); // one reader for every probe
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int off = Bytes.getInt(p, entriesEnd + 4 * mid);
      if (off < 0 || off >= entriesEnd) {
        throw new MalformedBlockException("index entry offset " + off + " outside [0, " + entriesEnd + ")");
      }
      r.position(off);
      int eLen = r.getVarLength();
      int eOff = r.skip(eLen);
      DataBlockCursor.checkKey(p, eOff, eLen);
      long eSeq = r.getVarLong();
      int c = KeyOrder.compare(p, eOff, eLen, eSeq, k, kOff, kLen, seq);
      if (c < 0 || (strict && c == 0)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
