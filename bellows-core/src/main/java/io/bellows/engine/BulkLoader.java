package io.bellows.engine;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.Cells;
import io.bellows.fs.ChecksummedText;
import io.bellows.fs.FileSystem;
import io.bellows.region.Region;
import io.bellows.scan.CellScanner;
import io.bellows.schema.TableDescriptor;
import io.bellows.sstable.BlockSource;
import io.bellows.sstable.SortedFileReader;
import io.bellows.sstable.SortedFileScanner;
import io.bellows.store.Store;
import io.bellows.store.StoreFile;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bulk load: adopts sorted files built elsewhere (with {@code io.bellows.client.BulkFileWriter})
 * into a table's regions, atomically. Each input is checked whole first (every block's checksum,
 * strict order, the family); then, with the table's regions blocked and flushed as for a snapshot,
 * one new sequence id is drawn — above every write so far, below every later one — and each input's
 * cells within each region's range are written, stamped with it, to a new file of that region's
 * store. The {@code BULKLOAD} file, listing them, is the commit point; the stores' manifests then
 * take them in, and it is deleted. A crash before it leaves unlisted files (deleted at open), after
 * it a roll-forward at open ({@link #rollForward}). Not thread-safe: the engine calls it under its
 * DDL lock.
 */
final class BulkLoader {
  private static final Logger LOG = LoggerFactory.getLogger(BulkLoader.class);
  static final String FILE_NAME = "BULKLOAD";
  private static final String HEADER = "bellows-bulkload 1";

  private final FileSystem fs;
  private final Path dataDir;

  BulkLoader(FileSystem fs, Path dataDir) {
    this.fs = fs;
    this.dataDir = dataDir;
  }

  /**
   * Checks every input before anything is loaded: the family exists, every block reads back, cells
   * are strictly sorted and of that family. Returns the number of cells.
   *
   * @throws IllegalArgumentException or {@link CorruptionException}, naming the file
   */
  long check(TableDescriptor table, Map<String, List<Path>> files) {
    long total = 0;
    for (Map.Entry<String, List<Path>> e : files.entrySet()) {
      if (table.family(e.getKey()) == null) {
        throw new NoSuchColumnFamilyException("table '" + table.name() + "' has no column family '" + e.getKey()
            + "' (bulk load of " + e.getValue() + ")");
      }
      byte[] family = Bytes.of(e.getKey());
      for (Path p : e.getValue()) {
        total += checkFile(p, family);
      }
    }
    return total;
  }

  private long checkFile(Path p, byte[] family) {
    if (!fs.isFile(p)) {
      throw new IllegalArgumentException("bulk load: " + p + " is not a file");
    }
    SortedFileReader r;
    try {
      r = SortedFileReader.open(fs, p, 0, BlockSource.Wrapper.IDENTITY);
    } catch (RuntimeException ex) {
      throw new CorruptionException("bulk load: " + p + " is not a readable Bellows sorted file: " + ex.getMessage());
    }
    try (SortedFileScanner s = r.uncachedScanner()) {
      long n = 0;
      Cell previous = null;
      s.seek(CellScanner.rowStart(Bytes.EMPTY));
      for (Cell c = s.next(); c != null; c = s.next()) {
        if (!Bytes.equals(c.array(), c.familyOffset(), c.familyLength(), family, 0, family.length)) {
          throw new IllegalArgumentException("bulk load: " + p + " holds a cell of family '"
              + Bytes.toStringBinary(c.array(), c.familyOffset(), c.familyLength()) + "', not '" + Bytes.str(family)
              + "': " + c);
        }
        if (previous != null && CellComparator.INSTANCE.compare(previous, c) >= 0) {
          throw new IllegalArgumentException("bulk load: " + p + " is not sorted: " + c + " follows " + previous);
        }
        previous = new Cell(c.toBytes(), 0, c.length(), c.seqId());
        n++;
      }
      if (n != r.metadata().cellCount()) {
        throw new CorruptionException("bulk load: " + p + " holds " + n + " cells, its metadata says "
            + r.metadata().cellCount());
      }
      return n;
    } catch (CorruptionException | IllegalArgumentException ex) {
      throw ex;
    } catch (RuntimeException ex) {
      throw new CorruptionException("bulk load: " + p + " is damaged: " + ex.getMessage());
    } finally {
      r.release();
    }
  }

  /**
   * Loads checked inputs into the open table {@code e}: its regions are blocked (flushed) for the
   * whole load, so no write interleaves; {@code nextSeqId} draws the load's sequence id. Returns it.
   */
  long load(Catalog.Entry e, TableRegions t, DataDirectory layout, Map<String, List<Path>> files,
      LongSupplier nextSeqId) {
    List<Region> blocked = new ArrayList<>();
    Map<Store, List<StoreFile>> written = new LinkedHashMap<>();
    Map<Store, Path> storeDirs = new LinkedHashMap<>();
    boolean committed = false;
    try {
      for (Region r : t.regions()) {
        r.blockForSnapshot(true);
        blocked.add(r);
      }
      long seqId = nextSeqId.getAsLong();
      for (int i = 0; i < t.size(); i++) {
        Catalog.Span span = t.spans().get(i);
        Region r = t.regions().get(i);
        for (Map.Entry<String, List<Path>> f : files.entrySet()) {
          Store store = r.stores().get(f.getKey());
          storeDirs.put(store, layout.regionDir(e, span).resolve(f.getKey()));
          for (Path p : f.getValue()) {
            StoreFile out = writeRange(store, p, span, seqId);
            if (out != null) {
              written.computeIfAbsent(store, k -> new ArrayList<>()).add(out);
            }
          }
        }
      }
      writeIntent(e, layout, written, storeDirs, seqId); // the commit point
      committed = true;
      for (Map.Entry<Store, List<StoreFile>> w : written.entrySet()) {
        w.getKey().adoptLoaded(w.getValue(), seqId);
      }
      fs.delete(dataDir.resolve(FILE_NAME));
      fs.syncDirectory(dataDir);
      for (Region r : t.regions()) {
        r.recovered(seqId); // no write is in flight: the loaded cells become visible at once
      }
      return seqId;
    } catch (IOException | RuntimeException ex) {
      if (!committed) {
        written.values().forEach(l -> l.forEach(Store::discardLoaded));
      } else {
        ex.addSuppressed(new StorageException("the bulk load committed; what the stores did not take yet is taken"
            + " at the next open (" + dataDir.resolve(FILE_NAME) + ")"));
      }
      throw ex instanceof RuntimeException re ? re : new StorageException("bulk load failed: " + ex.getMessage(), ex);
    } finally {
      for (int i = blocked.size() - 1; i >= 0; i--) {
        blocked.get(i).unblockAfterSplit();
      }
    }
  }

  /** Writes the cells of {@code input} in the region's range, stamped {@code seqId}, to a new file of the store. */
  private StoreFile writeRange(Store store, Path input, Catalog.Span span, long seqId) {
    SortedFileReader r = SortedFileReader.open(fs, input, 0, BlockSource.Wrapper.IDENTITY);
    try (SortedFileScanner s = r.uncachedScanner()) {
      return store.writeLoaded(new RangeScanner(s, span, seqId), r.metadata().cellCount());
    } finally {
      r.release();
    }
  }

  private void writeIntent(Catalog.Entry e, DataDirectory layout, Map<Store, List<StoreFile>> written,
      Map<Store, Path> storeDirs, long seqId) throws IOException {
    StringBuilder sb = new StringBuilder(HEADER).append('\n').append("table ").append(e.id()).append('\n')
        .append("seq ").append(seqId).append('\n');
    for (Map.Entry<Store, List<StoreFile>> w : written.entrySet()) {
      Path rel = dataDir.relativize(storeDirs.get(w.getKey()));
      for (StoreFile f : w.getValue()) {
        sb.append("file ").append(rel).append(' ').append(f.id()).append('\n');
      }
    }
    ChecksummedText.write(fs, dataDir.resolve(FILE_NAME), sb.toString());
  }

  /**
   * At open, before any store is opened: finishes a bulk load that committed ({@code BULKLOAD}
   * exists) by adding each of its files to its store's manifest where it is not yet, then deletes
   * the file. A store that is gone (its table dropped since) is skipped.
   */
  void rollForward() throws IOException {
    Path p = dataDir.resolve(FILE_NAME);
    String body;
    try {
      body = ChecksummedText.read(fs, p, HEADER, "bulk load");
    } catch (NoSuchFileException e) {
      return;
    }
    long seqId = -1;
    int adopted = 0;
    for (String line : body.split("\n")) {
      String[] f = line.split(" ");
      if (f[0].equals("seq")) {
        seqId = Long.parseLong(f[1]);
      } else if (f[0].equals("file")) {
        Path store = dataDir.resolve(f[1]);
        if (fs.isDirectory(store)) {
          Store.adoptLoadedOffline(fs, store, Long.parseLong(f[2]), seqId);
          adopted++;
        }
      }
    }
    fs.delete(p);
    fs.syncDirectory(dataDir);
    LOG.info("finished the bulk load that a crash interrupted ({} files)", adopted);
  }

  /**
   * The cells of a sorted file within one region's range, each a copy stamped with the load's
   * sequence id. {@link #seek} never goes before the range's start.
   */
  private static final class RangeScanner implements CellScanner {
    private final SortedFileScanner in;
    private final Catalog.Span span;
    private final long seqId;

    RangeScanner(SortedFileScanner in, Catalog.Span span, long seqId) {
      this.in = in;
      this.span = span;
      this.seqId = seqId;
    }

    @Override
    public Cell peek() {
      Cell c = in.peek();
      return c == null || past(c) ? null : stamped(c);
    }

    @Override
    public Cell next() {
      Cell c = in.peek();
      if (c == null || past(c)) {
        return null;
      }
      in.next();
      return stamped(c);
    }

    private boolean past(Cell c) {
      byte[] end = span.end();
      return end.length > 0 && Bytes.compare(c.array(), c.rowOffset(), c.rowLength(), end, 0, end.length) >= 0;
    }

    private Cell stamped(Cell c) {
      return new Cell(c.array(), c.offset(), c.length(), seqId);
    }

    @Override
    public boolean seek(Cell key) {
      Cell start = CellScanner.rowStart(span.start());
      return in.seek(CellComparator.INSTANCE.compare(key, start) < 0 ? start : key) && peek() != null;
    }

    @Override
    public void close() {
      in.close();
    }
  }
}
