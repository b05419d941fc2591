package io.bellows.sstable;

import io.bellows.cache.BlockCache;
import io.bellows.cache.BlockKey;
import io.bellows.cache.BlockKind;
import io.bellows.cache.CachedBlock;
import io.bellows.cache.InPlaceRead;
import io.bellows.cache.PayloadReader;

/**
 * A file's data blocks through the engine's block cache: a lookup by (file number, offset) first,
 * the file on a miss, and the block read is offered to the cache. Only data blocks come through a
 * reader's wrapped source (the index and the Bloom filter are read at open and kept by the reader),
 * so everything cached here is a data block. Thread-safe, as the cache and the file source are.
 */
final class CachingBlockSource implements BlockSource {
  private final BlockCache cache;
  private final long file;
  private final BlockSource raw;
  private final boolean inMemory;

  CachingBlockSource(BlockCache cache, long file, BlockSource raw, boolean inMemory) {
    this.cache = cache;
    this.file = file;
    this.raw = raw;
    this.inMemory = inMemory;
  }

  @Override
  public Block read(long offset, int onDiskSize) {
    BlockKey key = new BlockKey(file, offset);
    CachedBlock c = cache.get(key, BlockKind.DATA);
    if (c != null && c.onDiskSize() == onDiskSize && c.kind() == BlockKind.DATA) {
      return new Block(BlockType.DATA, offset, onDiskSize, c.payload(), c, true);
    }
    return readMissed(offset, onDiskSize);
  }

  @Override
  public <T> InPlaceRead<T> readCached(long offset, int onDiskSize, PayloadReader<T> reader) {
    InPlaceRead<T> r = cache.readInPlace(new BlockKey(file, offset), BlockKind.DATA, reader);
    return r != null && r.block().onDiskSize() == onDiskSize && r.block().kind() == BlockKind.DATA ? r : null;
  }

  @Override
  public Block readMissed(long offset, int onDiskSize) {
    BlockKey key = new BlockKey(file, offset);
    Block b = raw.read(offset, onDiskSize);
    if (b.type() == BlockType.DATA) {
      CachedBlock put = new CachedBlock(BlockKind.DATA, b.onDiskSize(), b.payload());
      cache.put(key, put, inMemory);
      return new Block(BlockType.DATA, offset, b.onDiskSize(), b.payload(), put, false);
    }
    return b;
  }
}
