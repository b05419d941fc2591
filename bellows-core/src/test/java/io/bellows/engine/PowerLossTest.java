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
 * compactions, in-memory flushes and compactions, splits, reopen) are cut by a power loss, after
 * which the engine reopens on what the file system kept: only synced bytes, only directory entries
 * whose directory was synced, an unsynced tail dropped, torn or torn and followed by garbage. Then, against {@link ReferenceTable}
 * replaying the acknowledged operations:
 *
 * <ul>
 *   <li>the engine opens without repair;
 *   <li>with FSYNC_WAL, everything acknowledged is there, and of the operation the power cut, all,
 *       none or (for a batch) a prefix of its row mutations in the order the engine applies them;
 *   <li>with ASYNC_WAL, what is there is the state after some prefix of the row mutations;
 *   <li>both say that no row mutation is half there.
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
      } else if (p < 97) {
        reopen();
      } else {
        split(ROWS[1 + random.nextInt(ROWS.length - 1)]);
      }
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
      List<String> rows = new ArrayList<>();
      try (ResultScanner s = on.getTable(TABLE).getScanner(new Scan().readAllVersions())) {
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
