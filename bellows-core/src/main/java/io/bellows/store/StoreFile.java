package io.bellows.store;

import io.bellows.compaction.CompactionInput;
import io.bellows.scan.CellScanner;
import io.bellows.sstable.BlockSource;
import io.bellows.sstable.FileMetadata;
import io.bellows.sstable.SortedFileReader;
import io.bellows.fs.FileSystem;
import java.nio.file.Path;

/**
 * A live sorted file of a store: its reader (reference-counted) and metadata. The store holds one
 * reference while the file is live; every scanner holds its own. {@link #markForDeletion} and the
 * store's release make the last reader delete the file.
 *
 * <p>{@link #id} is the file's number, unique among the sorted files of the whole data directory
 * (numbered by the engine); ({@link #engineInstanceId}, {@link #id}) names the file's bytes uniquely
 * across stores, tables and reopenings: the prefix of a block cache's keys.
 */
public final class StoreFile implements CompactionInput {
  private final long id;
  private final long engineInstanceId;
  private final SortedFileReader reader;

  private StoreFile(long id, long engineInstanceId, SortedFileReader reader) {
    this.id = id;
    this.engineInstanceId = engineInstanceId;
    this.reader = reader;
  }

  /** Opens a file; its data blocks are read through {@code blocks} (the store's block cache use). */
  static StoreFile open(FileSystem fs, Path path, long id, long engineInstanceId, BlockSource.Wrapper blocks) {
    return new StoreFile(id, engineInstanceId, SortedFileReader.open(fs, path, id, blocks));
  }

  /** The file number (its name is {@code <20 digits>.sst}). */
  @Override
  public long id() {
    return id;
  }

  /** The engine instance that opened this file; with {@link #id} the file's cache identity. */
  public long engineInstanceId() {
    return engineInstanceId;
  }

  public FileMetadata metadata() {
    return reader.metadata();
  }

  /** On-disk size in bytes. */
  @Override
  public long size() {
    return reader.metadata().fileSize();
  }

  /** The first row of the file's middle data block, or null: see {@link SortedFileReader#midRow}. */
  public byte[] midRow() {
    return reader.midRow();
  }

  @Override
  public long cellCount() {
    return reader.metadata().cellCount();
  }

  public long bytesRead() {
    return reader.bytesRead();
  }

  public long pagesRead() {
    return reader.pagesRead();
  }

  /** Blocks of every type read from the file, at its open included (block-cache hits are not reads). */
  public long blocksRead() {
    return reader.blocksRead();
  }

  public Path path() {
    return reader.path();
  }

  /** The newest timestamp of the file's cells, tombstones included (from its metadata). */
  public long newestTimestamp() {
    return reader.maxTimestamp();
  }

  /** Whether the file may hold cells the query wants (key range, time range, Bloom filter). */
  public boolean mayHold(io.bellows.scan.ScanQuery query) {
    return reader.mayHold(query);
  }

  /** Every cell the file holds for {@code row}, through the block cache; the caller holds a reference. */
  public io.bellows.sstable.RowRead readRow(byte[] row) {
    return reader.readRow(row);
  }

  /** The number of rows in one of this file's data blocks (for the KV cache's access counts). */
  public int rowCount(io.bellows.sstable.RowRead read) {
    return reader.rowCount(read);
  }

  /** A new scanner; it holds its own reference to the file until closed. */
  public CellScanner scanner() {
    return reader.scanner();
  }

  /** A scanner for a compaction: it reads the file directly, so a merge does not flush the block cache. */
  @Override
  public CellScanner compactionScanner() {
    return reader.uncachedScanner();
  }

  @Override
  public void retain() {
    reader.retain();
  }

  @Override
  public void release() {
    reader.release();
  }

  /** Retains the file unless its last reference is gone (then it is being closed): false. */
  public boolean tryRetain() {
    return reader.tryRetain();
  }

  void markForDeletion() {
    reader.markForDeletion();
  }

  @Override
  public String toString() {
    return "StoreFile{" + id + ", " + size() + " bytes}";
  }
}
