package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.cell.Cell;
import io.bellows.client.Append;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Increment;
import io.bellows.client.Mutation;
import io.bellows.client.Put;
import io.bellows.client.Query;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.ValueFilter;
import io.bellows.scan.ScanQuery;
import io.bellows.config.BloomType;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.Compression;
import io.bellows.config.Durability;
import io.bellows.config.MemStorePolicy;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine-wide randomized model test: one seeded stream of operations (puts, batch puts, every
 * kind of delete, increments and appends of one or several columns, check-and-put/delete under
 * every compare operator, time ranges and filter conditions, flushes, minor and major compactions, close and
 * reopen, clock advances) is applied both to a real {@link Bellows} engine and to {@link
 * ReferenceTable}, and after every few operations random gets and scans must return the same cells
 * (row, family, qualifier, timestamp, type, value) from both.
 *
 * <p>Regions split during the run: explicitly at random rows in every option set, and by
 * themselves (a tiny {@code MAX_FILESIZE}) in the "autosplit" ones, racing with the operations.
 *
 * <p>Metamorphic: the same stream (same seed) runs under every {@link OptionSet} — memory-store
 * policies, block sizes, compressions, Bloom filter types. The stream is generated from the seed and
 * the model's state only, never from the engine's answers, so every option set sees identical
 * operations and must give identical answers (those of the one model).
 *
 * <p>Re-running: the seed is printed at the start of every run and in every failure message; run
 * {@code mvn -o -pl bellows-core test -Dtest=EngineModelTest -Dbellows.test.seed=<seed>} to repeat
 * it ({@code -Dbellows.model.ops=<n>} changes the length of the stream). Background flushes and
 * compactions run on the engine's own threads, so their timing varies between runs; the answers must
 * not.
 *
 * <p>The engine under test is pluggable ({@link EngineUnderTest}): this class runs one embedded
 * engine; {@link #run} runs the same stream against any other, a replicated cluster among them
 * (bellows-client's {@code ReplicatedEngineModelTest}), and then checks every replica's cells.
 */
@ExtendWith(SeedExtension.class)
public class EngineModelTest {
  private static final int OPS = Integer.getInteger("bellows.model.ops", 2500);
  /** Debugging aid: compare a full scan after every operation. */
  private static final boolean FULL_CHECK = Boolean.getBoolean("bellows.model.fullcheck");
  /** Debugging aid: run only the option sets whose name contains this. */
  private static final String ONLY = System.getProperty("bellows.model.only", "");
  /** How many recent operations a failure message lists. */
  private static final int HISTORY = Integer.getInteger("bellows.model.history", 40);
  private static final long START_MILLIS = 1_000_000;
  /** Explicit splits stop at this many regions. */
  private static final int MAX_REGIONS = 8;

  private static final String TABLE = "t";
  private static final byte[][] ROWS = bytes("a", "ab", "abc", "b", "r00", "r01", "r02", "r03", "r04", "r05",
      "r06", "r07", "r08", "r09", "r10", "r11");
  private static final byte[][] QUALIFIERS = bytes("", "q0", "q1", "q10", "q2", "n");
  private static final byte[] COUNTER = Bytes.of("n");

  /**
   * The option sets every operation stream runs under (metamorphic: all must give the model's
   * answers): every memory-store policy, block sizes, compressions, Bloom types, the chunk memory
   * layouts (MSLAB, serialized CHUNK index, chunk skiplist, off-heap chunks), and block caches:
   * tiny L1s (constant eviction), L1 admission READ_AGAIN, L2 alone or behind L1, cache-on-write,
   * IN_MEMORY, BLOCKCACHE off;
   * the other sets have the default L1.
   */
  public static Stream<OptionSet> optionSets() {
    return Stream.of(
        new OptionSet("NONE/1K/plain/ROW/4-regions+L1-32K", MemStorePolicy.NONE, 1024, Compression.NONE, BloomType.ROW)
            .withSplits("ab", "r03", "r08")
            .withEngineKnob(Knobs.BLOCKCACHE_L1_SIZE, 32L * 1024),
        new OptionSet("BASIC/1K/lz4/ROWCOL/autosplit+L2-only+cache-on-write", MemStorePolicy.BASIC, 1024,
            Compression.LZ4, BloomType.ROWCOL)
            .withMaxFileSize(64 * 1024)
            .withEngineKnob(Knobs.BLOCKCACHE_L1_FRACTION, 0.0)
            .withEngineKnob(Knobs.BLOCKCACHE_L2_SIZE, 1028L * 1024)
            .withEngineKnob(Knobs.BLOCKCACHE_CACHE_ON_WRITE, true),
        new OptionSet("EAGER/4K/zstd/none/autosplit+L1-64K+L2+IN_MEMORY", MemStorePolicy.EAGER, 4096,
            Compression.ZSTD, BloomType.NONE)
            .withMaxFileSize(64 * 1024)
            .withEngineKnob(Knobs.BLOCKCACHE_L1_SIZE, 64L * 1024)
            .withEngineKnob(Knobs.BLOCKCACHE_L2_SIZE, 2L * 1028 * 1024)
            .withEngineKnob(Knobs.BLOCKCACHE_CACHE_ON_WRITE, true)
            .withFamilyKnob(Knobs.IN_MEMORY, true),
        new OptionSet("ADAPTIVE/D(4)-256..1K/plain/ROWCOL/autosplit+KV-cache-eager", MemStorePolicy.ADAPTIVE, 1024,
            Compression.NONE, BloomType.ROWCOL)
            .withMaxFileSize(64 * 1024)
            .withEngineKnob(Knobs.BLOCKCACHE_L1_SIZE, 256L * 1024)
            .withEngineKnob(Knobs.KVCACHE_PROMOTE_MIN_ACCESSES, 1)
            .withFamilyKnob(Knobs.MIN_BLOCKSIZE, 256)
            .withFamilyKnob(Knobs.MAX_ENTRIES_PER_BLOCK, 4),
        new OptionSet("NONE/64K/zstd/ROWCOL+BLOCKCACHE-off", MemStorePolicy.NONE, 65536, Compression.ZSTD,
            BloomType.ROWCOL)
            .withFamilyKnob(Knobs.BLOCKCACHE, false),
        new OptionSet("BASIC/4K/plain/none", MemStorePolicy.BASIC, 4096, Compression.NONE, BloomType.NONE),
        new OptionSet("EAGER/1K/lz4/ROW/3-regions", MemStorePolicy.EAGER, 1024, Compression.LZ4, BloomType.ROW)
            .withSplits("b", "r05"),
        new OptionSet("ADAPTIVE/64K/lz4/none+L1-512K-read-again+L2", MemStorePolicy.ADAPTIVE, 65536, Compression.LZ4,
            BloomType.NONE)
            .withEngineKnob(Knobs.BLOCKCACHE_L1_SIZE, 512L * 1024)
            .withEngineKnob(Knobs.BLOCKCACHE_L1_ADMISSION, io.bellows.config.L1Admission.READ_AGAIN)
            .withEngineKnob(Knobs.BLOCKCACHE_L2_SIZE, 1028L * 1024),
        new OptionSet("BASIC/1K/lz4/ROW+CHUNK-index", MemStorePolicy.BASIC, 1024, Compression.LZ4, BloomType.ROW)
            .withFamilyKnob(Knobs.SEGMENT_INDEX, io.bellows.config.SegmentIndexType.CHUNK)
            .withEngineKnob(Knobs.CHUNK_SIZE, 64L * 1024),
        new OptionSet("NONE/1K/plain/ROWCOL+chunk-skiplist+MSLAB", MemStorePolicy.NONE, 1024, Compression.NONE,
            BloomType.ROWCOL)
            .withFamilyKnob(Knobs.ACTIVE_INDEX, io.bellows.config.ActiveIndexType.CHUNK_SKIPLIST)
            .withFamilyKnob(Knobs.MSLAB, true)
            .withEngineKnob(Knobs.CHUNK_SIZE, 64L * 1024),
        new OptionSet("EAGER/4K/zstd/ROW+MSLAB-offheap+CHUNK-index", MemStorePolicy.EAGER, 4096, Compression.ZSTD,
            BloomType.ROW)
            .withFamilyKnob(Knobs.MSLAB, true)
            .withFamilyKnob(Knobs.SEGMENT_INDEX, io.bellows.config.SegmentIndexType.CHUNK)
            .withFamilyKnob(Knobs.ACTIVE_INDEX, io.bellows.config.ActiveIndexType.CHUNK_SKIPLIST)
            .withEngineKnob(Knobs.CHUNK_OFF_HEAP, true)
            .withEngineKnob(Knobs.CHUNK_SIZE, 64L * 1024),
        new OptionSet("ADAPTIVE/1K/plain/ROWCOL+MSLAB-heap+array/6-regions", MemStorePolicy.ADAPTIVE, 1024,
            Compression.NONE, BloomType.ROWCOL)
            .withSplits("a", "abc", "r01", "r02", "r10")
            .withFamilyKnob(Knobs.MSLAB, true)
            .withEngineKnob(Knobs.CHUNK_SIZE, 64L * 1024));
  }

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @MethodSource("optionSets")
  void engineAnswersLikeTheModel(OptionSet options, Seed seed) {
    org.junit.jupiter.api.Assumptions.assumeTrue(options.name().contains(ONLY), "not selected");
    System.out.println("EngineModelTest " + seed + " ops=" + OPS + " options=" + options.name());
    new Run(options, seed.value(), false, EngineUnderTest.local(dir), "EngineModelTest").execute(OPS);
  }

  /**
   * Runs the stream of {@code seed} ({@code ops} operations) under {@code options} on {@code engine}
   * and checks every answer against the model, as {@link #engineAnswersLikeTheModel} does on one
   * engine; at the end, also each replica's cells (all versions) against the model at that
   * replica's time. Operations the engine does not have ({@link EngineUnderTest#splits}, {@link
   * EngineUnderTest#majorCompactions}) are left out, each saying so in the failure's list of recent
   * operations (a table is not pre-split then). {@code test} names the test to re-run in failure
   * reports. The engine is closed at the end.
   */
  public static void run(OptionSet options, long seed, int ops, EngineUnderTest engine, String test) {
    new Run(options, seed, false, engine, test).execute(ops);
  }

  /**
   * The same with a clock that also jumps backwards (an NTP step, a VM restored): LATEST then stamps
   * older timestamps than cells already written, and the engine must still answer as the model,
   * which orders versions by timestamp and lets the newest write win a tie (HBase's rules; see
   * ARCHITECTURE.md, "Data model and semantics"). Under the first option set of each memory-store
   * policy, a third of the runs' length each.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("backwardsOptionSets")
  void engineAnswersLikeTheModelWhenTheClockJumpsBack(OptionSet options, Seed seed) {
    System.out.println("EngineModelTest clock backwards " + seed + " ops=" + OPS / 3 + " options=" + options.name());
    new Run(options, seed.value(), true, EngineUnderTest.local(dir), "EngineModelTest").execute(OPS / 3);
  }

  static Stream<OptionSet> backwardsOptionSets() {
    List<OptionSet> all = optionSets().toList();
    return Stream.of(all.get(0), all.get(all.size() / 2), all.get(all.size() - 1));
  }

  // ====================================================================== the run

  /** One run of the stream against one engine and one model. Not thread-safe. */
  private static final class Run {
    private final OptionSet options;
    /** Where the engine runs: one on the test's directory, or a cluster's members. */
    private final EngineUnderTest engine;
    /** The test a failure report says to re-run. */
    private final String test;
    private final long seed;
    private final Random random;
    /** Whether clock moves may go backwards. */
    private final boolean backwards;
    private final Clock.Manual clock = new Clock.Manual(START_MILLIS);
    private final TableDescriptor descriptor;
    private final ReferenceTable model;
    private final Deque<String> recent = new ArrayDeque<>();
    private Bellows db;
    private Table table;
    private int step;
    private int reads;
    private long flushes;
    private long compactions;
    private int explicitFlushes;

    Run(OptionSet options, long seed, boolean backwards, EngineUnderTest engine, String test) {
      this.options = options;
      this.engine = engine;
      this.test = test;
      this.seed = seed;
      this.backwards = backwards;
      this.random = new Random(seed);
      // A cell expired by TTL may be gone for good once a flush or compaction dropped it, though a
      // clock set back would make it young again: the model cannot know when that happened.
      this.descriptor = backwards ? options.table(false) : options.table();
      this.model = new ReferenceTable(descriptor);
    }

    void execute(int ops) {
      db = open();
      try {
        db.createTable(descriptor, engine.splits() ? options.splitKeys() : List.of());
        table = db.getTable(TABLE);
        for (step = 0; step < ops; step++) {
          operation();
          if (FULL_CHECK) {
            fullScanCheck("after operation");
          }
          if (random.nextInt(3) == 0) {
            int n = 1 + random.nextInt(2);
            for (int i = 0; i < n; i++) {
              randomRead();
            }
          }
        }
        step = ops;
        fullScanCheck("final");
        reopen();
        fullScanCheck("final after reopen");
        replicaCheck();
        countFlushes();
        System.out.println("EngineModelTest " + options.name() + ": " + ops + " ops, " + reads + " reads, "
            + model.cellCount() + " model cells at the end; engine: " + flushes + " store flushes ("
            + explicitFlushes + " flush calls), " + compactions + " compactions, "
            + db.regions(TABLE).size() + " regions");
      } finally {
        try {
          db.close();
        } finally {
          engine.close();
        }
      }
    }

    private EngineOptions engineOptions() {
      EngineOptions.Builder b = EngineOptions.builder().clock(clock)
          // Speed: durability across crashes is CrashRecoveryTest's job; this test closes cleanly.
          .set(Knobs.DEFAULT_DURABILITY, Durability.ASYNC_WAL);
      options.engineKnobs().forEach((k, v) -> setUnchecked(b, k, v));
      return b.build();
    }

    private Bellows open() {
      return engine.open(engineOptions());
    }

    private void reopen() {
      countFlushes();
      db = engine.reopen(db, engineOptions());
      table = db.getTable(TABLE);
    }

    /** Adds the engine's flush and compaction counters of this open (they restart at each open). */
    private void countFlushes() {
      Map<String, Number> m = db.metrics();
      flushes += m.getOrDefault("flush.count", 0).longValue();
      compactions += m.getOrDefault("compaction.count", 0).longValue();
    }

    /** The engine's time: the manual clock's, or on a cluster its leader's ({@link EngineUnderTest#now}). */
    private long now() {
      return engine.now(clock.currentTimeMillis());
    }

    private void log(String op) {
      recent.addLast("#" + step + " " + op);
      if (recent.size() > HISTORY) {
        recent.removeFirst();
      }
    }

    private String context() {
      return "seed=" + seed + " options=" + options.name() + " step=" + step + " now=" + now()
          + "\nre-run: -Dtest=" + test + " -Dbellows.test.seed=" + seed + "\nrecent operations:\n  "
          + String.join("\n  ", recent) + "\n";
    }

    // -------------------------------------------------------------------- operations

    private void operation() {
      int p = random.nextInt(1000);
      if (p < 260) {
        Put put = randomPut(pick(ROWS));
        log("put " + describe(put));
        table.put(put);
        model.mutate(put.row(), put.cells(), -1, now());
      } else if (p < 285) {
        // A bulk batch of large values: fills a memory store past the flush size, so flushes also
        // happen in the background, racing with the reads and writes that follow.
        List<Put> puts = new ArrayList<>();
        for (int i = 10 + random.nextInt(16); i > 0; i--) {
          byte[] value = new byte[1000 + random.nextInt(3000)];
          random.nextBytes(value);
          puts.add(new Put(pick(ROWS)).addColumn(pickFamily(), pick(QUALIFIERS), randomTimestamp(), value));
        }
        log("bulk put " + puts.stream().map(EngineModelTest::describe).toList());
        table.put(puts);
        for (Put put : puts) {
          model.mutate(put.row(), put.cells(), -1, now());
        }
      } else if (p < 330) {
        int n = 1 + random.nextInt(4);
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          puts.add(randomPut(pick(ROWS)));
        }
        log("batch put " + puts.stream().map(EngineModelTest::describe).toList());
        table.put(puts);
        for (Put put : puts) {
          model.mutate(put.row(), put.cells(), -1, now());
        }
      } else if (p < 470) {
        Delete d = randomDelete(pick(ROWS));
        log("delete " + describe(d));
        table.delete(d);
        model.mutate(d.row(), d.cells(), d.isWholeRow() ? d.timestamp() : -1, now());
      } else if (p < 500) {
        List<Delete> deletes = new ArrayList<>();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
          deletes.add(randomDelete(pick(ROWS)));
        }
        log("batch delete " + deletes.stream().map(EngineModelTest::describe).toList());
        table.delete(deletes);
        for (Delete d : deletes) {
          model.mutate(d.row(), d.cells(), d.isWholeRow() ? d.timestamp() : -1, now());
        }
      } else if (p < 560) {
        increment();
      } else if (p < 580) {
        append();
      } else if (p < 640) {
        checkAndPut();
      } else if (p < 690) {
        checkAndDelete();
      } else if (p < 697) {
        log("flush");
        explicitFlushes++;
        db.flush(TABLE);
      } else if (p < 715) {
        log("minor compaction");
        db.compact(TABLE);
      } else if (p < 720) {
        // The model's major compaction covers every cell; the engine's covers only its files, so
        // the memory stores are flushed first (no writer runs in between: this thread is the only one).
        if (!engine.majorCompactions()) {
          log("flush (the major compaction left out: the engine under test has none)");
          explicitFlushes++;
          db.flush(TABLE);
          return;
        }
        log("flush + major compaction");
        explicitFlushes++;
        db.flush(TABLE);
        db.majorCompact(TABLE);
        model.majorCompact(now());
      } else if (p < 725) {
        log("close + reopen");
        reopen();
      } else if (p < 729) {
        split();
      } else if (p < 825) {
        long[] steps = {1, 250, 500, 500, 1000, 1500, 4000};
        long by = steps[random.nextInt(steps.length)];
        if (backwards && random.nextInt(3) == 0) {
          by = -Math.min(by, now() - START_MILLIS); // back, never before the start (timestamps stay >= 0)
        }
        log("clock " + (by < 0 ? "" : "+") + by);
        clock.advance(by);
      } else {
        randomRead();
      }
    }

    /**
     * Splits the region holding a random row at that row (invisible to every answer: the model has
     * no regions). A row that is already a region's start is refused; so is any split once the
     * table has {@link #MAX_REGIONS} regions, to keep regions holding more than one row.
     */
    private void split() {
      byte[] row = pick(ROWS);
      if (!engine.splits()) {
        log("split at " + str(row) + " left out: the engine under test does not split");
        return;
      }
      List<RegionInfo> regions = db.regions(TABLE);
      boolean isStart = regions.stream().anyMatch(r -> java.util.Arrays.equals(r.startKey(), row));
      if (regions.size() >= MAX_REGIONS) {
        return;
      }
      log("split at " + str(row) + " (" + regions.size() + " regions)");
      if (isStart) {
        assertThatThrownBy(() -> db.split(TABLE, row)).as(context())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is the start of");
        return;
      }
      try {
        db.split(TABLE, row);
      } catch (IllegalArgumentException e) {
        // An automatic split in the background may have made the row a region's start meanwhile.
        assertThat(db.regions(TABLE)).as(context() + e).anyMatch(r -> java.util.Arrays.equals(r.startKey(), row));
        return;
      }
      assertThat(db.regions(TABLE)).as(context() + "a region starts at the split row")
          .anyMatch(r -> java.util.Arrays.equals(r.startKey(), row));
    }

    private void increment() {
      byte[] row = pick(ROWS);
      if (random.nextBoolean()) {
        // Several columns at once: one atomic operation.
        Increment inc = new Increment(row);
        for (byte[][] column : distinctColumns(true)) {
          inc.addColumn(column[0], column[1], random.nextInt(21) - 5);
        }
        if (random.nextInt(6) == 0) {
          long min = START_MILLIS + 500L * random.nextInt(8);
          inc.setTimeRange(min, min + 500L * (1 + random.nextInt(6)));
        }
        log("increment " + str(row) + " " + inc.columns());
        updateAndCompare(row, inc.columns(), () -> table.increment(inc));
        return;
      }
      byte[] family = pickFamily();
      byte[] qualifier = random.nextInt(5) == 0 ? pick(QUALIFIERS) : COUNTER;
      long amount = random.nextInt(21) - 5;
      log("increment " + str(row) + "/" + str(family) + ":" + str(qualifier) + " by " + amount);
      long expected;
      try {
        expected = model.increment(row, family, qualifier, amount, now());
      } catch (IllegalArgumentException e) {
        assertThatThrownBy(() -> table.incrementColumnValue(row, family, qualifier, amount))
            .as(context()).isInstanceOf(IllegalArgumentException.class);
        return;
      }
      assertThat(table.incrementColumnValue(row, family, qualifier, amount)).as(context()).isEqualTo(expected);
    }

    private void append() {
      byte[] row = pick(ROWS);
      Append app = new Append(row);
      for (byte[][] column : distinctColumns(false)) {
        byte[] suffix = new byte[random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(12)];
        random.nextBytes(suffix);
        app.addColumn(column[0], column[1], suffix);
      }
      log("append " + str(row) + " " + app.columns());
      updateAndCompare(row, app.columns(), () -> table.append(app));
    }

    /** 1 to 3 distinct columns (family, qualifier), counters mostly when {@code counters}. */
    private List<byte[][]> distinctColumns(boolean counters) {
      List<byte[][]> out = new ArrayList<>();
      Set<String> seen = new LinkedHashSet<>();
      for (int n = 1 + random.nextInt(3); n > 0; n--) {
        byte[] family = pickFamily();
        byte[] qualifier = counters && random.nextInt(4) > 0 ? COUNTER : pick(QUALIFIERS);
        if (seen.add(str(family) + ":" + str(qualifier))) {
          out.add(new byte[][] {family, qualifier});
        }
      }
      return out;
    }

    /** Runs an increment or append on the engine and the model: same new cells, or both refuse. */
    private void updateAndCompare(byte[] row, List<ColumnUpdate> updates, java.util.function.Supplier<Result> engineCall) {
      List<Cell> expected;
      try {
        expected = model.mutateRow(row, null, List.of(), -1, updates, now());
      } catch (IllegalArgumentException e) {
        assertThatThrownBy(engineCall::get).as(context()).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("8-byte counter");
        return;
      }
      compare("new values", List.of(engineCall.get()), List.of(expected), true);
    }

    private void checkAndPut() {
      byte[] row = pick(ROWS);
      Condition condition = randomCondition(row);
      Put put = randomPut(row);
      log("checkAndPut " + describe(condition) + " then " + describe(put));
      boolean applied = table.checkAndMutate(condition, put);
      boolean modelApplied = model.mutateRow(row, condition, put.cells(), -1, List.of(), now()) != null;
      assertThat(applied).as(context()).isEqualTo(modelApplied);
    }

    private void checkAndDelete() {
      byte[] row = pick(ROWS);
      Condition condition = randomCondition(row);
      Delete d = randomDelete(row);
      log("checkAndDelete " + describe(condition) + " then " + describe(d));
      boolean applied = table.checkAndMutate(condition, d);
      boolean modelApplied = model.mutateRow(row, condition, d.cells(), d.isWholeRow() ? d.timestamp() : -1, List.of(),
          now()) != null;
      assertThat(applied).as(context()).isEqualTo(modelApplied);
    }

    /**
     * A condition on the row: mostly a column compared by a random operator (EQUAL most often) with
     * a value that is half the time the current one; sometimes a filter (a value some cell holds, or
     * not); a quarter of them within a time range around the timestamps in use.
     */
    private Condition randomCondition(byte[] row) {
      Condition c;
      if (random.nextInt(8) == 0) {
        List<List<Cell>> current = model.read(ScanQuery.builder().singleRow(row).build(), now());
        byte[] value = randomValue();
        if (!current.isEmpty() && random.nextBoolean()) {
          List<Cell> cells = current.get(0);
          value = cells.get(random.nextInt(cells.size())).value();
        }
        c = Condition.ifRowPasses(new ValueFilter(CompareOperator.EQUAL, ByteComparator.binary(value)));
      } else {
        byte[] family = pickFamily();
        byte[] qualifier = pick(QUALIFIERS);
        CompareOperator[] ops = CompareOperator.values();
        CompareOperator op = random.nextInt(3) == 0 ? CompareOperator.EQUAL : ops[random.nextInt(ops.length)];
        c = Condition.column(family, qualifier, op, expectedValue(row, family, qualifier));
      }
      if (random.nextInt(4) == 0) {
        long min = random.nextBoolean() ? 0 : START_MILLIS + 500L * random.nextInt(8);
        long max = (min == 0 ? START_MILLIS : min) + 500L * (1 + random.nextInt(6));
        c = c.timeRange(min, max);
      }
      return c;
    }

    /** The value a check compares with: half the time the current one (a match), else absent or some other. */
    private byte[] expectedValue(byte[] row, byte[] family, byte[] qualifier) {
      int p = random.nextInt(4);
      if (p < 2) {
        Cell current = model.latest(row, family, qualifier, now());
        return current == null ? null : current.value();
      }
      return p == 2 ? null : randomValue();
    }

    private Put randomPut(byte[] row) {
      Put put = random.nextInt(4) == 0 ? new Put(row, randomTimestamp()) : new Put(row);
      // Distinct columns: two cells of one column with one timestamp in one mutation would share a
      // sequence id, and which one wins is not defined.
      Set<String> columns = new LinkedHashSet<>();
      int n = random.nextInt(3) == 0 ? 2 + random.nextInt(3) : 1;
      for (int i = 0; i < n; i++) {
        byte[] family = pickFamily();
        byte[] qualifier = random.nextInt(4) == 0 ? COUNTER : pick(QUALIFIERS);
        if (!columns.add(str(family) + ":" + str(qualifier))) {
          continue;
        }
        byte[] value = java.util.Arrays.equals(qualifier, COUNTER) && random.nextBoolean() ? Bytes.toBytes((long) random.nextInt(100))
            : randomValue();
        if (random.nextBoolean()) {
          put.addColumn(family, qualifier, value);
        } else {
          put.addColumn(family, qualifier, randomTimestamp(), value);
        }
      }
      return put;
    }

    private Delete randomDelete(byte[] row) {
      int kind = random.nextInt(10);
      if (kind == 0) {
        return random.nextBoolean() ? new Delete(row) : new Delete(row, randomTimestamp());
      }
      Delete d = random.nextInt(4) == 0 ? new Delete(row, randomTimestamp()) : new Delete(row);
      int n = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
      for (int i = 0; i < n; i++) {
        byte[] family = pickFamily();
        byte[] qualifier = pick(QUALIFIERS);
        switch (random.nextInt(6)) {
          case 0 -> d.addFamily(family);
          case 1 -> d.addFamily(family, randomTimestamp());
          case 2 -> d.addColumns(family, qualifier);
          case 3 -> d.addColumns(family, qualifier, randomTimestamp());
          case 4 -> d.addColumn(family, qualifier, randomTimestamp());
          default -> d.addColumn(family, qualifier);
        }
      }
      return d;
    }

    /** A small alphabet so that versions collide: fixed early times, times just before now, now, LATEST. */
    private long randomTimestamp() {
      int p = random.nextInt(10);
      if (p < 4) {
        return START_MILLIS + 500L * random.nextInt(8);
      }
      if (p < 8) {
        return Math.max(0, now() - 500L * random.nextInt(4));
      }
      return p == 8 ? now() : Mutation.LATEST_TIMESTAMP;
    }

    private byte[] randomValue() {
      int p = random.nextInt(10);
      int len = p == 0 ? 0 : p == 1 ? 8 : p < 5 ? 1 + random.nextInt(40) : p < 8 ? 100 + random.nextInt(300)
          : 1000 + random.nextInt(2000);
      byte[] v = new byte[len];
      random.nextBytes(v);
      return v;
    }

    private byte[] pickFamily() {
      return descriptor.families().get(random.nextInt(descriptor.families().size())).nameBytes();
    }

    private byte[] pick(byte[][] from) {
      return from[random.nextInt(from.length)];
    }

    // -------------------------------------------------------------------- reads

    private void randomRead() {
      reads++;
      ScanQuery.Builder q = ScanQuery.builder();
      if (random.nextInt(5) < 2) {
        byte[] row = pick(ROWS);
        q.singleRow(row);
        Get get = new Get(row);
        String shown = "get " + str(row) + shape(get, q);
        Result got = table.get(get);
        compare(shown, List.of(got), model.read(q.build(), now()), true);
        // The point-read path (KV cache, one block per file) must answer as a one-row scan does.
        List<Result> scanned = new ArrayList<>();
        try (ResultScanner s = table.getScanner(oneRowScan(get))) {
          for (Result r : s) {
            scanned.add(r);
          }
        }
        compare(shown + " as a one-row scan", scanned, model.read(q.build(), now()), false);
      } else {
        Scan scan = new Scan();
        StringBuilder shown = new StringBuilder("scan");
        if (random.nextInt(3) > 0) {
          byte[] start = pick(ROWS);
          boolean inclusive = random.nextInt(4) > 0;
          scan.withStartRow(start, inclusive);
          q.startRow(start, inclusive);
          shown.append(inclusive ? " [" : " (").append(str(start));
        }
        if (random.nextInt(3) > 0) {
          byte[] stop = pick(ROWS);
          boolean inclusive = random.nextInt(4) == 0;
          scan.withStopRow(stop, inclusive);
          q.stopRow(stop, inclusive);
          shown.append(" .. ").append(str(stop)).append(inclusive ? "]" : ")");
        }
        if (random.nextInt(4) == 0) {
          int limit = 1 + random.nextInt(5);
          scan.setLimit(limit);
          q.limit(limit);
          shown.append(" limit ").append(limit);
        }
        shown.append(shape(scan, q));
        List<Result> results = new ArrayList<>();
        try (ResultScanner s = table.getScanner(scan)) {
          Result r;
          while ((r = s.next()) != null) {
            results.add(r);
          }
        }
        compare(shown.toString(), results, model.read(q.build(), now()), false);
      }
    }

    /** A scan of exactly the get's row with the get's columns, time range and versions. */
    private Scan oneRowScan(Get get) {
      Scan scan = new Scan().withStartRow(get.row(), true).withStopRow(get.row(), true);
      get.columns().forEach((family, qualifiers) -> {
        byte[] f = Bytes.of(family);
        if (qualifiers == null || qualifiers.isEmpty()) {
          scan.addFamily(f);
        } else {
          qualifiers.forEach(qualifier -> scan.addColumn(f, qualifier));
        }
      });
      scan.setTimeRange(get.minTimestamp(), get.maxTimestamp());
      scan.readVersions(get.maxVersions());
      return scan;
    }

    /** Adds the same random columns, time range and versions to the API query and the model's query. */
    private String shape(Query<?> api, ScanQuery.Builder q) {
      StringBuilder shown = new StringBuilder();
      if (random.nextInt(3) == 0) {
        for (ColumnFamilyDescriptor f : descriptor.families()) {
          int p = random.nextInt(3);
          if (p == 0) {
            api.addFamily(f.nameBytes());
            q.addFamily(f.nameBytes());
            shown.append(" ").append(f.name()).append(":*");
          } else if (p == 1) {
            for (int i = 1 + random.nextInt(2); i > 0; i--) {
              byte[] qualifier = pick(QUALIFIERS);
              api.addColumn(f.nameBytes(), qualifier);
              q.addColumn(f.nameBytes(), qualifier);
              shown.append(" ").append(f.name()).append(":").append(str(qualifier));
            }
          }
        }
      }
      if (random.nextInt(4) == 0) {
        long a = randomTimestamp();
        long b = randomTimestamp();
        long min = Math.min(a, b);
        long max = Math.max(a, b);
        if (random.nextBoolean() && max != Long.MAX_VALUE) {
          api.setTimestamp(max);
          q.timeRange(max, max + 1);
          shown.append(" ts=").append(max);
        } else {
          api.setTimeRange(min, max);
          q.timeRange(min, max);
          shown.append(" time [").append(min).append(", ").append(max).append(")");
        }
      }
      int p = random.nextInt(4);
      if (p > 0) {
        int versions = p == 3 ? Integer.MAX_VALUE : 1 + random.nextInt(3);
        api.readVersions(versions);
        q.maxVersions(versions);
        shown.append(" versions ").append(versions == Integer.MAX_VALUE ? "all" : versions);
      }
      return shown.toString();
    }

    /** Each replica's cells (all versions), read on that replica at its own time, against the model at that time. */
    private void replicaCheck() {
      ScanQuery all = ScanQuery.builder().maxVersions(Integer.MAX_VALUE).build();
      for (EngineUnderTest.ReplicaCells replica : engine.replicas(TABLE)) {
        List<Result> rows = new ArrayList<>();
        for (List<Cell> cells : replica.rows()) {
          rows.add(new Result(cells.isEmpty() ? null : cells.get(0).row(), cells));
        }
        compare("replica " + replica.name() + " at " + replica.now() + ", full scan", rows,
            model.read(all, replica.now()), false);
      }
    }

    private void fullScanCheck(String what) {
      ScanQuery.Builder q = ScanQuery.builder().maxVersions(Integer.MAX_VALUE);
      List<Result> results = new ArrayList<>();
      try (ResultScanner s = table.getScanner(new Scan().readAllVersions())) {
        for (Result r : s) {
          results.add(r);
        }
      }
      compare(what + " full scan", results, model.read(q.build(), now()), false);
    }

    private void compare(String read, List<Result> actual, List<List<Cell>> expected, boolean get) {
      log(read);
      List<String> actualRows = new ArrayList<>();
      for (Result r : actual) {
        if (get && r.isEmpty()) {
          continue; // a get of an absent row returns one empty result
        }
        assertThat(r.isEmpty()).as(context() + "a scan returned an empty row").isFalse();
        actualRows.add(showRow(r.cells()));
      }
      List<String> expectedRows = new ArrayList<>();
      for (List<Cell> row : expected) {
        expectedRows.add(showRow(row));
      }
      if (!actualRows.equals(expectedRows)) {
        StringBuilder raw = new StringBuilder();
        for (byte[] row : ROWS) {
          String prefix = str(row) + "/";
          boolean differs = actualRows.stream().filter(r -> r.startsWith(prefix)).toList()
              .equals(expectedRows.stream().filter(r -> r.startsWith(prefix)).toList());
          if (!differs) {
            raw.append("\nall model cells of row ").append(str(row)).append(":");
            for (Cell c : model.rawCells(row)) {
              raw.append("\n    ").append(c).append(c.isDelete() ? "" : " = " + show(c.value()));
            }
          }
        }
        fail(context() + "read: " + read + "\nengine:\n  " + String.join("\n  ", actualRows)
            + "\nmodel:\n  " + String.join("\n  ", expectedRows) + raw);
      }
    }
  }

  // ====================================================================== option sets

  /**
   * One engine configuration. The table always has three families of different settings: "a"
   * (VERSIONS 3), "b" (VERSIONS 1) and "c" (VERSIONS 2, MIN_VERSIONS 1, TTL 3 s); each family gets a
   * different compression and Bloom type, rotated from the set's, so every set mixes them.
   */
  public record OptionSet(String name, MemStorePolicy policy, int blockSize, Compression compression, BloomType bloom,
      Map<Knob<?>, Object> familyKnobs, Map<Knob<?>, Object> engineKnobs, List<byte[]> splitKeys,
      long maxFileSize) {
    OptionSet(String name, MemStorePolicy policy, int blockSize, Compression compression, BloomType bloom) {
      this(name, policy, blockSize, compression, bloom, Map.of(), Map.of(), List.of(), Knobs.MAX_FILESIZE.defaultValue());
    }

    <T> OptionSet withFamilyKnob(Knob<T> knob, T value) {
      Map<Knob<?>, Object> m = new LinkedHashMap<>(familyKnobs);
      m.put(knob, value);
      return new OptionSet(name, policy, blockSize, compression, bloom, Map.copyOf(m), engineKnobs, splitKeys,
          maxFileSize);
    }

    <T> OptionSet withEngineKnob(Knob<T> knob, T value) {
      Map<Knob<?>, Object> m = new LinkedHashMap<>(engineKnobs);
      m.put(knob, value);
      return new OptionSet(name, policy, blockSize, compression, bloom, familyKnobs, Map.copyOf(m), splitKeys,
          maxFileSize);
    }

    /** The table pre-split at these rows (several regions: routing, batches and scans across them). */
    OptionSet withSplits(String... keys) {
      return new OptionSet(name, policy, blockSize, compression, bloom, familyKnobs, engineKnobs,
          List.of(bytes(keys)), maxFileSize);
    }

    /** Regions split by themselves in the background once a store's files reach this size. */
    OptionSet withMaxFileSize(long bytes) {
      return new OptionSet(name, policy, blockSize, compression, bloom, familyKnobs, engineKnobs, splitKeys, bytes);
    }

    TableDescriptor table() {
      return table(true);
    }

    /** Without TTL: family "c" keeps its cells until deleted. */
    TableDescriptor table(boolean ttl) {
      ColumnFamilyDescriptor.Builder c = family("c", 2).maxVersions(2);
      if (ttl) {
        c.minVersions(1).ttlSeconds(3);
      }
      return TableDescriptor.builder(TABLE)
          .flushSize(64 * 1024) // the smallest allowed: background flushes happen during the run
          .set(Knobs.MAX_FILESIZE, maxFileSize)
          .family(family("a", 0).maxVersions(3).build())
          .family(family("b", 1).maxVersions(1).build())
          .family(c.build())
          .build();
    }

    private ColumnFamilyDescriptor.Builder family(String familyName, int index) {
      Compression[] cs = Compression.values();
      BloomType[] bs = BloomType.values();
      ColumnFamilyDescriptor.Builder b = ColumnFamilyDescriptor.builder(familyName)
          .memStorePolicy(policy)
          .blockSize(blockSize)
          .compression(cs[(compression.ordinal() + index) % cs.length])
          .bloomType(bs[(bloom.ordinal() + index) % bs.length]);
      familyKnobs.forEach((k, v) -> setUnchecked(b, k, v));
      return b;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void setUnchecked(io.bellows.config.Settings.Builder<?> b, Knob<?> knob, Object value) {
    b.set((Knob) knob, value);
  }

  // ====================================================================== printing

  private static String describe(Mutation m) {
    StringBuilder sb = new StringBuilder(str(m.row())).append("{");
    if (m instanceof Delete d && d.isWholeRow()) {
      sb.append("whole row @").append(ts(d.timestamp()));
    }
    for (Cell c : m.cells()) {
      sb.append(" ").append(str(c.family())).append(":").append(str(c.qualifier())).append("@")
          .append(ts(c.timestamp())).append(" ").append(c.type());
      if (!c.isDelete()) {
        sb.append("=").append(show(c.value()));
      }
    }
    return sb.append(" }").toString();
  }

  private static String describe(Condition c) {
    String range = c.isAllTime() ? "" : " in [" + c.minTimestamp() + ", " + c.maxTimestamp() + ")";
    if (c.isFilter()) {
      return "row has value " + show(((ValueFilter) c.filter()).comparator().operand()) + range;
    }
    return str(c.family()) + ":" + str(c.qualifier()) + " " + c.operator() + " " + show(c.expected()) + range;
  }

  private static String showRow(List<Cell> cells) {
    StringBuilder sb = new StringBuilder();
    for (Cell c : cells) {
      sb.append(str(c.row())).append("/").append(str(c.family())).append(":").append(str(c.qualifier()))
          .append("/").append(c.timestamp()).append("/").append(c.type()).append("=").append(show(c.value()))
          .append("  ");
    }
    return sb.toString();
  }

  private static String ts(long ts) {
    return ts == Mutation.LATEST_TIMESTAMP ? "LATEST" : Long.toString(ts);
  }

  private static String show(byte[] value) {
    if (value == null) {
      return "<absent>";
    }
    if (value.length == 8) {
      return "long:" + Bytes.getLong(value, 0);
    }
    // Length and a short hash keep long values readable in failure transcripts.
    return value.length + "b#" + Integer.toHexString(java.util.Arrays.hashCode(value));
  }

  private static String str(byte[] b) {
    return Bytes.toStringBinary(b);
  }

  private static byte[][] bytes(String... s) {
    byte[][] out = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      out[i] = Bytes.of(s[i]);
    }
    return out;
  }
}
