package io.bellows.sstable;

import io.bellows.cell.Cell;

/**
 * Builds the payload of one data block from cells appended in order (see docs, "Data block"): each
 * entry is the length of the key prefix shared with the previous entry, the unshared key bytes, the
 * value and the sequence id; every {@link #RESTART_INTERVAL}th entry is a restart point that stores
 * its whole key, and the block ends with the restart offsets and their count. Not thread-safe;
 * reused for block after block via {@link #finish()}, or {@link #seal()} and {@link #reset()}.
 */
final class DataBlockBuilder {
  /** Entries between restart points: trades block size (prefix compression) for seek cost. */
  static final int RESTART_INTERVAL = 16;

  private final ByteSink entries;
  private final ByteSink restarts = new ByteSink(64);
  private byte[] prevKey = new byte[64];
  private int prevKeyLen;
  private int count;

  DataBlockBuilder(int expectedSize) {
    entries = new ByteSink(expectedSize + expectedSize / 8);
  }

  int entryCount() {
    return count;
  }

  /** Size the payload would have if finished now (entries plus restart array). */
  int currentSize() {
    return entries.size() + restarts.size() + 4;
  }

  void add(Cell c) {
    byte[] a = c.array();
    int keyOff = c.keyOffset();
    int keyLen = c.keyLength();
    int shared = 0;
    if (count % RESTART_INTERVAL == 0) {
      restarts.putInt(entries.size());
    } else {
      int max = Math.min(keyLen, prevKeyLen);
      // Cells of one row share the whole row key and more: one vectorized search, not a byte loop.
      int m = java.util.Arrays.mismatch(a, keyOff, keyOff + max, prevKey, 0, max);
      shared = m < 0 ? max : m;
    }
    int valueLen = c.valueLength();
    entries.putVarLong(shared);
    entries.putVarLong(keyLen - shared);
    entries.putVarLong(valueLen);
    entries.putBytes(a, keyOff + shared, keyLen - shared);
    entries.putBytes(a, c.valueOffset(), valueLen);
    entries.putVarLong(c.seqId());
    if (prevKey.length < keyLen) {
      prevKey = new byte[Math.max(keyLen, prevKey.length * 2)];
    }
    System.arraycopy(a, keyOff + shared, prevKey, shared, keyLen - shared);
    prevKeyLen = keyLen;
    count++;
  }

  /** Returns the finished payload and resets the builder for the next block. */
  byte[] finish() {
    byte[] out = java.util.Arrays.copyOf(sealedArray(), seal());
    reset();
    return out;
  }

  /**
   * Finishes the payload in place and returns its length; it is the first bytes of {@link
   * #sealedArray} until {@link #reset}. A writer that only writes the block out copies nothing.
   */
  int seal() {
    int restartCount = restarts.size() / 4;
    entries.putBytes(restarts.array(), 0, restarts.size());
    entries.putInt(restartCount);
    return entries.size();
  }

  /** The array holding the sealed payload (see {@link #seal}). */
  byte[] sealedArray() {
    return entries.array();
  }

  /** Starts the next block. */
  void reset() {
    entries.reset();
    restarts.reset();
    prevKeyLen = 0;
    count = 0;
  }
}
