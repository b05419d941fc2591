package io.bellows.sstable;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.config.BloomType;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.fs.WritableFile;
import io.bellows.util.Clock;
import io.bellows.util.StorageException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes one sorted file: cells appended in strictly increasing {@link CellComparator} order go into
 * data blocks (cut by the {@link BlockBoundaryPolicy}); {@link #finish()} writes the block index,
 * Bloom filter, metadata and trailer and fsyncs the file. The caller writes under a temporary name
 * and renames (and fsyncs the directory) afterwards. Not thread-safe: one thread writes a file.
 *
 * <p>Life cycle: {@code append*} then exactly one of {@link #finish()} or {@link #abort()}; after
 * either, the writer is closed and further calls throw {@link IllegalStateException}.
 */
public final class SortedFileWriter {
  private final FileSystem fs;
  private final Path path;
  private final SortedFileOptions options;
  private final Clock clock;
  private final WritableFile channel;
  /** Buffered stream over the file; flushed before the fsync. */
  private final OutputStream os;
  private final BlockOutput out;
  private final BlockBoundaryPolicy boundary;
  private final DataBlockBuilder block;
  private final BlockIndexWriter index;
  private final BloomType bloomType;
  /** An empty filter used only for its key hash function. */
  private final BloomFilter hasher;

  private long[] bloomHashes;
  private int bloomKeys;
  /** The last cell appended, a view over {@link #previousBytes} (rewritten by every append). */
  private Cell previous;
  private byte[] previousBytes = new byte[256];
  private Cell first;
  private long cellCount;
  private final long[] countsByType = new long[256];
  private long minTs = Long.MAX_VALUE;
  private long maxTs = Long.MIN_VALUE;
  private long maxSeqId;
  private long uncompressedDataSize;
  /** The policy found the block full: it closes before the next row's first cell. */
  private boolean blockFull;
  /** The last block was closed at {@link BlockBoundaryPolicy#rowSplitSize()}, inside a row or at its end. */
  private boolean closedAtSplitSize;
  /** Some row's cells lie in more than one data block (recorded in the metadata for readers). */
  private boolean rowsSpanBlocks;
  private boolean closed;
  /** Cache-on-write: handed every data block as it is written; null for none. */
  private java.util.function.Consumer<Block> onDataBlock;

  private SortedFileWriter(FileSystem fs, Path path, SortedFileOptions options, Clock clock, WritableFile channel) {
    this.fs = fs;
    this.path = path;
    this.options = options;
    this.clock = clock;
    this.channel = channel;
    OutputStream os = new BufferedOutputStream(channel.asOutputStream(), 128 * 1024);
    this.out = new BlockOutput(os);
    this.boundary = BlockBoundaryPolicy.of(options);
    this.block = new DataBlockBuilder(options.blockSize());
    this.index = new BlockIndexWriter(options.indexBlockSize());
    this.bloomType = options.bloomType();
    this.hasher = new BloomFilter(bloomType, BloomFilter.Layout.CLASSIC, 1, 64, 0, new long[1]);
    this.bloomHashes = new long[(int) Math.min(Math.max(16, options.expectedCellCount()), 1 << 20)];
    this.os = os;
  }

  /** {@link #create(FileSystem, Path, SortedFileOptions, Clock)} on the local file system. */
  public static SortedFileWriter create(Path path, SortedFileOptions options, Clock clock) {
    return create(LocalFileSystem.INSTANCE, path, options, clock);
  }

  /** Creates the file (which must not exist) and a writer for it; the creation time comes from {@code clock}. */
  public static SortedFileWriter create(FileSystem fs, Path path, SortedFileOptions options, Clock clock) {
    try {
      return new SortedFileWriter(fs, path, options, clock, fs.create(path));
    } catch (IOException e) {
      throw new StorageException(path + ": cannot create sorted file", e);
    }
  }

  public static SortedFileWriter create(Path path, SortedFileOptions options) {
    return create(path, options, Clock.SYSTEM);
  }

  public Path path() {
    return path;
  }

  /**
   * Hands every data block, as written (offset, on-disk size, uncompressed payload), to {@code
   * listener}: a block cache's cache-on-write. Call before the first append.
   */
  public SortedFileWriter onDataBlock(java.util.function.Consumer<Block> listener) {
    this.onDataBlock = listener;
    return this;
  }

  /**
   * Appends a cell. Throws {@link IllegalArgumentException} unless it sorts strictly after the
   * previous cell (by key and sequence id).
   */
  public void append(Cell c) {
    checkOpen();
    if (previous != null && CellComparator.INSTANCE.compare(previous, c) >= 0) {
      throw new IllegalArgumentException(path + ": cell " + c + " does not sort after " + previous);
    }
    // A full block ends between rows (BlockBoundaryPolicy), so that a get reads one block.
    if (previous != null && !previous.sameRow(c)) {
      if (blockFull) {
        flushBlock();
      }
    } else if (closedAtSplitSize) {
      rowsSpanBlocks = true;
    }
    closedAtSplitSize = false;
    if (bloomType != BloomType.NONE && (previous == null || !BloomKeys.sameKey(bloomType, previous, c))) {
      if (bloomKeys == bloomHashes.length) {
        bloomHashes = Arrays.copyOf(bloomHashes, bloomHashes.length * 2);
      }
      bloomHashes[bloomKeys++] = BloomKeys.hashOf(bloomType, hasher, c);
    }
    block.add(c);
    if (first == null) {
      first = copy(c);
    }
    // Keep our own copy: the caller may reuse the cell's array after append returns. One buffer,
    // reused, rather than a new array per cell: the writer sees every flushed and compacted cell.
    int len = c.length();
    if (previousBytes.length < len) {
      previousBytes = new byte[Math.max(len, 2 * previousBytes.length)];
    }
    System.arraycopy(c.array(), c.offset(), previousBytes, 0, len);
    previous = new Cell(previousBytes, 0, len, c.seqId());
    cellCount++;
    countsByType[c.typeCode() & 0xff]++;
    long ts = c.timestamp();
    minTs = Math.min(minTs, ts);
    maxTs = Math.max(maxTs, ts);
    maxSeqId = Math.max(maxSeqId, c.seqId());
    int size = block.currentSize();
    blockFull = blockFull || boundary.isFull(size, block.entryCount());
    if (blockFull && size >= boundary.rowSplitSize()) {
      flushBlock(); // a very wide row: split it rather than make one huge block
      closedAtSplitSize = true;
    }
  }

  private static Cell copy(Cell c) {
    return new Cell(c.toBytes(), 0, c.length(), c.seqId());
  }

  private void flushBlock() {
    blockFull = false;
    int length = block.seal();
    byte[] sealed = block.sealedArray();
    uncompressedDataSize += length;
    try {
      long off = out.position();
      int size = out.write(BlockType.DATA, options.compression(), sealed, 0, length);
      index.add(previous.array(), previous.keyOffset(), previous.keyLength(), previous.seqId(), off, size);
      if (onDataBlock != null) { // cache-on-write keeps the payload: a copy of its own
        onDataBlock.accept(new Block(BlockType.DATA, off, size, Arrays.copyOf(sealed, length)));
      }
    } catch (IOException e) {
      throw fail("write of a data block failed", e);
    } finally {
      block.reset();
    }
  }

  /** Writes index, Bloom filter, metadata and trailer, fsyncs and closes the file; returns its metadata. */
  public FileMetadata finish() {
    checkOpen();
    try {
      if (block.entryCount() > 0) {
        flushBlock();
      }
      long dataEnd = out.position();
      BlockIndexWriter.Root root = index.write(out);
      long indexSize = out.position() - dataEnd;
      long bloomOffset = 0;
      int bloomSize = 0;
      if (bloomType != BloomType.NONE) {
        BloomFilter bloom = BloomFilter.build(bloomType, BloomFilter.Layout.BLOCKED, bloomHashes, bloomKeys,
            options.bloomErrorRate());
        bloomOffset = out.position();
        bloomSize = out.write(bloom.blockType(), io.bellows.config.Compression.NONE, bloom.encode());
      }
      long metaOffset = out.position();
      long created = options.creationTimeMillis() >= 0 ? options.creationTimeMillis() : clock.currentTimeMillis();
      // The meta block's own size is fixed for given keys, so the final file size can be computed up front.
      FileMetadata draft = metadata(dataEnd, indexSize, created, 0);
      int metaSize = BlockFormat.OVERHEAD + draft.encode().length;
      long fileSize = metaOffset + metaSize + Trailer.SIZE;
      FileMetadata meta = metadata(dataEnd, indexSize, created, fileSize);
      int written = out.write(BlockType.META, io.bellows.config.Compression.NONE, meta.encode());
      if (written != metaSize) {
        throw new IllegalStateException("meta block size changed from " + metaSize + " to " + written);
      }
      Trailer t = new Trailer(dataEnd, root.offset(), root.onDiskSize(), root.levels(), metaOffset, metaSize,
          bloomOffset, bloomSize, Trailer.CURRENT_VERSION);
      out.writeRaw(t.encode());
      os.flush();
      channel.sync();
      channel.close();
      closed = true;
      return meta;
    } catch (IOException e) {
      throw fail("finishing the file failed", e);
    }
  }

  private FileMetadata metadata(long dataEnd, long indexSize, long created, long fileSize) {
    return new FileMetadata(first, previous == null ? null : copy(previous), minTs, maxTs, maxSeqId, cellCount, countsByType.clone(), index.size(),
        bloomType, options.bloomErrorRate(), options.compression(), options.blockSize(), created,
        options.majorCompaction(), !rowsSpanBlocks, dataEnd, uncompressedDataSize, indexSize, fileSize);
  }

  /** Stops writing and deletes the file. Idempotent; safe after a failed append or finish. */
  public void abort() {
    if (!closed) {
      closed = true;
      try {
        channel.close();
      } catch (IOException e) {
        // Deleting is what matters; a failed close changes nothing for the caller.
      }
    }
    try {
      fs.delete(path);
    } catch (IOException e) {
      throw new StorageException(path + ": cannot delete aborted sorted file", e);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(path + ": writer already finished or aborted");
    }
  }

  private StorageException fail(String what, IOException e) {
    return new StorageException(path + ": " + what, e);
  }
}
