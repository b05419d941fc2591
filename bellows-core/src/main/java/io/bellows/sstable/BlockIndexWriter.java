package io.bellows.sstable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects one entry per data block while the file is written and, at the end, writes the block
 * index bottom-up: while the current level does not fit one index block of the configured size, it
 * is cut into {@link BlockType#INDEX} blocks (at least two entries each, so every level shrinks) whose
 * last keys form the next level; the level that fits is written as the {@link BlockType#ROOT_INDEX}.
 * Not thread-safe.
 */
final class BlockIndexWriter {
  private final int indexBlockSize;
  private final List<IndexEntry> dataEntries = new ArrayList<>();

  BlockIndexWriter(int indexBlockSize) {
    this.indexBlockSize = indexBlockSize;
  }

  void add(IndexEntry dataBlock) {
    dataEntries.add(dataBlock);
  }

  int size() {
    return dataEntries.size();
  }

  /** Where the root went and how many levels the index has (1 = the root points at data blocks). */
  record Root(long offset, int onDiskSize, int levels) {}

  Root write(BlockOutput out) throws IOException {
    List<IndexEntry> level = dataEntries;
    int levels = 1;
    while (level.size() > 1 && encodedSize(level) > indexBlockSize) {
      List<IndexEntry> parents = new ArrayList<>();
      List<IndexEntry> chunk = new ArrayList<>();
      int chunkSize = 4;
      for (IndexEntry e : level) {
        chunk.add(e);
        chunkSize += IndexBlockCodec.entrySize(e);
        if (chunk.size() >= 2 && chunkSize >= indexBlockSize) {
          parents.add(writeChunk(out, chunk));
          chunk = new ArrayList<>();
          chunkSize = 4;
        }
      }
      if (chunk.size() == 1 && !parents.isEmpty()) {
        // A lone trailing entry would make a one-entry block; it is not wrong, just wasteful.
        parents.add(writeChunk(out, chunk));
      } else if (!chunk.isEmpty()) {
        parents.add(writeChunk(out, chunk));
      }
      level = parents;
      levels++;
    }
    long rootOffset = out.position();
    int rootSize = out.write(BlockType.ROOT_INDEX, io.bellows.config.Compression.NONE, IndexBlockCodec.encode(level));
    return new Root(rootOffset, rootSize, levels);
  }

  private static IndexEntry writeChunk(BlockOutput out, List<IndexEntry> chunk) throws IOException {
    long off = out.position();
    int size = out.write(BlockType.INDEX, io.bellows.config.Compression.NONE, IndexBlockCodec.encode(chunk));
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
