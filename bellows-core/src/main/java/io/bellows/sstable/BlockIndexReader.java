package io.bellows.sstable;

import io.bellows.util.CorruptionException;
import java.nio.file.Path;

/**
 * Finds the data block that may hold a key: binary search of the in-memory root, then one block
 * read per lower level through the {@link BlockSource} (so a block cache serves them). Thread-safe:
 * the root payload is immutable and the source is thread-safe.
 */
final class BlockIndexReader {
  private final Path path;
  private final BlockSource source;
  private final byte[] root;
  private final int rootCount;
  private final int levels;

  BlockIndexReader(Path path, BlockSource source, Block rootBlock, int levels) {
    this.path = path;
    this.source = source;
    this.root = rootBlock.payload();
    this.levels = levels;
    try {
      this.rootCount = IndexBlockCodec.count(root);
    } catch (MalformedBlockException e) {
      throw new CorruptionException(path + ": root index at offset " + rootBlock.offset() + ": " + e.getMessage());
    }
  }

  int levels() {
    return levels;
  }

  int rootEntryCount() {
    return rootCount;
  }

  /**
   * The data block whose last key is the first one &gt;= the key (&gt; when {@code strict}), or
   * null if every block ends before it.
   */
  IndexEntry locate(byte[] k, int kOff, int kLen, long seq, boolean strict) {
    byte[] p = root;
    int n = rootCount;
    long at = -1;
    for (int level = levels; ; level--) {
      IndexEntry e;
      try {
        int i = IndexBlockCodec.search(p, n, k, kOff, kLen, seq, strict);
        if (i == n) {
          return null;
        }
        e = IndexBlockCodec.entry(p, n, i);
      } catch (MalformedBlockException ex) {
        throw new CorruptionException(path + ": index block at offset " + (at < 0 ? "root" : at) + ": " + ex.getMessage());
      }
      if (level == 1) {
        return e;
      }
      Block child = readIndexBlock(e);
      at = child.offset();
      p = child.payload();
      n = countOf(child);
    }
  }

  /**
   * Every level's entries, root first; the last list holds one entry per data block in file order.
   * Reads the whole index, so it is for inspection and tests, not for the read path.
   */
  java.util.List<java.util.List<IndexEntry>> allLevels() {
    java.util.List<java.util.List<IndexEntry>> out = new java.util.ArrayList<>();
    java.util.List<IndexEntry> current = new java.util.ArrayList<>();
    for (int i = 0; i < rootCount; i++) {
      current.add(entryOf(root, rootCount, i, -1));
    }
    out.add(current);
    for (int level = levels; level > 1; level--) {
      java.util.List<IndexEntry> next = new java.util.ArrayList<>();
      for (IndexEntry e : current) {
        Block b = readIndexBlock(e);
        int n = countOf(b);
        for (int i = 0; i < n; i++) {
          next.add(entryOf(b.payload(), n, i, b.offset()));
        }
      }
      out.add(next);
      current = next;
    }
    return out;
  }

  private Block readIndexBlock(IndexEntry e) {
    Block b = source.read(e.offset(), e.onDiskSize());
    if (b.type() != BlockType.INDEX) {
      throw new CorruptionException(path + ": expected an index block at offset " + e.offset() + " but found " + b.type());
    }
    return b;
  }

  private int countOf(Block b) {
    try {
      return IndexBlockCodec.count(b.payload());
    } catch (MalformedBlockException ex) {
      throw new CorruptionException(path + ": index block at offset " + b.offset() + ": " + ex.getMessage());
    }
  }

  private IndexEntry entryOf(byte[] p, int n, int i, long at) {
    try {
      return IndexBlockCodec.entry(p, n, i);
    } catch (MalformedBlockException ex) {
      throw new CorruptionException(path + ": index block at offset " + (at < 0 ? "root" : at) + ": " + ex.getMessage());
    }
  }
}
