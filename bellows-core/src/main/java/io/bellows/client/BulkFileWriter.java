package io.bellows.client;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.region.OptionsResolver;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.sstable.SortedFileWriter;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.nio.file.Path;

/**
 * Writes a Bellows sorted file of one column family from cells in sorted order, to be loaded into a
 * table with {@link Bellows#bulkLoad} (RocksDB's {@code SstFileWriter}, HBase's HFile writer for a
 * bulk load). Cells must come in the engine's order: by row, then qualifier, then newest timestamp
 * first (a delete marker before a put of the same timestamp); a cell out of order is refused with
 * {@link IllegalArgumentException}, and the file stays unfinished. The file takes the family's block
 * size, compression and Bloom filter. Not thread-safe.
 *
 * <pre>{@code
 * try (BulkFileWriter w = BulkFileWriter.create(Path.of("load/f/part-0.sst"), family)) {
 *   w.put(row, qualifier, timestamp, value);  // ... in order
 *   w.finish();
 * }
 * db.bulkLoad("t", Map.of("f", List.of(Path.of("load/f/part-0.sst"))));
 * }</pre>
 */
public final class BulkFileWriter implements AutoCloseable {
  private final SortedFileWriter writer;
  private final byte[] family;
  private long cells;
  private boolean finished;

  private BulkFileWriter(SortedFileWriter writer, byte[] family) {
    this.writer = writer;
    this.family = family;
  }

  /** A writer of a new file at {@code file} (which must not exist) for {@code family}'s cells. */
  public static BulkFileWriter create(Path file, ColumnFamilyDescriptor family) {
    return create(LocalFileSystem.INSTANCE, file, family);
  }

  /** As {@link #create(Path, ColumnFamilyDescriptor)}, on {@code fs}. */
  public static BulkFileWriter create(FileSystem fs, Path file, ColumnFamilyDescriptor family) {
    return new BulkFileWriter(SortedFileWriter.create(fs, file, OptionsResolver.sortedFiles(family), Clock.SYSTEM),
        family.nameBytes());
  }

  /** Appends a put of {@code value} at {@code row}, {@code qualifier}, {@code timestamp}. */
  public BulkFileWriter put(byte[] row, byte[] qualifier, long timestamp, byte[] value) {
    return add(Cells.put(row, family, qualifier, timestamp, value));
  }

  /** Appends a delete marker of one version of a column. */
  public BulkFileWriter deleteVersion(byte[] row, byte[] qualifier, long timestamp) {
    return add(Cells.create(row, family, qualifier, timestamp, CellType.DELETE, Bytes.EMPTY));
  }

  /** Appends a cell of this writer's family; it must sort after the previous one. */
  public BulkFileWriter add(Cell cell) {
    if (!Bytes.equals(cell.array(), cell.familyOffset(), cell.familyLength(), family, 0, family.length)) {
      throw new IllegalArgumentException("cell " + cell + " is not of family '" + Bytes.str(family) + "'");
    }
    if (cell.timestamp() < 0 || cell.timestamp() == Long.MAX_VALUE) {
      throw new IllegalArgumentException("cell " + cell + " needs a concrete timestamp (0 to Long.MAX_VALUE - 1)");
    }
    writer.append(cell);
    cells++;
    return this;
  }

  /** Completes and forces the file; returns the cells written. */
  public long finish() {
    writer.finish();
    finished = true;
    return cells;
  }

  /** Deletes the file if {@link #finish} was not called. */
  @Override
  public void close() {
    if (!finished) {
      writer.abort();
    }
  }
}
