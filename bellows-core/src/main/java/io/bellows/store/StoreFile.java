package io.bellows.store;

import io.bellows.scan.CellScanner;
import io.bellows.sstable.FileMetadata;
import io.bellows.sstable.SortedFileReader;
import java.nio.file.Path;

/**
 * A live sorted file of a store: its reader (reference-counted) and metadata. The store holds one
 * reference while the file is live; every scanner holds its own. {@link #markForDeletion} and the
 * store's release make the last reader delete the file.
 */
public final class StoreFile {
  private final long id;
  private final SortedFileReader reader;

  private StoreFile(long id, SortedFileReader reader) {
    this.id = id;
    this.reader = reader;
  }

  static StoreFile open(Path path, long id) {
    return new StoreFile(id, SortedFileReader.open(path, id));
  }

  public long id() {
    return id;
  }

  public FileMetadata metadata() {
    return reader.metadata();
  }

  /** On-disk size in bytes. */
  public long size() {
    return reader.metadata().fileSize();
  }

  public long cellCount() {
    return reader.metadata().cellCount();
  }

  public long bytesRead() {
    return reader.bytesRead();
  }

  public Path path() {
    return reader.path();
  }

  /** A new scanner; it holds its own reference to the file until closed. */
  public CellScanner scanner() {
    return reader.scanner();
  }

  void retain() {
    reader.retain();
  }

  void release() {
    reader.release();
  }

  void markForDeletion() {
    reader.markForDeletion();
  }

  @Override
  public String toString() {
    return "StoreFile{" + id + ", " + size() + " bytes}";
  }
}
