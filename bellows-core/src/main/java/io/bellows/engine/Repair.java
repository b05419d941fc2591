package io.bellows.engine;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.sstable.SortedFileReader;
import io.bellows.sstable.SortedFileScanner;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import io.bellows.wal.WalDump;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bellows repair}: checks every file of a closed data directory — the catalog, the options
 * file, each store's manifest and every byte of each sorted file it lists, every WAL file — and
 * reports each damage with the file and what is wrong. With {@code fix}, it makes the directory
 * openable again, losing only what it reports:
 *
 * <ul>
 *   <li>a damaged sorted file is moved to {@code damaged/} (same relative path) and dropped from its
 *       store's manifest: its cells are lost, and older versions they hid (or cells a delete marker in
 *       it masked) may show again;
 *   <li>a damaged or missing manifest is rebuilt from the store's sorted files that check out (the
 *       old one moved to {@code damaged/}): files a compaction had replaced but not yet deleted come
 *       back too, harmless duplicates except for cells a major compaction had dropped;
 *   <li>a damaged {@code OPTIONS} file is moved to {@code damaged/} (the next open writes a new one);
 *   <li>a WAL file is cut at its first damaged byte, losing that record and the rest of the file
 *       (as {@code wal-dump --truncate}); one with a damaged header is moved to {@code damaged/}.
 * </ul>
 *
 * A damaged {@code CATALOG} is reported, not repaired (it holds every table's settings and region
 * boundaries; restore it from a backup). Nothing is ever deleted: what is set aside stays in {@code
 * damaged/} for the user to inspect. Holds the directory's lock, so it never runs under an engine.
 */
public final class Repair {
  /** Where damaged files are set aside, under the data directory. */
  public static final String DAMAGED = "damaged";

  /** One damaged file and what was (or would be) done about it. */
  public record Finding(Path file, String problem, String remedy, boolean repaired) {}

  /** What a run checked and found. */
  public record Report(List<Finding> findings, int stores, int sortedFiles, long cells, int walFiles) {
    public boolean clean() {
      return findings.isEmpty();
    }

    /** Whether every finding was repaired (true when there were none). */
    public boolean allRepaired() {
      return findings.stream().allMatch(Finding::repaired);
    }
  }

  /** Offline tools work on the local disk. */
  private final FileSystem fs = LocalFileSystem.INSTANCE;
  private final Path dir;
  private final boolean fix;
  private final PrintStream out;
  private final List<Finding> findings = new ArrayList<>();
  private int stores;
  private int sortedFiles;
  private long cells;
  private int walFiles;

  private Repair(Path dir, boolean fix, PrintStream out) {
    this.dir = dir;
    this.fix = fix;
    this.out = out;
  }

  /**
   * Checks {@code dir} (and with {@code fix} repairs it), printing progress and each finding to
   * {@code out}. Throws {@link StorageException} if {@code dir} is not a data directory or is open
   * in an engine.
   */
  public static Report run(Path dir, boolean fix, PrintStream out) {
    if (!LocalFileSystem.INSTANCE.isFile(dir.resolve(Catalog.FILE_NAME))) {
      throw new StorageException(dir + " is not a Bellows data directory (it has no " + Catalog.FILE_NAME
          + "); nothing was changed");
    }
    try (OfflineLock lock = OfflineLock.forDataDirectory(dir)) {
      Repair r = new Repair(dir, fix, out);
      r.checkCatalog();
      r.checkOptions();
      r.checkStores();
      r.checkWal();
      r.checkSnapshots();
      return new Report(List.copyOf(r.findings), r.stores, r.sortedFiles, r.cells, r.walFiles);
    } catch (IOException e) {
      throw new StorageException(dir + ": " + StorageException.reason(e), e);
    }
  }

  private void found(Path file, String problem, String remedy, boolean repaired) {
    Finding f = new Finding(file, problem, remedy, repaired);
    findings.add(f);
    out.println("DAMAGED " + dir.relativize(file) + ": " + problem);
    out.println("  " + (repaired ? "repaired: " : fix ? "not repaired: " : "--fix would: ") + remedy);
  }

  private void checkCatalog() {
    Path p = dir.resolve(Catalog.FILE_NAME);
    try {
      Catalog.load(fs, dir);
      out.println("catalog: ok");
    } catch (IOException | RuntimeException e) {
      found(p, reason(e), "nothing: the catalog holds every table's settings and region boundaries;"
          + " restore CATALOG from a backup (the tables' data is untouched in tables/)", false);
    }
  }

  private void checkOptions() throws IOException {
    Path p = dir.resolve(OptionsFile.FILE_NAME);
    if (!fs.exists(p)) {
      return;
    }
    try {
      OptionsFile.load(fs, p);
      out.println("options: ok");
    } catch (IOException | RuntimeException e) {
      boolean done = fix && setAside(p);
      found(p, reason(e), "move OPTIONS to " + DAMAGED + "/; the next open writes a new one", done);
    }
  }

  /** Every store directory: tables/<table>/<region>/<family>/. */
  private void checkStores() throws IOException {
    Path tables = dir.resolve("tables");
    if (!fs.isDirectory(tables)) {
      return;
    }
    for (Path table : list(tables)) {
      if (!fs.isDirectory(table) || !TableDirectories.isTableDirectoryName(table.getFileName().toString())) {
        continue;
      }
      for (Path region : list(table)) {
        if (!fs.isDirectory(region) || !TableDirectories.isRegionDirectoryName(region.getFileName().toString())) {
          continue;
        }
        for (Path store : list(region)) {
          if (fs.isDirectory(store)) {
            checkStore(store);
          }
        }
      }
    }
  }

  private void checkStore(Path store) throws IOException {
    stores++;
    out.println("store " + dir.relativize(store));
    StoreManifest manifest;
    try {
      manifest = StoreManifest.load(fs, store);
    } catch (IOException | RuntimeException e) {
      rebuildManifest(store, reason(e));
      return;
    }
    List<Long> kept = new ArrayList<>();
    List<Path> damaged = new ArrayList<>();
    for (long id : manifest.fileIds()) {
      Path file = store.resolve(StoreManifest.fileName(id));
      String problem = verify(file, id);
      if (problem == null) {
        kept.add(id);
      } else {
        damaged.add(file);
        found(file, problem, "move the file to " + DAMAGED + "/ and drop it from the store's manifest, losing its"
            + " cells", false);
      }
    }
    if (fix && !damaged.isEmpty()) {
      new StoreManifest(manifest.flushedSeqId(), manifest.nextFileId(), kept).write(fs, store);
      for (Path file : damaged) {
        setAside(file);
      }
      markRepaired(damaged);
    }
  }

  /** A store whose manifest is missing or damaged: lists the sorted files present that check out. */
  private void rebuildManifest(Path store, String problem) throws IOException {
    Path manifestFile = store.resolve(StoreManifest.FILE_NAME);
    List<Long> good = new ArrayList<>();
    List<Path> bad = new ArrayList<>();
    long maxSeqId = 0;
    long maxId = 0;
    for (Path f : list(store)) {
      long id = StoreManifest.parseFileId(f.getFileName().toString());
      if (id < 0 || !fs.isFile(f)) {
        continue;
      }
      String fileProblem = verify(f, id);
      if (fileProblem != null) {
        bad.add(f);
        found(f, fileProblem, "move the file to " + DAMAGED + "/ (it is not listed in the rebuilt manifest)", false);
        continue;
      }
      good.add(id);
      maxId = Math.max(maxId, id);
      SortedFileReader r = SortedFileReader.open(fs, f, id, io.bellows.sstable.BlockSource.Wrapper.IDENTITY);
      try {
        maxSeqId = Math.max(maxSeqId, r.metadata().maxSeqId());
      } finally {
        r.release();
      }
    }
    good.sort(null);
    found(manifestFile, problem, "rebuild the manifest from the " + good.size() + " sorted files present that check"
        + " out (files a compaction replaced but had not deleted come back too)", false);
    if (fix) {
      if (fs.exists(manifestFile)) {
        setAside(manifestFile);
      }
      new StoreManifest(maxSeqId, maxId + 1, good).write(fs, store);
      for (Path f : bad) {
        setAside(f);
      }
      List<Path> repaired = new ArrayList<>(bad);
      repaired.add(manifestFile);
      markRepaired(repaired);
    }
  }

  /** Reads every cell of a sorted file; returns what is wrong, or null if it checks out. */
  private String verify(Path file, long id) {
    sortedFiles++;
    if (!fs.isFile(file)) {
      return "listed in the manifest but missing";
    }
    SortedFileReader r;
    try {
      r = SortedFileReader.open(fs, file, id, io.bellows.sstable.BlockSource.Wrapper.IDENTITY);
    } catch (RuntimeException e) {
      return reason(e);
    }
    try (SortedFileScanner s = r.uncachedScanner()) {
      long n = 0;
      s.seek(Cells.firstOnRow(Bytes.EMPTY));
      for (Cell c = s.next(); c != null; c = s.next()) {
        n++;
      }
      if (n != r.metadata().cellCount()) {
        return "holds " + n + " cells, its metadata says " + r.metadata().cellCount();
      }
      cells += n;
      return null;
    } catch (RuntimeException e) {
      return reason(e);
    } finally {
      r.release();
    }
  }

  private void checkWal() throws IOException {
    Path wal = dir.resolve("wal");
    if (!fs.isDirectory(wal)) {
      return;
    }
    PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
    List<Path> logs = new ArrayList<>();
    for (Path f : list(wal)) {
      if (fs.isFile(f) && f.getFileName().toString().startsWith("wal-")) {
        logs.add(f);
      }
    }
    for (int i = 0; i < logs.size(); i++) {
      Path f = logs.get(i);
      walFiles++;
      long fenced = i + 1 < logs.size() ? WalDump.fencedTail(f, logs.get(i + 1)) : -1;
      if (fenced >= 0) {
        out.println("wal " + f.getFileName() + ": fenced after a failure at byte offset " + fenced
            + "; what followed was rewritten to the next file");
        continue;
      }
      boolean sound;
      try {
        sound = WalDump.print(f, silent);
      } catch (RuntimeException e) {
        found(f, reason(e), "nothing: the file cannot be read", false);
        continue;
      }
      if (sound) {
        continue;
      }
      String remedy = "cut the file at its first damaged byte, losing that record and every record after it in this"
          + " file (a torn tail of the last file is cut at open anyway); see bellows wal-dump " + dir.relativize(f);
      if (!fix) {
        found(f, "damaged records (bellows wal-dump shows where)", remedy, false);
        continue;
      }
      try {
        long at = WalDump.truncateAtDamage(f);
        found(f, "damaged records", "cut at byte offset " + at, true);
      } catch (StorageException headerDamaged) {
        boolean moved = setAside(f);
        found(f, reason(headerDamaged), "move the file to " + DAMAGED + "/, losing all of its records", moved);
      }
    }
  }

  /**
   * Every snapshot: its SNAPSHOT and CATALOG files, and each store's MANIFEST and every block of the
   * sorted files it lists. A damaged snapshot cannot be partly trusted (it is one point of a table's
   * history): --fix moves its whole directory to damaged/snapshots/.
   */
  private void checkSnapshots() throws IOException {
    Path root = dir.resolve(Snapshots.DIRECTORY);
    if (!fs.isDirectory(root)) {
      return;
    }
    for (Path snapshot : list(root)) {
      if (!fs.isDirectory(snapshot) || !fs.exists(snapshot.resolve(Snapshots.INFO))) {
        continue; // incomplete: the next open deletes it
      }
      String problem = snapshotProblem(snapshot);
      if (problem == null) {
        out.println("snapshot " + snapshot.getFileName() + ": ok");
      } else {
        boolean done = fix && setAside(snapshot);
        found(snapshot, problem, "move the snapshot to " + DAMAGED + "/" + Snapshots.DIRECTORY + "/ (it is no longer"
            + " listed; the tables are not touched)", done);
      }
    }
  }

  /** What is wrong with a committed snapshot, or null. */
  private String snapshotProblem(Path snapshot) {
    try {
      Snapshots.readInfo(fs, snapshot);
      Catalog c = Catalog.load(fs, snapshot);
      for (Catalog.Entry e : c.tables().values()) {
        for (Catalog.Span span : e.regions()) {
          for (var f : e.descriptor().families()) {
            Path store = snapshot.resolve(TableDirectories.regionName(span.id())).resolve(f.name());
            StoreManifest m = StoreManifest.load(fs, store);
            for (long id : m.fileIds()) {
              Path file = store.resolve(StoreManifest.fileName(id));
              String bad = verify(file, id);
              if (bad != null) {
                return dir.relativize(file) + ": " + bad;
              }
            }
          }
        }
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return reason(e);
    }
  }

  /** Moves a file to the same relative path under damaged/ (never over an earlier one). */
  private boolean setAside(Path file) throws IOException {
    Path target = setAsideTarget(fs, dir, file);
    fs.createDirectories(target.getParent());
    fs.rename(file, target);
    fs.syncDirectory(target.getParent());
    fs.syncDirectory(file.getParent());
    return true;
  }

  /**
   * Where a damaged file of data directory {@code dir} is set aside: the same relative path under
   * damaged/, with ".1", ".2"... added if an earlier one is there (never over it). Shared with the
   * engine's online quarantine.
   */
  static Path setAsideTarget(FileSystem fs, Path dir, Path file) {
    Path target = dir.resolve(DAMAGED).resolve(dir.relativize(file));
    for (int n = 1; fs.exists(target); n++) {
      target = target.resolveSibling(file.getFileName() + "." + n);
    }
    return target;
  }

  private void markRepaired(List<Path> files) {
    for (int i = 0; i < findings.size(); i++) {
      Finding f = findings.get(i);
      if (files.contains(f.file()) && !f.repaired()) {
        findings.set(i, new Finding(f.file(), f.problem(), f.remedy(), true));
        out.println("  repaired: " + dir.relativize(f.file()));
      }
    }
  }

  private List<Path> list(Path d) throws IOException {
    return fs.list(d);
  }

  private static String reason(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
