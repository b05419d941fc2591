package io.bellows.sstable;

import io.bellows.config.Compression;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects one entry per data block while the file is written and, at the end, writes the block
 * index bottom-up: while the current level does not fit one index block of the configured size, it
 * is cut into {@link BlockType#INDEX} blocks (at least two entries each, so every level shrinks) whose
 * last keys form the next level; the level that fits is written as the {@link BlockType#ROOT_INDEX}.
 * Not thread-safe.
 *
 * <p>The data blocks' entries are kept encoded as an index block holds them, back to back in one
 * array, rather than as an object and a key array per block: a compaction's file of small dynamic
 * blocks has tens of thousands of them, alive for the seconds it takes to write, long enough for
 * young collections to copy them again and again (docs/bench/log/2026-11-30-l2-slot-records.md).
 * The levels above are one entry per index block, a few hundred at most, and stay objects.
 */
final class BlockIndexWriter {
  private final int indexBlockSize;
  /** The data blocks' entries, encoded (see {@link IndexBlockCodec}), in file order. */
  private final ByteSink dataEntries = new ByteSink(4096);
  /** Where each entry starts in {@link #dataEntries}. */
  private int[] starts = new int[256];
  private int count;

  BlockIndexWriter(int indexBlockSize) {
    this.indexBlockSize = indexBlockSize;
  }

  /** Adds the entry of the next data block: its last key and sequence id, its offset and size. */
  void add(byte[] key, int keyOffset, int keyLength, long seqId, long offset, int onDiskSize) {
    if (count == starts.length) {
      starts = Arrays.copyOf(starts, count * 2);
    }
    starts[count++] = dataEntries.size();
    IndexBlockCodec.putEntry(dataEntries, key, keyOffset, keyLength, seqId, offset, onDiskSize);
  }

  int size() {
    return count;
  }

  /** Where the root went and how many levels the index has (1 = the root points at data blocks). */
  record Root(long offset, int onDiskSize, int levels) {}

  Root write(BlockOutput out) throws IOException {
    if (count <= 1 || encodedSize(0, count) <= indexBlockSize) {
      return writeRoot(out, encode(0, count), 1);
    }
    List<IndexEntry> level = new ArrayList<>();
    int from = 0;
    int chunkSize = 4;
    for (int i = 0; i < count; i++) {
      chunkSize += entryLength(i) + 4;
      if (i + 1 - from >= 2 && chunkSize >= indexBlockSize) {
        level.add(writeChunk(out, from, i + 1));
        from = i + 1;
        chunkSize = 4;
      }
    }
    if (from < count) {
      level.add(writeChunk(out, from, count)); // a lone trailing entry makes a one-entry block: wasteful, not wrong
    }
    int levels = 2;
    while (level.size() > 1 && encodedSize(level) > indexBlockSize) {
      List<IndexEntry> parents = new ArrayList<>();
      List<IndexEntry> chunk = new ArrayList<>();
      chunkSize = 4;
      for (IndexEntry e : level) {
        chunk.add(e);
        chunkSize += IndexBlockCodec.entrySize(e);
        if (chunk.size() >= 2 && chunkSize >= indexBlockSize) {
          parents.add(writeChunk(out, chunk));
          chunk = new ArrayList<>();
          chunkSize = 4;
        }
      }
      if (!chunk.isEmpty()) {
        parents.add(writeChunk(out, chunk));
      }
      level = parents;
      levels++;
    }
    return writeRoot(out, IndexBlockCodec.encode(level), levels);
  }

  private static Root writeRoot(BlockOutput out, byte[] payload, int levels) throws IOException {
    long rootOffset = out.position();
    int rootSize = out.write(BlockType.ROOT_INDEX, Compression.NONE, payload);
    return new Root(rootOffset, rootSize, levels);
  }

  private int entryLength(int i) {
    return (i + 1 < count ? starts[i + 1] : dataEntries.size()) - starts[i];
  }

  /** The payload size of an index block of the data entries {@code [from, to)}. */
  private int encodedSize(int from, int to) {
    int end = to < count ? starts[to] : dataEntries.size();
    return end - starts[from] + 4 * (to - from) + 4;
  }

  /** An index block payload of the data entries {@code [from, to)}: their bytes, their offsets, their count. */
  private byte[] encode(int from, int to) {
    int begin = from < count ? starts[from] : 0;
    int end = to < count ? starts[to] : dataEntries.size();
    ByteSink p = new ByteSink(end - begin + 4 * (to - from) + 4);
    p.putBytes(dataEntries.array(), begin, end - begin);
    for (int i = from; i < to; i++) {
      p.putInt(starts[i] - begin);
    }
    p.putInt(to - from);
    return p.size() == p.array().length ? p.array() : p.toByteArray(); // sized exactly but for tiny blocks
  }

  /** Writes the data entries {@code [from, to)} as an index block; its entry in the level above. */
  private IndexEntry writeChunk(BlockOutput out, int from, int to) throws IOException {
    long off = out.position();
    int size = out.write(BlockType.INDEX, Compression.NONE, encode(from, to));
    ByteReader r = new ByteReader(dataEntries.array(), starts[to - 1], dataEntries.size());
    byte[] lastKey = r.getBytes(r.getVarLength());
    return new IndexEntry(lastKey, r.getVarLong(), off, size);
  }

  private static IndexEntry writeChunk(BlockOutput out, List<IndexEntry> chunk) throws IOException {
    long off = out.position();
    int size = out.write(BlockType.INDEX, Compression.NONE, IndexBlockCodec.encode(chunk));
    IndexEntry last = chunk.get(chunk.size() - 1);
    return new IndexEntry(last.key(), last.seqId(), off, size);
  }

  private static int encodedSize(List<IndexEntry> entries) {
    int s = 4;
    for (IndexEntry e : entries) {
      s += IndexBlockCodec.entrySize(e);
    }
    return s;
  }
}
