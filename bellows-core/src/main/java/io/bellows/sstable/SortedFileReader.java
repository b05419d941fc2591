package io.bellows.sstable;

import io.bellows.scan.RowRange;
import io.bellows.scan.ScanQuery;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.config.BloomType;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.fs.ReadableFile;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.RefCounted;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.NavigableSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An open sorted file: trailer, metadata, the whole block index and the Bloom filter in memory
 * (read at open); data blocks read on demand through the {@link BlockSource}, one per lookup. Thread-safe: everything held is
 * immutable and block reads are positional.
 *
 * <p>Reference counted: {@link #open} returns it holding one reference for the opener; each
 * {@link #scanner()} takes another until closed. When the last is released the channel is closed
 * and, if {@link #markForDeletion()} was called, the file is deleted, so an obsolete file goes away
 * only once no reader uses it.
 */
public final class SortedFileReader extends RefCounted {
  private final FileSystem fs;
  private final Path path;
  private final long fileId;
  private final ReadableFile channel;
  private final FileBlockSource fileSource;
  private final BlockSource source;
  private final Trailer trailer;
  private final FileMetadata meta;
  private final BlockIndexReader index;
  private final BloomFilter bloom;
  /** The rows held, null when the file has no cell; with the newest timestamp, what every get checks. */
  private final RowRange rows;
  private final long maxTimestamp;
  private final AtomicBoolean deleteWhenReleased = new AtomicBoolean();
  private final BlockSource.Wrapper wrapper;

  private SortedFileReader(FileSystem fs, Path path, long fileId, ReadableFile channel, BlockSource.Wrapper wrapper)
      throws IOException {
    this.fs = fs;
    this.path = path;
    this.fileId = fileId;
    this.channel = channel;
    this.wrapper = wrapper;
    long size = channel.length();
    if (size < Trailer.SIZE) {
      throw new CorruptionException(path + ": not a Bellows sorted file, or truncated: " + size
          + " bytes is too short (the trailer alone is " + Trailer.SIZE + " bytes)");
    }
    FileBlockSource raw = new FileBlockSource(path, channel, size - Trailer.SIZE);
    this.fileSource = raw;
    this.trailer = Trailer.decode(path, raw.readFully(size - Trailer.SIZE, Trailer.SIZE), size);
    this.source = wrapper.wrap(fileId, raw);
    Block metaBlock = expect(raw.read(trailer.metaOffset(), trailer.metaSize()), BlockType.META);
    try {
      this.meta = FileMetadata.decode(metaBlock.payload(), trailer.version());
    } catch (MalformedBlockException e) {
      throw new CorruptionException(path + ": meta block at offset " + trailer.metaOffset() + ": " + e.getMessage());
    }
    if (meta.fileSize() != size || meta.dataSize() != trailer.dataEnd()) {
      throw new CorruptionException(path + ": file is " + size + " bytes but its metadata says " + meta.fileSize());
    }
    this.index = new BlockIndexReader(path, raw,
        expect(raw.read(trailer.rootIndexOffset(), trailer.rootIndexSize()), BlockType.ROOT_INDEX),
        trailer.indexLevels());
    if ((meta.bloomType() == BloomType.NONE) != (trailer.bloomSize() == 0)) {
      throw new CorruptionException(path + ": Bloom type " + meta.bloomType() + " disagrees with the trailer");
    }
    if (trailer.bloomSize() != 0) {
      // Versions 3 and 4 write the blocked layout, versions 1 and 2 the classic one; the block type says which.
      BlockType bloomBlock = trailer.version() >= 3 ? BlockType.BLOCKED_BLOOM : BlockType.BLOOM;
      Block b = expect(raw.read(trailer.bloomOffset(), trailer.bloomSize()), bloomBlock);
      try {
        this.bloom = BloomFilter.decode(bloomBlock, b.payload());
      } catch (MalformedBlockException e) {
        throw new CorruptionException(path + ": Bloom block at offset " + b.offset() + ": " + e.getMessage());
      }
    } else {
      this.bloom = null;
    }
    this.rows = meta.cellCount() == 0 ? null : RowRange.of(meta.firstKey(), meta.lastKey());
    this.maxTimestamp = meta.maxTimestamp();
  }

  /** Opens a file, reading blocks straight from it. */
  public static SortedFileReader open(Path path, long fileId) {
    return open(path, fileId, BlockSource.Wrapper.IDENTITY);
  }

  /** Opens a file; data blocks are read through {@code wrapper.wrap(fileId, raw)}, the rest at open from the file. */
  public static SortedFileReader open(Path path, long fileId, BlockSource.Wrapper wrapper) {
    return open(LocalFileSystem.INSTANCE, path, fileId, wrapper);
  }

  /** Opens a file of {@code fs}; data blocks are read through {@code wrapper.wrap(fileId, raw)}, the rest at open. */
  public static SortedFileReader open(FileSystem fs, Path path, long fileId, BlockSource.Wrapper wrapper) {
    if (fs.isDirectory(path)) {
      throw new StorageException(path + ": cannot open sorted file: it is a directory");
    }
    ReadableFile ch;
    try {
      ch = fs.open(path);
    } catch (IOException e) {
      throw new StorageException(path + ": cannot open sorted file: " + StorageException.reason(e), e);
    }
    try {
      return new SortedFileReader(fs, path, fileId, ch, wrapper);
    } catch (IOException e) {
      closeQuietly(ch);
      throw new StorageException(path + ": cannot read sorted file: " + StorageException.reason(e), e);
    } catch (RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  private static void closeQuietly(ReadableFile ch) {
    try {
      ch.close();
    } catch (IOException ignored) {
      // Already failing with the more useful exception.
    }
  }

  private Block expect(Block b, BlockType type) {
    if (b.type() != type) {
      throw new CorruptionException(path + ": expected a " + type + " block at offset " + b.offset() + " but found " + b.type());
    }
    return b;
  }

  public Path path() {
    return path;
  }

  public long fileId() {
    return fileId;
  }

  public FileMetadata metadata() {
    return meta;
  }

  public Trailer trailer() {
    return trailer;
  }

  /** The newest timestamp of the file's cells, tombstones included (its metadata's, kept here for gets). */
  public long maxTimestamp() {
    return maxTimestamp;
  }

  /** The Bloom filter, or null if the file has none. */
  public BloomFilter bloomFilter() {
    return bloom;
  }

  /** Bytes this reader has read from the file (cache hits of a wrapping source are not counted). */
  public long bytesRead() {
    return fileSource.bytesRead();
  }

  /** 4 KiB pages of the file this reader's reads touched, at open included. */
  public long pagesRead() {
    return fileSource.pagesRead();
  }

  /** Blocks of a type this reader has read from the file, at open included (cache hits are not counted). */
  public long blocksRead(BlockType type) {
    return fileSource.blocksRead(type);
  }

  /** Blocks of every type this reader has read from the file, at open included. */
  public long blocksRead() {
    long n = 0;
    for (BlockType t : BlockType.values()) {
      n += fileSource.blocksRead(t);
    }
    return n;
  }

  /** Payload bytes of the block index held in memory. */
  public long indexBytes() {
    return index.pinnedBytes();
  }

  /** A new unpositioned scanner; it holds a reference to this reader until closed. */
  public SortedFileScanner scanner() {
    retain();
    return new SortedFileScanner(this, true);
  }

  /**
   * A scanner that reads data blocks from the file, neither looking them up in the block cache nor
   * adding them: for compactions, which read every block once and would push out the blocks that
   * gets read again and again (HBase's compactions do not cache either).
   */
  public SortedFileScanner uncachedScanner() {
    retain();
    return new SortedFileScanner(this, false);
  }

  public boolean mayHold(ScanQuery q) {
    // Read from this object's fields: this runs per file for every get.
    if (rows == null || !rows.overlaps(q)) {
      return false;
    }
    if (maxTimestamp < q.minTimestamp()) {
      return false; // everything here, tombstones included, is older than the range
    }
    // No skip for cells newer than the range: a newer version still takes one of the family's
    // VERSIONS slots and a newer tombstone still masks older puts (docs/design/scan.md).
    if (q.isSingleRow()) {
      // The key range was checked above; the Bloom filter is left.
      if (bloom != null && bloom.type() == BloomType.ROW && !bloom.mightContainHash(q.rowHash())) {
        return false;
      }
      if (bloom != null && bloom.type() == BloomType.ROWCOL) {
        return mayContainQueriedColumns(q.startRow(), q.columns());
      }
    }
    return true;
  }

  /**
   * Reads every cell the file holds for {@code row} (all columns, versions and delete markers, in
   * order) through the block cache: the point-read path of gets. The caller holds a reference.
   */
  public RowRead readRow(byte[] row) {
    io.bellows.cell.Cell k = io.bellows.scan.CellScanner.rowStart(row);
    IndexEntry e = index.locate(k.array(), k.keyOffset(), k.keyLength(), k.seqId(), false);
    if (e == null) {
      return RowRead.ABSENT;
    }
    RowInBlock found;
    io.bellows.cache.CachedBlock cached;
    boolean hit;
    try {
      // Where the cache holds the block, read there: off the heap, only the row's cells are copied.
      io.bellows.cache.InPlaceRead<RowInBlock> r = source.readCached(e.offset(), e.onDiskSize(),
          payload -> RowInBlock.find(new DataBlockCursor(payload), k, row));
      if (r != null) {
        found = r.value();
        cached = r.block();
        hit = true;
      } else {
        Block b = expect(source.readMissed(e.offset(), e.onDiskSize()), BlockType.DATA);
        found = RowInBlock.find(new DataBlockCursor(b.payload()), k, row);
        cached = b.cached();
        hit = false;
      }
    } catch (MalformedBlockException ex) {
      throw corrupt(e.offset(), ex);
    }
    // A row that reaches the block's end may go on in the next block, unless the file says none does.
    boolean ended = found.endedInBlock() || meta.rowsWithinBlocks();
    if (!ended && !found.cells().isEmpty()) {
      readRowTail(row, e, found.cells());
    }
    return new RowRead(found.cells(), cached, hit, e.offset(), e.onDiskSize(), found.rowStart(), ended);
  }

  /** A row's cells in one data block: where its first entry is, and whether the row ends in the block. */
  private record RowInBlock(java.util.List<io.bellows.cell.Cell> cells, int rowStart, boolean endedInBlock) {
    static RowInBlock find(DataBlockCursor c, io.bellows.cell.Cell rowStartKey, byte[] row) {
      if (!c.seek(rowStartKey)) {
        throw new MalformedBlockException("no entry >= the key its index entry promises");
      }
      int rowStart = c.entryOffset();
      java.util.List<io.bellows.cell.Cell> cells = new java.util.ArrayList<>();
      while (c.valid() && c.currentRowIs(row)) {
        cells.add(c.current());
        c.advance();
      }
      return new RowInBlock(cells, rowStart, c.valid());
    }
  }

  /** The rest of a row that runs past the end of its block, from the blocks that follow. */
  private void readRowTail(byte[] row, IndexEntry e, java.util.List<io.bellows.cell.Cell> cells) {
    for (IndexEntry next = index.locate(e.key(), 0, e.key().length, e.seqId(), true); next != null;
        next = index.locate(next.key(), 0, next.key().length, next.seqId(), true)) {
      DataBlockCursor c = cursor(readDataBlock(next.offset(), next.onDiskSize(), true));
      try {
        for (c.seekToFirst(); c.valid(); c.advance()) {
          if (!c.currentRowIs(row)) {
            return;
          }
          cells.add(c.current());
        }
      } catch (MalformedBlockException ex) {
        throw corrupt(next.offset(), ex);
      }
    }
  }

  /**
   * The number of rows in the data block {@link #readRow} read (a walk of the block; read again
   * through the cache when the read had no heap copy of it).
   */
  public int rowCount(RowRead r) {
    io.bellows.cache.CachedBlock c = r.cached();
    byte[] payload = c != null && c.hasPayload() ? c.payload()
        : readDataBlock(r.blockOffset(), r.blockSize(), true).payload();
    try {
      return new DataBlockCursor(payload).rowCount();
    } catch (MalformedBlockException ex) {
      throw corrupt(r.blockOffset(), ex);
    }
  }

  /** Deletes the file once the last reference is released. */
  public void markForDeletion() {
    deleteWhenReleased.set(true);
  }

  public boolean isMarkedForDeletion() {
    return deleteWhenReleased.get();
  }

  /** False only if the file certainly holds no cell of {@code row} (key range, then ROW Bloom filter). */
  public boolean mayContainRow(byte[] row) {
    if (!rowInFileRange(row)) {
      return false;
    }
    return bloom == null || bloom.type() != BloomType.ROW || bloom.mightContain(row, 0, row.length);
  }

  /**
   * False only if the file certainly holds no cell of the column and no family tombstone that
   * could mask it (key range, then the Bloom filter).
   */
  public boolean mayContainColumn(byte[] row, byte[] family, byte[] qualifier) {
    if (!rowInFileRange(row)) {
      return false;
    }
    if (bloom == null) {
      return true;
    }
    if (bloom.type() == BloomType.ROW) {
      return bloom.mightContain(row, 0, row.length);
    }
    return BloomKeys.mightContainColumn(bloom, row, family, qualifier)
        || (meta.count(io.bellows.cell.CellType.DELETE_FAMILY) > 0
            && BloomKeys.mightContainColumn(bloom, row, family, Bytes.EMPTY));
  }

  boolean rowInFileRange(byte[] row) {
    if (meta.cellCount() == 0) {
      return false;
    }
    return CellComparator.compareRow(meta.firstKey(), row) <= 0 && CellComparator.compareRow(meta.lastKey(), row) >= 0;
  }

  /** Whether the query's single row may have any of the query's named columns here (ROWCOL filters). */
  boolean mayContainQueriedColumns(byte[] row, java.util.NavigableMap<byte[], NavigableSet<byte[]>> columns) {
    if (columns.isEmpty()) {
      return true;
    }
    for (var e : columns.entrySet()) {
      if (e.getValue() == null) {
        return true; // a whole family: the ROWCOL filter cannot answer
      }
      for (byte[] q : e.getValue()) {
        if (mayContainColumn(row, e.getKey(), q)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The first row of the middle data block (by the block index), or null if the file has fewer than
   * two data blocks:
   * a split key. Reads the whole index, which a split (rare) can afford.
   */
  public byte[] midRow() {
    java.util.List<IndexEntry> leaves = dataBlockIndex();
    if (leaves.size() < 2) {
      return null; // one block: no middle to split at
    }
    return leaves.get(leaves.size() / 2).keyAsCell().row();
  }

  /**
   * Every data block's index entry (its last key, offset and size), in file order. Decodes the
   * in-memory index: for splits, inspection and tests, not for the read path.
   */
  public java.util.List<IndexEntry> dataBlockIndex() {
    java.util.List<java.util.List<IndexEntry>> levels = index.allLevels();
    return levels.get(levels.size() - 1);
  }

  BlockIndexReader index() {
    return index;
  }

  /**
   * Reads one data block from the file (never the cache), checks it and decodes every entry: a
   * scrub's check of one block. Returns the block's cell count; throws {@link CorruptionException}
   * naming the file and the block's offset.
   */
  public int checkDataBlock(IndexEntry e) {
    Block b = readDataBlock(e.offset(), e.onDiskSize(), false);
    DataBlockCursor c = cursor(b);
    int n = 0;
    try {
      for (c.seekToFirst(); c.valid(); c.advance()) {
        n++;
      }
    } catch (MalformedBlockException ex) {
      throw corrupt(e.offset(), ex);
    }
    return n;
  }

  /** Reads a data block through the block source (the cache) or from the file, and checks its type. */
  Block readDataBlock(long offset, int onDiskSize, boolean useCache) {
    return expect((useCache ? source : fileSource).read(offset, onDiskSize), BlockType.DATA);
  }

  /** A cursor over a data block's payload; malformed payloads become corruption naming the block. */
  DataBlockCursor cursor(Block b) {
    try {
      return new DataBlockCursor(b.payload());
    } catch (MalformedBlockException e) {
      throw corrupt(b.offset(), e);
    }
  }

  CorruptionException corrupt(long offset, MalformedBlockException e) {
    return new CorruptionException(path + ": data block at offset " + offset + ": " + e.getMessage());
  }

  @Override
  protected void deallocate() {
    closeQuietly(channel);
    try {
      if (deleteWhenReleased.get()) {
        fs.delete(path);
      }
    } catch (IOException e) {
      throw new StorageException(path + ": cannot delete obsolete sorted file", e);
    } finally {
      wrapper.fileClosed(fileId); // its cached blocks go with it: no reader is left to want them
    }
  }

  @Override
  public String toString() {
    return "SortedFileReader[" + path + ", id=" + fileId + ", refs=" + refCount() + "]";
  }
}
