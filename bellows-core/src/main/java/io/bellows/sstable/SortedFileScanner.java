package io.bellows.sstable;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;

/**
 * A {@link CellScanner} over one sorted file. Seek goes through the block index to the one data
 * block that can hold the key, then binary-searches its restart points; next walks the block and
 * moves to the following block (found through the index) at its end. Holds a reference to the
 * reader until {@link #close()}. Not thread-safe (one reader thread at a time, like every scanner).
 */
public final class SortedFileScanner implements CellScanner {
  private final SortedFileReader reader;
  /** Whether data blocks go through the reader's block cache (false for compactions). */
  private final boolean useCache;
  private boolean closed;
  /** Index entry of the current block (its last key bounds reseeks within it); null when unpositioned. */
  private IndexEntry blockEntry;
  private DataBlockCursor cursor;

  SortedFileScanner(SortedFileReader reader, boolean useCache) {
    this.reader = reader;
    this.useCache = useCache;
  }

  public SortedFileReader reader() {
    return reader;
  }

  @Override
  public Cell peek() {
    return cursor == null ? null : cursor.current();
  }

  @Override
  public Cell next() {
    if (cursor == null || !cursor.valid()) {
      return null;
    }
    Cell c = cursor.current();
    try {
      if (!cursor.advance()) {
        IndexEntry e = blockEntry;
        IndexEntry following = reader.index().locate(e.key(), 0, e.key().length, e.seqId(), true);
        if (following == null) {
          cursor = null;
          blockEntry = null;
        } else {
          load(following);
          cursor.seekToFirst();
        }
      }
    } catch (MalformedBlockException ex) {
      throw reader.corrupt(blockEntry.offset(), ex);
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) {
    checkOpen();
    IndexEntry e = reader.index().locate(key.array(), key.keyOffset(), key.keyLength(), key.seqId(), false);
    if (e == null) {
      cursor = null;
      blockEntry = null;
      return false;
    }
    if (blockEntry == null || blockEntry.offset() != e.offset()) {
      load(e);
    }
    return seekInBlock(key);
  }

  @Override
  public boolean reseek(Cell key) {
    checkOpen();
    if (cursor == null) {
      return seek(key);
    }
    if (cursor.valid() && cursor.compareCurrent(key) >= 0) {
      return true;
    }
    if (KeyOrder.compare(blockEntry.key(), 0, blockEntry.key().length, blockEntry.seqId(), key) >= 0) {
      return seekInBlock(key); // the key is in the current block: skip the index
    }
    return seek(key);
  }

  /**
   * The last row before {@code row}: from the file's metadata when the row is past the file, else
   * the last entry before the row in the block that would hold it, else the last key of the block
   * before that one (from the index, without reading the block).
   */
  @Override
  public byte[] rowBefore(byte[] row) {
    checkOpen();
    cursor = null;
    blockEntry = null;
    FileMetadata m = reader.metadata();
    if (m.cellCount() == 0 || (row.length > 0 && io.bellows.util.Bytes.compare(m.firstRow(), row) >= 0)) {
      return null;
    }
    if (row.length == 0 || io.bellows.util.Bytes.compare(m.lastRow(), row) < 0) {
      return m.lastRow().clone();
    }
    Cell k = CellScanner.rowStart(row);
    IndexEntry e = reader.index().locate(k.array(), k.keyOffset(), k.keyLength(), k.seqId(), false);
    if (e != null) {
      byte[] r;
      try {
        r = reader.cursor(reader.readDataBlock(e.offset(), e.onDiskSize(), useCache)).rowBefore(k);
      } catch (MalformedBlockException ex) {
        throw reader.corrupt(e.offset(), ex);
      }
      if (r != null) {
        return r;
      }
    }
    IndexEntry prev = reader.index().lastBefore(k.array(), k.keyOffset(), k.keyLength(), k.seqId());
    if (prev == null) {
      return null;
    }
    byte[] key = prev.key(); // a cell key: the row's length, then the row
    return java.util.Arrays.copyOfRange(key, 2, 2 + io.bellows.util.Bytes.getShort(key, 0));
  }

  private boolean seekInBlock(Cell key) {
    try {
      if (!cursor.seek(key)) {
        // The index said this block's last key is >= key; a block that disagrees is corrupt.
        throw new MalformedBlockException("no entry >= the key its index entry promises");
      }
    } catch (MalformedBlockException ex) {
      throw reader.corrupt(blockEntry.offset(), ex);
    }
    return true;
  }

  private void load(IndexEntry e) {
    Block b = reader.readDataBlock(e.offset(), e.onDiskSize(), useCache);
    cursor = reader.cursor(b);
    blockEntry = e;
  }

  /**
   * Whether the file may hold cells the query wants: its rows overlap the query's row range, its
   * timestamps overlap the query's time range, and for a single-row query the Bloom filter does not
   * rule the row (ROW) or every named column (ROWCOL) out.
   */
  @Override
  public boolean shouldUse(ScanQuery q) {
    return reader.mayHold(q);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("scanner of " + reader.path() + " is closed");
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      cursor = null;
      blockEntry = null;
      reader.release();
    }
  }
}
