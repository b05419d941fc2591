package io.bellows.sstable;

import io.bellows.util.CorruptionException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the data block that may hold a key: binary search of the root, then of one block per lower
 * level. Every index block is read once, when the file is opened, and kept (pinned) here, so a
 * lookup reads nothing from the file: a get costs at most one data-block read per file. (Before,
 * each lookup read its leaf index block from the file, a second block per file and get once a
 * file's index outgrew one block.) The index is about key size + 24 bytes per data block, roughly
 * 0.1% of the data with 64 KiB blocks. Thread-safe: immutable after construction.
 */
final class BlockIndexReader {
  private final Path path;
  private final byte[] root;
  private final int rootCount;
  private final int levels;
  /** The non-root index blocks by offset; never modified after construction. */
  private final Map<Long, Block> pinned = new HashMap<>();
  private final long pinnedBytes;

  /** Reads every non-root index block through {@code source} (the file) and keeps it. */
  BlockIndexReader(Path path, BlockSource source, Block rootBlock, int levels) {
    this.path = path;
    this.root = rootBlock.payload();
    this.levels = levels;
    try {
      this.rootCount = IndexBlockCodec.count(root);
    } catch (MalformedBlockException e) {
      throw new CorruptionException(path + ": root index at offset " + rootBlock.offset() + ": " + e.getMessage());
    }
    long bytes = root.length;
    List<IndexEntry> current = new ArrayList<>();
    for (int i = 0; i < rootCount; i++) {
      current.add(entryOf(root, rootCount, i, -1));
    }
    for (int level = levels; level > 2; level--) { // entries of level 2 and up point at index blocks
      List<IndexEntry> next = new ArrayList<>();
      for (IndexEntry e : current) {
        Block b = pin(source, e);
        bytes += b.payload().length;
        int n = countOf(b);
        for (int i = 0; i < n; i++) {
          next.add(entryOf(b.payload(), n, i, b.offset()));
        }
      }
      current = next;
    }
    if (levels > 1) {
      for (IndexEntry e : current) {
        bytes += pin(source, e).payload().length;
      }
    }
    this.pinnedBytes = bytes;
  }

  private Block pin(BlockSource source, IndexEntry e) {
    Block b = source.read(e.offset(), e.onDiskSize());
    if (b.type() != BlockType.INDEX) {
      throw new CorruptionException(path + ": expected an index block at offset " + e.offset() + " but found " + b.type());
    }
    pinned.put(e.offset(), b);
    return b;
  }

  /** Payload bytes of the index held in memory, root included. */
  long pinnedBytes() {
    return pinnedBytes;
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
   * An entry whose key is the last key of the last data block ending before the key (the entry of
   * that block, or of an index block whose last block it is), or null if no block ends before it.
   * For reversed reads: the end of the block before the one {@link #locate} finds.
   */
  IndexEntry lastBefore(byte[] k, int kOff, int kLen, long seq) {
    return lastBefore(root, rootCount, levels, -1, k, kOff, kLen, seq);
  }

  /** {@code p} holds {@code n} entries of {@code level} (1: entries point at data blocks). */
  private IndexEntry lastBefore(byte[] p, int n, int level, long at, byte[] k, int kOff, int kLen, long seq) {
    int i;
    try {
      i = IndexBlockCodec.search(p, n, k, kOff, kLen, seq, false);
    } catch (MalformedBlockException ex) {
      throw new CorruptionException(path + ": index block at offset " + (at < 0 ? "root" : at) + ": " + ex.getMessage());
    }
    if (level == 1) {
      return i == 0 ? null : entryOf(p, n, i - 1, at);
    }
    if (i < n) { // the subtree that holds the key may also hold blocks ending before it
      Block child = readIndexBlock(entryOf(p, n, i, at));
      IndexEntry e = lastBefore(child.payload(), countOf(child), level - 1, child.offset(), k, kOff, kLen, seq);
      if (e != null) {
        return e;
      }
    }
    // Every block under entry i-1 ends before the key; the entry's key is the last one under it.
    return i == 0 ? null : entryOf(p, n, i - 1, at);
  }

  /**
   * Every level's entries, root first; the last list holds one entry per data block in file order.
   * Decodes the whole index, so it is for inspection, splits and tests, not for the read path.
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
    Block b = pinned.get(e.offset());
    if (b == null || b.onDiskSize() != e.onDiskSize()) {
      throw new CorruptionException(path + ": index entry points at offset " + e.offset() + ", not at an index block");
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
