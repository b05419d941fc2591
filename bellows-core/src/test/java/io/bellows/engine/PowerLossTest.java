package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Mutation;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.MemFileSystem;
import io.bellows.fs.MemFileSystem.Tail;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Power loss, on {@link MemFileSystem}: seeded random workloads through the public API (puts,
 * deletes of every kind, increments, check-and-mutate, batches, reads, flushes, minor and major
 * compactions, in-memory flushes and compactions, splits, reopen, and the table-wide operations:
 * snapshots taken and deleted, clones, a restore between a disable and an enable, alters that add or
 * delete a family or change a setting, bulk loads of sorted files spanning regions) are cut by a power loss, after
 * which the engine reopens on what the file system kept: only synced bytes, only directory entries
 * whose directory was synced, an unsynced tail dropped, torn or torn and followed by garbage. Then, against {@link ReferenceTable}
 * replaying the acknowledged operations:
 *
 * <ul>
 *   <li>the engine opens without repair;
 *   <li>with FSYNC_WAL, everything acknowledged is there, and of the operation the power cut, all,
 *       none or (for a batch) a prefix of its row mutations in the order the engine applies them;
 *   <li>with ASYNC_WAL, what is there is the state after some prefix of the row mutations;
 *   <li>both say that no row mutation is half there;
 *   <li>a snapshot, clone, restore, alter or bulk load is whole or absent: the table's descriptor is
 *       the last acknowledged one or the interrupted alter's or restore's; every acknowledged
 *       snapshot is listed and no other but the interrupted one, and each listed snapshot, cloned,
 *       holds exactly the table as it was when it was taken; every clone holds its snapshot's data
 *       (an interrupted one is absent or whole); a bulk load is one step of the model, all or none.
 * </ul>
 *
 * Two modes: a power loss at a random file-system operation of a longer random workload, under every
 * memory-store configuration; and for a short workload, a power loss at every mutating file-system
 * operation index in turn (the run's operations are counted first). {@code
 * -Dbellows.powerloss.long=true} runs more and longer workloads. The seed is printed; re-run with
 * {@code -Dbellows.test.seed=...}.
 */
class PowerLossTest {
  private static final long SEED = Long.getLong("bellows.test.seed", System.nanoTime());
  private static final boolean LONG = Boolean.getBoolean("bellows.powerloss.long");
  private static final Path DIR = Path.of("/power-loss/data");
  private static final String TABLE = "t";
  private static final long START_MILLIS = 1_000_000;
  private static final byte[][] ROWS = bytes("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l");
  private static final byte[][] QUALIFIERS = bytes("q0", "q1", "q2", "n");
  private static final byte[] COUNTER = Bytes.of("n");

  /** What a power loss leaves of unsynced tails; each run draws one. */
  private static final Tail[] TAILS = Tail.values();

  static Stream<Arguments> randomCrashes() {
    List<Arguments> out = new ArrayList<>();
    for (EngineConfigurations c : EngineConfigurations.all()) {
      out.add(Arguments.of(c, Durability.FSYNC_WAL));
    }
    out.add(Arguments.of(EngineConfigurations.all().get(0), Durability.ASYNC_WAL));
    out.add(Arguments.of(EngineConfigurations.all().get(EngineConfigurations.all().size() - 1), Durability.ASYNC_WAL));
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("randomCrashes")
  void aPowerLossAtARandomOperationLosesNoAcknowledgedWrite(EngineConfigurations config, Durability durability)
      throws IOException {
    int runs = LONG ? 40 : 4;
    int ops = LONG ? 400 : 120;
    for (int i = 0; i < runs; i++) {
      long seed = SEED + i;
      System.out.println("PowerLossTest random " + config + " " + durability + " seed=" + seed
          + " (re-run: -Dtest=PowerLossTest -Dbellows.test.seed=" + seed + ")");
      // Count the run's operations, then cut the same run at a random one of them.
      Workload counting = new Workload(config, durability, seed, false);
      counting.run(ops, -1, Tail.DROP);
      long total = counting.mutations;
      Random r = new Random(seed);
      long at = total <= 0 ? 0 : (long) (r.nextDouble() * total);
      new Workload(config, durability, seed, false).run(ops, at, TAILS[r.nextInt(TAILS.length)]);
    }
  }

  @Test
  void aPowerLossAtEveryOperationOfAShortWorkload() throws IOException {
    List<EngineConfigurations> configs = LONG ? EngineConfigurations.all()
        : List.of(EngineConfigurations.all().get(0), EngineConfigurations.all().get(EngineConfigurations.all().size() - 1));
    for (EngineConfigurations config : configs) {
      System.out.println("PowerLossTest every operation " + config + " seed=" + SEED
          + " (re-run: -Dtest=PowerLossTest -Dbellows.test.seed=" + SEED + ")");
      Workload counting = new Workload(config, Durability.FSYNC_WAL, SEED, true);
      counting.run(0, -1, Tail.DROP);
      long total = counting.mutations;
      assertThat(total).as("file-system operations of one run").isGreaterThan(50);
      int crashes = 0;
      for (long at = 0; at < total; at++) {
        Workload w = new Workload(config, Durability.FSYNC_WAL, SEED, true);
        w.run(0, at, TAILS[(int) (at % TAILS.length)]);
        crashes += w.crashed ? 1 : 0;
      }
      System.out.println("PowerLossTest " + config + ": power lost at " + crashes + " of " + total + " operations");
      assertThat(crashes).as("runs that reached their power loss").isGreaterThan((int) (total * 9 / 10));
    }
  }

  /**
   * Syncs that lie (report success, keep the bytes unsynced) from a random point of the run on, for
   * one kind of file, then a power loss leaving garbage tails. Acknowledged writes may be lost: the
   * disk broke its promise. What must hold: the engine opens, or refuses with a {@link
   * StorageException} naming a file of the data directory; every read returns cells that were
   * written, or fails the same way; never garbage taken for data, never another kind of exception.
   */
  @ParameterizedTest(name = "syncs of ~{0} lie")
  @ValueSource(strings = {"/wal/", "\\.sst", "/MANIFEST", "/CATALOG|/OPTIONS", ""})
  void aLyingSyncMayLoseAcknowledgedWritesButNeverReturnsWrongData(String lying) throws IOException {
    int runs = LONG ? 20 : 3;
    int ops = LONG ? 400 : 120;
    List<EngineConfigurations> configs = EngineConfigurations.all();
    for (int i = 0; i < runs; i++) {
      long seed = SEED + i;
      EngineConfigurations config = configs.get((int) Math.floorMod(seed, (long) configs.size()));
      System.out.println("PowerLossTest lying syncs ~" + lying + " " + config + " seed=" + seed
          + " (re-run: -Dtest=PowerLossTest -Dbellows.test.seed=" + seed + ")");
      Workload counting = new Workload(config, Durability.FSYNC_WAL, seed, false);
      counting.run(ops, -1, Tail.DROP);
      Random r = new Random(seed);
      long at = counting.mutations <= 0 ? 0 : (long) (r.nextDouble() * counting.mutations);
      Workload w = new Workload(config, Durability.FSYNC_WAL, seed, false);
      w.lying = lying;
      w.lieFrom = r.nextInt(ops);
      w.run(ops, at, Tail.GARBAGE);
    }
  }

  // ====================================================================== the workload

  /** A change to the model by one acknowledged row mutation (or a major compaction), replayable. */
  private interface Step {
    Object apply(ReferenceTable model);
  }

  /** One run: a workload on a fresh file system, optionally cut by a power loss, then checked. */
  private final class Workload {
    private final EngineConfigurations config;
    private final Durability durability;
    private final long seed;
    private final boolean scripted;
    private final Random random;
    private final Clock.Manual clock = new Clock.Manual(START_MILLIS);
    private final TableDescriptor descriptor;
    private final ReferenceTable live;
    private final List<Step> acked = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private List<Step> inFlight = List.of();
    private MemFileSystem fs = new MemFileSystem();
    private Bellows db;
    private Table table;
    private boolean tableAcknowledged;
    /** The table's descriptor as last acknowledged, and that of an alter or restore in flight (else null). */
    private TableDescriptor ackedDescriptor;
    private TableDescriptor inFlightDescriptor;
    /** Acknowledged snapshots by name; one being taken or deleted, and clones acknowledged or in flight. */
    private final java.util.Map<String, TakenSnapshot> snapshots = new java.util.TreeMap<>();
    private TakenSnapshot inFlightSnapshot;
    private String deletingSnapshot;
    private final java.util.Map<String, TakenSnapshot> clones = new java.util.TreeMap<>();
    private String inFlightClone;
    private int snapshotsTaken;
    private int bulkLoads;
    /** Syncs of paths matching this lie from operation {@link #lieFrom} on (null: syncs are true). */
    String lying;
    int lieFrom;
    /** Every cell value a put wrote, as row/family:qualifier=value (no timestamp). */
    private final Set<String> written = new HashSet<>();
    /** Mutating file-system operations of the run, and whether the armed power loss happened. */
    long mutations;
    boolean crashed;

    Workload(EngineConfigurations config, Durability durability, long seed, boolean scripted) {
      this.config = config;
      this.durability = durability;
      this.seed = seed;
      this.scripted = scripted;
      this.random = new Random(seed);
      // The script's flush size is large enough that only its explicit flushes go to disk (its
      // operation count stays the same from run to run); random runs also flush in the background,
      // racing with their operations. In-memory flushes every ~8 KiB.
      long flushSize = scripted ? 1L << 20 : 64L * 1024;
      double inMemory = 8.0 * 1024 / flushSize;
      this.descriptor = TableDescriptor.builder(TABLE)
          .family(config.family("a").maxVersions(3).set(Knobs.IN_MEMORY_FLUSH_FRACTION, inMemory).build())
          .family(config.family("b").set(Knobs.IN_MEMORY_FLUSH_FRACTION, inMemory).build())
          .flushSize(flushSize)
          .build();
      this.live = new ReferenceTable(descriptor);
    }

    private Bellows open(MemFileSystem on) {
      EngineOptions.Builder b = EngineOptions.builder().clock(clock).set(Knobs.DEFAULT_DURABILITY, durability);
      return Bellows.open(DIR, config.engine(b).build(), on);
    }

    /**
     * Runs {@code ops} random operations (or the fixed script), with a power loss armed at mutating
     * operation {@code crashAt} (-1: none); then checks what a reopen finds.
     */
    void run(int ops, long crashAt, Tail tail) throws IOException {
      AtomicFiles.createDirectories(fs, DIR.getParent()); // the data directory's parent exists, durably
      long base = fs.mutations();
      if (crashAt >= 0) {
        fs.crashAtOperation(base + crashAt, new Random(seed ^ crashAt), tail);
      }
      boolean survived = false;
      try {
        db = open(fs);
        db.createTable(descriptor, List.of(Bytes.of("f")));
        tableAcknowledged = true;
        ackedDescriptor = db.describeTable(TABLE);
        table = db.getTable(TABLE);
        if (scripted) {
          script();
        } else {
          for (int i = 0; i < ops; i++) {
            if (lying != null && i == lieFrom) {
              log("syncs of ~" + lying + " lie from here on");
              fs.lyingSyncs(lying);
            }
            operation();
          }
        }
        db.close();
        survived = true;
      } catch (RuntimeException e) {
        if (fs.crashed() == null) {
          throw new AssertionError(context() + "failed without a power loss", e);
        }
        closeQuietly();
      }
      mutations = fs.mutations() - base;
      if (lying != null) {
        // the lies matter only at a power loss: have one, at the end if not before
        checkNothingWrong(fs.crashed() != null ? fs.crashed() : fs.crash(new Random(seed), Tail.GARBAGE));
        return;
      }
      crashed = fs.crashed() != null;
      if (!crashed) {
        fs.crashAtOperation(-1, null, false); // disarmed: the check's own open must not lose power
      }
      // A run may end before the armed operation: background work makes counts vary a little.
      check(crashed ? fs.crashed() : fs);
    }

    private void closeQuietly() {
      if (db != null) {
        try {
          db.close();
        } catch (RuntimeException ignored) {
          // the machine is off: nothing can be closed cleanly
        }
      }
    }

    /** A short fixed sequence that makes every kind of file: flushes, a split, compactions, reopen. */
    private void script() {
      for (int i = 0; i < 6; i++) {
        mutation();
      }
      flush();
      for (int i = 0; i < 6; i++) {
        mutation();
      }
      flush();
      split(Bytes.of("c"));
      for (int i = 0; i < 4; i++) {
        mutation();
      }
      flush();
      log("minor compaction");
      db.compact(TABLE);
      reopen();
      for (int i = 0; i < 4; i++) {
        mutation();
      }
      majorCompact();
      mutation();
      // the table-wide operations, each cut at every one of its file-system operations
      alter("add family c");
      snapshot();
      bulkLoad();
      cloneSnapshot();
      for (int i = 0; i < 2; i++) {
        mutation();
      }
      alter("change b's block size and delete c");
      restore();
      mutation();
      deleteSnapshot();
    }

    private void operation() {
      int p = random.nextInt(100);
      if (p < 66) {
        mutation();
      } else if (p < 70) {
        bulk();
      } else if (p < 78) {
        read();
      } else if (p < 84) {
        clock.advance(1 + random.nextInt(1000));
      } else if (p < 89) {
        flush();
      } else if (p < 92) {
        log("minor compaction");
        db.compact(TABLE);
      } else if (p < 94) {
        majorCompact();
      } else if (p < 96) {
        reopen();
      } else if (p < 98) {
        split(ROWS[1 + random.nextInt(ROWS.length - 1)]);
      } else {
        tableOperation();
      }
    }

    /** One of the operations on the table as a whole, at random. */
    private void tableOperation() {
      switch (random.nextInt(6)) {
        case 0 -> snapshot();
        case 1 -> cloneSnapshot();
        case 2 -> restore();
        case 3 -> alter(ackedDescriptor.family("c") == null ? "add family c" : "delete family c");
        case 4 -> alter("change b's block size");
        default -> bulkLoad();
      }
    }

    /** Takes a snapshot (with a flush): it holds every acknowledged step. */
    private void snapshot() {
      String name = "s" + (++snapshotsTaken);
      log("snapshot " + name);
      inFlightSnapshot = new TakenSnapshot(name, List.copyOf(acked), ackedDescriptor);
      db.snapshot(TABLE, name);
      snapshots.put(name, inFlightSnapshot);
      inFlightSnapshot = null;
    }

    /** Clones the newest snapshot into a new table (at most two clones, to keep the checks short). */
    private void cloneSnapshot() {
      if (snapshots.isEmpty() || clones.size() >= 2) {
        return;
      }
      TakenSnapshot s = newestSnapshot();
      String name = "c" + (clones.size() + 1);
      log("clone " + s.name() + " into " + name);
      inFlightClone = name;
      db.cloneSnapshot(s.name(), name);
      clones.put(name, s);
      inFlightClone = null;
    }

    /** Disables the table, restores the newest snapshot into it and enables it again. */
    private void restore() {
      if (snapshots.isEmpty()) {
        return;
      }
      TakenSnapshot s = newestSnapshot();
      log("disable, restore " + s.name() + ", enable");
      db.disableTable(TABLE);
      inFlightDescriptor = s.descriptor();
      inFlight = List.of(m -> {
        m.restore(replay(s.steps()));
        return null;
      });
      db.restoreSnapshot(s.name());
      acknowledge();
      ackedDescriptor = inFlightDescriptor;
      inFlightDescriptor = null;
      db.enableTable(TABLE);
      table = db.getTable(TABLE);
    }

    private void deleteSnapshot() {
      if (snapshots.isEmpty()) {
        return;
      }
      String name = snapshots.keySet().iterator().next();
      log("delete snapshot " + name);
      deletingSnapshot = name;
      db.deleteSnapshot(name);
      snapshots.remove(name);
      deletingSnapshot = null;
    }

    private TakenSnapshot newestSnapshot() {
      TakenSnapshot newest = null;
      for (TakenSnapshot s : snapshots.values()) {
        if (newest == null || Integer.parseInt(s.name().substring(1)) > Integer.parseInt(newest.name().substring(1))) {
          newest = s;
        }
      }
      return newest;
    }

    /**
     * An alter: family c (never written; a whole-row delete leaves only markers in it) added or
     * deleted, and/or family b's block size changed. The data the model holds does not change.
     */
    private void alter(String what) {
      TableDescriptor d = ackedDescriptor;
      TableDescriptor.Builder next = d.toBuilder();
      if (what.contains("add family c")) {
        next.family(config.family("c").build());
      }
      if (what.contains("block size")) {
        int size = d.family("b").get(Knobs.BLOCKSIZE) == 4096 ? 16 * 1024 : 4096;
        next.modifyFamily(d.family("b").toBuilder().set(Knobs.BLOCKSIZE, size).build());
      }
      if (what.contains("delete") && d.family("c") != null) {
        next.removeFamily("c");
      }
      log("alter: " + what);
      inFlightDescriptor = next.build();
      db.modifyTable(inFlightDescriptor);
      ackedDescriptor = inFlightDescriptor;
      inFlightDescriptor = null;
    }

    /**
     * Loads a file of sorted cells of one family, spanning the regions, written with {@link
     * io.bellows.client.BulkFileWriter} on the same file system; one step: all of it or none.
     */
    private void bulkLoad() {
      String family = random.nextBoolean() ? "a" : "b";
      long ts = randomTimestamp();
      List<Cell> cells = new ArrayList<>();
      for (byte[] row : ROWS) {
        if (random.nextInt(3) == 0) {
          byte[] qualifier = pick(QUALIFIERS);
          byte[] value = Arrays.equals(qualifier, COUNTER) ? Bytes.toBytes((long) random.nextInt(100)) : randomValue();
          cells.add(io.bellows.cell.Cells.put(row, Bytes.of(family), qualifier, ts, value));
          wrote(new Put(row).addColumn(Bytes.of(family), qualifier, ts, value));
        }
      }
      if (cells.isEmpty()) {
        return;
      }
      Path file = DIR.getParent().resolve("load").resolve(++bulkLoads + "-" + family + ".sst");
      try {
        AtomicFiles.createDirectories(fs, file.getParent());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      try (io.bellows.client.BulkFileWriter w = io.bellows.client.BulkFileWriter.create(fs, file,
          ackedDescriptor.family(family))) {
        cells.forEach(w::add);
        w.finish();
      }
      long now = clock.currentTimeMillis();
      log("bulk load of " + cells.size() + " cells of " + family + " at ts " + ts);
      inFlight = List.of(m -> {
        m.mutate(cells.get(0).row(), cells, -1, now); // one sequence id for all, as the load
        return null;
      });
      db.bulkLoad(TABLE, java.util.Map.of(family, List.of(file)));
      acknowledge();
    }

    private void flush() {
      log("flush");
      db.flush(TABLE);
    }

    private void majorCompact() {
      log("flush + major compaction");
      db.flush(TABLE);
      long now = clock.currentTimeMillis();
      inFlight = List.of(m -> {
        m.majorCompact(now);
        return null;
      });
      db.majorCompact(TABLE);
      acknowledge();
    }

    private void reopen() {
      log("reopen");
      db.close();
      db = null;
      db = open(fs);
      table = db.getTable(TABLE);
    }

    private void split(byte[] row) {
      if (db.regions(TABLE).size() >= 5
          || db.regions(TABLE).stream().anyMatch(r -> Arrays.equals(r.startKey(), row))) {
        return;
      }
      log("split at " + Bytes.str(row));
      db.split(TABLE, row);
    }

    /** Steps become acknowledged: the model takes them. */
    private void acknowledge() {
      for (Step s : inFlight) {
        s.apply(live);
        acked.add(s);
      }
      inFlight = List.of();
    }

    private void mutation() {
      long now = clock.currentTimeMillis();
      int p = random.nextInt(100);
      if (p < 35) {
        Put put = randomPut(pick(ROWS));
        log("put " + put.cells());
        inFlight = List.of(m -> {
          m.mutate(put.row(), put.cells(), -1, now);
          return null;
        });
        table.put(put);
      } else if (p < 50) {
        Delete d = randomDelete(pick(ROWS));
        log("delete " + d.cells() + (d.isWholeRow() ? " whole row" : ""));
        inFlight = List.of(m -> {
          m.mutate(d.row(), d.cells(), d.isWholeRow() ? d.timestamp() : -1, now);
          return null;
        });
        table.delete(d);
      } else if (p < 65) {
        List<Put> puts = new ArrayList<>();
        for (int i = 1 + random.nextInt(5); i > 0; i--) {
          puts.add(randomPut(pick(ROWS)));
        }
        log("batch of " + puts.size() + " puts");
        List<Step> steps = new ArrayList<>();
        for (Put put : inEngineOrder(puts)) {
          steps.add(m -> {
            m.mutate(put.row(), put.cells(), -1, now);
            return null;
          });
        }
        inFlight = steps;
        table.put(puts);
      } else if (p < 72) {
        List<Delete> deletes = new ArrayList<>();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
          deletes.add(randomDelete(pick(ROWS)));
        }
        log("batch of " + deletes.size() + " deletes");
        List<Step> steps = new ArrayList<>();
        for (Delete d : inEngineOrder(deletes)) {
          steps.add(m -> {
            m.mutate(d.row(), d.cells(), d.isWholeRow() ? d.timestamp() : -1, now);
            return null;
          });
        }
        inFlight = steps;
        table.delete(deletes);
      } else if (p < 86) {
        byte[] row = pick(ROWS);
        byte[] family = pickFamily();
        long amount = random.nextInt(20) - 5;
        log("increment " + Bytes.str(row) + " by " + amount);
        Cell current = live.latest(row, family, COUNTER, now);
        if (current != null && current.valueLength() != 8) {
          return; // not a counter: the engine refuses it (EngineModelTest covers that)
        }
        inFlight = List.of(m -> m.increment(row, family, COUNTER, amount, now));
        long got = table.incrementColumnValue(row, family, COUNTER, amount);
        Object expected = inFlight.get(0).apply(live);
        acked.add(inFlight.get(0));
        inFlight = List.of();
        assertThat(got).as(context() + "increment").isEqualTo(expected);
        return;
      } else {
        byte[] row = pick(ROWS);
        byte[] family = pickFamily();
        byte[] qualifier = pick(QUALIFIERS);
        Cell current = live.latest(row, family, qualifier, now);
        byte[] expected = random.nextBoolean() && current != null ? current.value() : random.nextBoolean() ? null : randomValue();
        boolean put = random.nextBoolean();
        Mutation mutation = put ? randomPut(row) : randomDelete(row);
        log("check-and-" + (put ? "put " : "delete ") + mutation.cells());
        inFlight = List.of(m -> m.checkAndMutate(row, family, qualifier, expected, mutation.cells(),
            mutation instanceof Delete d && d.isWholeRow() ? d.timestamp() : -1, now));
        boolean applied = put ? table.checkAndPut(row, family, qualifier, expected, (Put) mutation)
            : table.checkAndDelete(row, family, qualifier, expected, (Delete) mutation);
        Object modelApplied = inFlight.get(0).apply(live);
        acked.add(inFlight.get(0));
        inFlight = List.of();
        assertThat(applied).as(context() + "check-and-mutate").isEqualTo(modelApplied);
        return;
      }
      acknowledge();
    }

    /**
     * A batch of large values: about a flush size's worth, so that memory stores also flush in the
     * background, racing with the operations that follow.
     */
    private void bulk() {
      long now = clock.currentTimeMillis();
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        byte[] value = new byte[2000 + random.nextInt(4000)];
        random.nextBytes(value);
        puts.add(new Put(pick(ROWS)).addColumn(pickFamily(), pick(QUALIFIERS), randomTimestamp(), value));
        wrote(puts.get(puts.size() - 1));
      }
      log("bulk batch of " + puts.size() + " large puts");
      List<Step> steps = new ArrayList<>();
      for (Put put : inEngineOrder(puts)) {
        steps.add(m -> {
          m.mutate(put.row(), put.cells(), -1, now);
          return null;
        });
      }
      inFlight = steps;
      table.put(puts);
      acknowledge();
    }

    /**
     * A batch's mutations in the order the engine applies them: region after region in key order,
     * batch order within a region. That order is what a lost log tail cuts.
     */
    private <M extends Mutation> List<M> inEngineOrder(List<M> batch) {
      List<RegionInfo> regions = db.regions(TABLE);
      List<M> out = new ArrayList<>(batch);
      out.sort(Comparator.comparingInt(m -> regionIndex(regions, m.row())));
      return out;
    }

    private int regionIndex(List<RegionInfo> regions, byte[] row) {
      int index = 0;
      for (int i = 0; i < regions.size(); i++) {
        if (Bytes.compare(regions.get(i).startKey(), row) <= 0) {
          index = i;
        }
      }
      return index;
    }

    private void read() {
      log("full scan");
      assertThat(scan(db)).as(context() + "a read before any power loss").isEqualTo(render(live));
    }

    // -------------------------------------------------------------------- checking

    /** Reopens on what the power loss left and finds a state the acknowledged operations allow. */
    private void check(MemFileSystem after) {
      Bellows reopened;
      try {
        reopened = open(after);
      } catch (RuntimeException e) {
        throw new AssertionError(context() + "the engine does not reopen after the power loss", e);
      }
      try {
        if (!reopened.tableExists(TABLE)) {
          assertThat(tableAcknowledged).as(context() + "the table whose creation was acknowledged is gone").isFalse();
          return;
        }
        checkTableOperations(reopened);
        List<String> found = scan(reopened);
        List<Step> all = new ArrayList<>(acked);
        all.addAll(inFlight);
        // Allowed: FSYNC_WAL, the acknowledged steps and a prefix of the interrupted one's; ASYNC_WAL,
        // any prefix of the steps.
        int lowest = durability == Durability.FSYNC_WAL ? acked.size() : 0;
        ReferenceTable model = new ReferenceTable(descriptor);
        List<List<String>> candidates = new ArrayList<>();
        for (int k = 0; k <= all.size(); k++) {
          if (k >= lowest) {
            List<String> expected = render(model);
            if (expected.equals(found)) {
              return;
            }
            candidates.add(expected);
          }
          if (k < all.size()) {
            all.get(k).apply(model);
          }
        }
        int closest = 0;
        for (int k = 1; k < candidates.size(); k++) {
          if (differences(candidates.get(k), found) < differences(candidates.get(closest), found)) {
            closest = k;
          }
        }
        List<String> expected = candidates.get(closest);
        fail(context() + "after the power loss the engine holds a state no prefix of the " + all.size()
            + " steps (" + acked.size() + " acknowledged, the first " + lowest + " required) gives; closest: the first "
            + (lowest + closest) + " steps, which differ in\nengine:\n  "
            + String.join("\n  ", found.stream().filter(row -> !expected.contains(row)).toList())
            + "\nmodel:\n  " + String.join("\n  ", expected.stream().filter(row -> !found.contains(row)).toList()));
      } finally {
        reopened.close();
      }
    }

    /**
     * The table's descriptor, snapshots and clones after a power loss: each operation whole or
     * absent. Enables the table if the power loss left it disabled (between a restore's disable and
     * enable).
     */
    private void checkTableOperations(Bellows reopened) {
      if (!reopened.isTableEnabled(TABLE)) {
        reopened.enableTable(TABLE);
      }
      if (ackedDescriptor != null) {
        String found = shape(reopened.describeTable(TABLE));
        if (inFlightDescriptor == null || !found.equals(shape(inFlightDescriptor))) {
          assertThat(found).as(context() + "the table's settings and families: the acknowledged ones, or those of the"
              + " interrupted alter or restore").isEqualTo(shape(ackedDescriptor));
        }
      }
      java.util.Map<String, TakenSnapshot> allowed = new java.util.TreeMap<>(snapshots);
      if (inFlightSnapshot != null) {
        allowed.put(inFlightSnapshot.name(), inFlightSnapshot);
      }
      List<String> listed = reopened.listSnapshots().stream().map(SnapshotInfo::name).toList();
      for (String name : snapshots.keySet()) {
        if (!name.equals(deletingSnapshot)) {
          assertThat(listed).as(context() + "acknowledged snapshot " + name).contains(name);
        }
      }
      int checks = 0;
      for (String name : listed) {
        TakenSnapshot s = allowed.get(name);
        assertThat(s).as(context() + "snapshot " + name + " was never taken (listed: " + listed + ")").isNotNull();
        String copy = "check" + (++checks);
        reopened.cloneSnapshot(name, copy);
        assertThat(scan(reopened, copy)).as(context() + "snapshot " + name + " holds the table as it was when taken")
            .isEqualTo(render(replay(s.steps())));
      }
      for (String t : reopened.listTables()) {
        if (t.equals(TABLE) || t.startsWith("check")) {
          continue;
        }
        TakenSnapshot of = clones.get(t);
        if (of == null) {
          assertThat(t).as(context() + "a table nobody made").isEqualTo(inFlightClone);
          of = newestSnapshot();
        }
        assertThat(scan(reopened, t)).as(context() + "clone " + t + " holds its snapshot")
            .isEqualTo(render(replay(of.steps())));
      }
      for (String t : clones.keySet()) {
        assertThat(reopened.tableExists(t)).as(context() + "acknowledged clone " + t).isTrue();
      }
    }

    /** The model after the steps, from an empty table. */
    private ReferenceTable replay(List<Step> steps) {
      ReferenceTable model = new ReferenceTable(descriptor);
      steps.forEach(step -> step.apply(model));
      return model;
    }

    /** After lying syncs: the engine opens or names the file it cannot trust; what it returns was written. */
    private void checkNothingWrong(MemFileSystem after) {
      Bellows reopened;
      try {
        reopened = open(after);
      } catch (StorageException e) {
        System.out.println("  the open refused: " + e.getMessage());
        assertNamesAFile(e, "the refused open");
        return;
      } catch (RuntimeException e) {
        throw new AssertionError(context() + "the open after lying syncs failed with an unexpected exception", e);
      }
      try {
        if (!reopened.tableExists(TABLE)) {
          return;
        }
        List<String> found;
        try {
          if (!reopened.isTableEnabled(TABLE)) {
            reopened.enableTable(TABLE); // a power loss between a restore's disable and enable
          }
          found = scan(reopened);
        } catch (StorageException e) {
          System.out.println("  the read failed: " + e.getMessage());
          assertNamesAFile(e, "the failed read");
          return;
        }
        int kept = keptSteps(found);
        System.out.println("  opened; " + found.size() + " rows, "
            + (kept < 0 ? "not a prefix of the acknowledged steps" : (acked.size() - kept) + " acknowledged steps lost"));
        // A cell is right if some prefix of the steps has it (counters included), or a put wrote its value.
        Set<String> allowed = new HashSet<>();
        List<Step> all = new ArrayList<>(acked);
        all.addAll(inFlight);
        ReferenceTable model = new ReferenceTable(descriptor);
        for (int k = 0; k <= all.size(); k++) {
          for (String row : render(model)) {
            allowed.addAll(Arrays.asList(row.split("  ")));
          }
          if (k < all.size()) {
            all.get(k).apply(model);
          }
        }
        for (String row : found) {
          for (String cell : row.split("  ")) {
            if (!allowed.contains(cell) && !written.contains(withoutTimestamp(cell))) {
              fail(context() + "after lying syncs and a power loss the engine returned a cell nobody wrote: " + cell);
            }
          }
        }
      } catch (RuntimeException e) {
        throw new AssertionError(context() + "a read after lying syncs failed with an unexpected exception", e);
      } finally {
        try {
          reopened.close();
        } catch (RuntimeException ignored) {
          // a store that found damage may fail to close cleanly; what it returned was checked
        }
      }
    }

    /** How many acknowledged steps the found state is the result of, or -1 if of no prefix of them. */
    private int keptSteps(List<String> found) {
      ReferenceTable model = new ReferenceTable(descriptor);
      for (int k = 0; k <= acked.size(); k++) {
        if (render(model).equals(found)) {
          return k;
        }
        if (k < acked.size()) {
          acked.get(k).apply(model);
        }
      }
      return -1;
    }

    private void assertNamesAFile(StorageException e, String what) {
      StringBuilder messages = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        messages.append(t.getMessage()).append('\n');
      }
      assertThat(messages.toString()).as(context() + what + " names the file it could not trust:\n" + messages)
          .contains(DIR.toString());
    }

    private void wrote(Put put) {
      for (Cell c : put.cells()) {
        written.add(withoutTimestamp(showRow(List.of(c)).trim()));
      }
    }

    private static String withoutTimestamp(String cell) {
      return cell.replaceFirst("/-?\\d+/\\w+=", "=");
    }

    private int differences(List<String> a, List<String> b) {
      int n = 0;
      for (String row : a) {
        n += b.contains(row) ? 0 : 1;
      }
      for (String row : b) {
        n += a.contains(row) ? 0 : 1;
      }
      return n;
    }

    private List<String> scan(Bellows on) {
      return scan(on, TABLE);
    }

    private List<String> scan(Bellows on, String tableName) {
      List<String> rows = new ArrayList<>();
      try (ResultScanner s = on.getTable(tableName).getScanner(new Scan().readAllVersions())) {
        for (Result r : s) {
          rows.add(showRow(r.cells()));
        }
      }
      return rows;
    }

    private List<String> render(ReferenceTable model) {
      List<String> rows = new ArrayList<>();
      for (List<Cell> row : model.read(ScanQuery.builder().maxVersions(Integer.MAX_VALUE).build(),
          clock.currentTimeMillis())) {
        rows.add(showRow(row));
      }
      return rows;
    }

    private void log(String what) {
      log.add(what);
    }

    private String context() {
      List<String> recent = log.subList(Math.max(0, log.size() - 30), log.size());
      return "seed=" + seed + " config=" + config + " durability=" + durability + " mutations=" + fs.mutations()
          + "\nre-run: -Dtest=PowerLossTest -Dbellows.test.seed=" + seed + "\nrecent operations:\n  "
          + String.join("\n  ", recent) + "\n";
    }

    // -------------------------------------------------------------------- random mutations

    private Put randomPut(byte[] row) {
      Put put = new Put(row);
      List<String> columns = new ArrayList<>();
      for (int i = random.nextInt(3) == 0 ? 3 : 1; i > 0; i--) {
        byte[] family = pickFamily();
        byte[] qualifier = pick(QUALIFIERS);
        if (columns.contains(Bytes.str(family) + ":" + Bytes.str(qualifier))) {
          continue;
        }
        columns.add(Bytes.str(family) + ":" + Bytes.str(qualifier));
        byte[] value = Arrays.equals(qualifier, COUNTER) ? Bytes.toBytes((long) random.nextInt(100)) : randomValue();
        if (random.nextBoolean()) {
          put.addColumn(family, qualifier, value);
        } else {
          put.addColumn(family, qualifier, randomTimestamp(), value);
        }
      }
      wrote(put);
      return put;
    }

    private Delete randomDelete(byte[] row) {
      if (random.nextInt(8) == 0) {
        return random.nextBoolean() ? new Delete(row) : new Delete(row, randomTimestamp());
      }
      Delete d = new Delete(row);
      byte[] family = pickFamily();
      byte[] qualifier = pick(QUALIFIERS);
      switch (random.nextInt(5)) {
        case 0 -> d.addFamily(family);
        case 1 -> d.addColumns(family, qualifier);
        case 2 -> d.addColumns(family, qualifier, randomTimestamp());
        case 3 -> d.addColumn(family, qualifier, randomTimestamp());
        default -> d.addColumn(family, qualifier);
      }
      return d;
    }

    private long randomTimestamp() {
      return random.nextBoolean() ? START_MILLIS + 100L * random.nextInt(5)
          : Math.max(0, clock.currentTimeMillis() - 100L * random.nextInt(3));
    }

    private byte[] randomValue() {
      byte[] v = new byte[random.nextInt(4) == 0 ? 1000 + random.nextInt(4000) : 1 + random.nextInt(30)];
      random.nextBytes(v);
      return v;
    }

    private byte[] pickFamily() {
      return random.nextBoolean() ? Bytes.of("a") : Bytes.of("b");
    }

    private byte[] pick(byte[][] from) {
      return from[random.nextInt(from.length)];
    }
  }

  /** A snapshot as the test took it: the steps acknowledged before it, and the table's descriptor. */
  private record TakenSnapshot(String name, List<Step> steps, TableDescriptor descriptor) {}

  /** A descriptor's families and settings, in name order (the catalog need not keep the order given). */
  private static String shape(TableDescriptor d) {
    StringBuilder sb = new StringBuilder(new java.util.TreeMap<>(names(d.explicitValues())).toString());
    d.families().stream().sorted(Comparator.comparing(io.bellows.schema.ColumnFamilyDescriptor::name))
        .forEach(f -> sb.append(' ').append(f.name()).append(new java.util.TreeMap<>(names(f.explicitValues()))));
    return sb.toString();
  }

  private static java.util.Map<String, String> names(java.util.Map<io.bellows.config.Knob<?>, Object> values) {
    java.util.Map<String, String> out = new java.util.HashMap<>();
    values.forEach((k, v) -> out.put(k.name(), String.valueOf(v)));
    return out;
  }

  private static String showRow(List<Cell> cells) {
    StringBuilder sb = new StringBuilder();
    for (Cell c : cells) {
      sb.append(Bytes.toStringBinary(c.row())).append('/').append(Bytes.toStringBinary(c.family())).append(':')
          .append(Bytes.toStringBinary(c.qualifier())).append('/').append(c.timestamp()).append('/').append(c.type())
          .append('=').append(c.valueLength()).append("b#").append(Integer.toHexString(Arrays.hashCode(c.value())))
          .append("  ");
    }
    return sb.toString();
  }

  private static byte[][] bytes(String... s) {
    byte[][] out = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      out[i] = Bytes.of(s[i]);
    }
    return out;
  }
}
