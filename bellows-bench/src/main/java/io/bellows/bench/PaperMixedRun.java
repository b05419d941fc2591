package io.bellows.bench;

import io.bellows.client.Put;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * The paper's read-write (§4.2.2) and scan-write (§4.2.3) workloads on one store ({@link
 * PaperStore}, Bellows or RocksDB), in one JVM:
 *
 * <ol>
 *   <li><b>load</b> (not reported): the workload's rows from its writers, in batches, so that most
 *       hot rows have versions on disk; meanwhile one more thread runs the measured phase's reads
 *       (gets or scans, seed + 3000), thrown away, so that the measured reads run on a read path
 *       the JIT has compiled, as a server's would (RocksDB's is native code, warm from the start);
 *   <li><b>measured phase</b>: read-write — {@code writers − readers} threads put a fifth of the
 *       load's rows again while {@code readers} threads get one cell of a row chosen by the same
 *       key distribution, until the writers are done (with {@code writeRate} above 0, the writers
 *       hold that many rows per second between them, so that stores whose writers run at different
 *       speeds can be compared serving their readers beside the same write load); scan-write —
 *       every thread runs {@code ops} / threads operations, each a put of one row (5%) or a scan of 1–100 rows (uniform) from a
 *       chosen row (95%, YCSB's workload E);
 *   <li>a final flush, then the counters; close and delete.
 * </ol>
 *
 * The latency histogram is of the gets or scans of the measured phase (and, for read-write, one of
 * the writers' calls, each timed without its pacing wait); its duration, rows written,
 * GC and counters are deltas over it, except flushes, compactions and their bytes, which also
 * cover the final flush. Seeds: writer i uses seed + i, reader i seed + 1000 + i, so every
 * configuration sees the same operations. Stateless.
 */
final class PaperMixedRun {
  /** Fraction of operations that are puts in scan-write (YCSB's workload E). */
  static final double SCAN_WRITE_PUTS = 0.05;
  static final int MAX_SCAN_ROWS = 100;

  private PaperMixedRun() {}

  static PaperResult run(PaperConfig config, PaperKeys keys, IndexKind layout, PaperWorkload kind, EngineWorkload w,
      long flushSize, int readers, long ops, long writeRate) {
    Path dir;
    try {
      Files.createDirectories(w.baseDir());
      dir = Files.createTempDirectory(w.baseDir(), "paper-mixed-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int threads = w.writers();
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1, r -> {
      Thread t = new Thread(r, "paper-client");
      t.setDaemon(true);
      return t;
    });
    try (PaperStore store = config.isRocksDb()
        ? new RocksDbPaperStore(dir, config.peer(), flushSize, config.peerCompression())
        : new BellowsPaperStore(dir, config.storeConfig(layout, flushSize), w)) {
      load(pool, store, w, kind, threads);

      PaperStore.Counters before = store.counters();
      JvmCounters.Sample gcBefore = JvmCounters.sample();
      long start = System.nanoTime();
      List<Histogram> latencies = new ArrayList<>();
      Histogram writeLatency = new Histogram(3);
      LongAdder readCpu = new LongAdder();
      long[] rowsAndMisses;
      if (kind == PaperWorkload.READ_WRITE) {
        rowsAndMisses = readWrite(pool, store, w, Math.max(1, Math.min(readers, threads - 1)), writeRate, latencies,
            writeLatency, readCpu);
      } else {
        rowsAndMisses = scanWrite(pool, store, w, threads, ops, latencies);
      }
      long nanos = System.nanoTime() - start;
      JvmCounters.Sample gc = JvmCounters.sample().minus(gcBefore);
      PaperStore.Counters during = store.counters().minus(before);
      store.flush();
      PaperStore.Counters all = store.counters().minus(before);
      Histogram h = new Histogram(3);
      latencies.forEach(h::add);
      long rows = Math.max(1, rowsAndMisses[0]);
      return new PaperResult(config.spec(), keys.label, config.isRocksDb() ? "rocksdb" : "bellows", rows, nanos,
          all.flushes(), all.compactions(), all.flushBytes(), all.compactionBytes(), during.walBytes(),
          rows * w.shape().rowBytes(), gc.gcCount(), gc.gcMillis(),
          PaperResult.NA, PaperResult.NA, during.stallNanos() / 1_000_000, all.files(), kind.label,
          h.getTotalCount(), rowsAndMisses[1], h.getValueAtPercentile(50), h.getValueAtPercentile(75),
          h.getValueAtPercentile(90), h.getValueAtPercentile(95), h.getValueAtPercentile(99), PaperResult.NA,
          PaperResult.NA, PaperResult.NA, PaperResult.NA, PaperResult.NA,
          kind == PaperWorkload.READ_WRITE ? readCpu.sum() : PaperResult.NA, // scan-write's threads also put
          PaperResult.NA, PaperResult.NA, PaperResult.NA, PaperResult.NA).withWriteLatency(writeLatency);
    } catch (Exception e) {
      throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
    } finally {
      pool.shutdownNow();
      EngineRun.deleteRecursively(dir);
    }
  }

  /**
   * The writers as tasks, the last of them to end (normally or not) setting {@code done}, which
   * the readers check between reads (no sleeps); the list is mutable so that readers can be added.
   */
  private static List<Callable<Void>> settingWhenAllDone(List<BenchClients.RowWriter> writers, AtomicBoolean done) {
    AtomicInteger running = new AtomicInteger(writers.size());
    List<Callable<Void>> tasks = new ArrayList<>();
    for (BenchClients.RowWriter wr : writers) {
      tasks.add(() -> {
        try {
          return wr.call();
        } finally {
          if (running.decrementAndGet() == 0) {
            done.set(true);
          }
        }
      });
    }
    return tasks;
  }

  /** The load: {@code threads} writers, and one reader warming the read path until they are done. */
  private static void load(ExecutorService pool, PaperStore store, EngineWorkload w, PaperWorkload kind,
      int threads) {
    AtomicBoolean loaded = new AtomicBoolean();
    List<Callable<Void>> tasks = settingWhenAllDone(writers(store, w, w.rows(), threads, 0, 0), loaded);
    KeyChooser chooser = w.keys().chooser(w.keySpace(), w.seed() + 3000);
    PaperPuts names = w.puts(0);
    SplittableRandom random = new SplittableRandom(w.seed() + 4000);
    tasks.add(() -> {
      while (!loaded.get()) {
        byte[] row = names.rowKey(chooser.nextRowId());
        if (kind == PaperWorkload.READ_WRITE) {
          store.getCell(row, w.shape().qualifier(random.nextInt(w.shape().fields())));
        } else {
          store.scan(row, 1 + random.nextInt(MAX_SCAN_ROWS));
        }
      }
      return null;
    });
    BenchClients.runAll(pool, tasks);
  }

  /** The writers of {@code rows} in all; with {@code rate} above 0, that many rows per second between them. */
  private static List<BenchClients.RowWriter> writers(PaperStore store, EngineWorkload w, long rows, int threads,
      long seedOffset, long rate) {
    List<BenchClients.RowWriter> out = new ArrayList<>();
    long per = rows / threads;
    for (int i = 0; i < threads; i++) {
      long n = i == 0 ? rows - per * (threads - 1) : per;
      long seed = w.seed() + seedOffset + i;
      Pace pace = new Pace((double) rate / threads);
      out.add(new BenchClients.RowWriter(w.keys().chooser(w.keySpace(), seed), w.puts(seed), n, 1, w.batch()) {
        @Override
        void beforeWrite(int rows) {
          pace.await(rows);
        }

        @Override
        void write(List<Put> rows) throws Exception {
          store.write(rows);
        }
      });
    }
    return out;
  }

  /** Returns {rows written, gets that found nothing}. */
  /** Gets each reader makes even if the writers are done before it starts. */
  static final long MIN_READS = 100;

  private static long[] readWrite(ExecutorService pool, PaperStore store, EngineWorkload w, int readers,
      long writeRate, List<Histogram> latencies, Histogram writeLatency, LongAdder readCpu) {
    int writerCount = w.writers() - readers;
    long rows = Math.max(writerCount, w.rows() / 5);
    List<BenchClients.RowWriter> writers = writers(store, w, rows, Math.max(1, writerCount), 100, writeRate);
    AtomicBoolean done = new AtomicBoolean();
    List<Callable<Void>> tasks = settingWhenAllDone(writers, done);
    long[] misses = new long[readers];
    for (int i = 0; i < readers; i++) {
      int reader = i;
      KeyChooser chooser = w.keys().chooser(w.keySpace(), w.seed() + 1000 + i);
      PaperPuts names = w.puts(0);
      SplittableRandom random = new SplittableRandom(w.seed() + 2000 + i);
      Histogram h = new Histogram(3);
      latencies.add(h);
      tasks.add(() -> {
        // At least MIN_READS gets, so a tiny run whose writers finish at once still measures reads.
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        for (long n = 0; !done.get() || n < MIN_READS; n++) {
          byte[] row = names.rowKey(chooser.nextRowId());
          byte[] q = w.shape().qualifier(random.nextInt(w.shape().fields()));
          long t0 = System.nanoTime();
          boolean found = store.getCell(row, q);
          h.recordValue(System.nanoTime() - t0);
          if (!found) {
            misses[reader]++;
          }
        }
        readCpu.add(threads.getCurrentThreadCpuTime() - cpu0);
        return null;
      });
    }
    BenchClients.runAll(pool, tasks);
    writers.forEach(wr -> writeLatency.add(wr.latency));
    return new long[] {rows, java.util.Arrays.stream(misses).sum()};
  }

  /** Returns {rows written, scans that found no row}. */
  private static long[] scanWrite(ExecutorService pool, PaperStore store, EngineWorkload w, int threads, long ops,
      List<Histogram> latencies) {
    long[] puts = new long[threads];
    long[] empty = new long[threads];
    List<Callable<Void>> tasks = new ArrayList<>();
    long per = Math.max(1, ops / threads);
    for (int i = 0; i < threads; i++) {
      int t = i;
      KeyChooser chooser = w.keys().chooser(w.keySpace(), w.seed() + 1000 + i);
      PaperPuts rows = w.puts(w.seed() + 100 + i);
      SplittableRandom random = new SplittableRandom(w.seed() + 2000 + i);
      Histogram h = new Histogram(3);
      latencies.add(h);
      tasks.add(() -> {
        for (long op = 0; op < per; op++) {
          long id = chooser.nextRowId();
          if (random.nextDouble() < SCAN_WRITE_PUTS) {
            store.write(List.of(rows.put(id)));
            puts[t]++;
            BenchClients.ROWS_WRITTEN.add(1);
          } else {
            int n = 1 + random.nextInt(MAX_SCAN_ROWS);
            long t0 = System.nanoTime();
            int got = store.scan(rows.rowKey(id), n);
            h.recordValue(System.nanoTime() - t0);
            if (got == 0) {
              empty[t]++;
            }
          }
        }
        return null;
      });
    }
    BenchClients.runAll(pool, tasks);
    return new long[] {java.util.Arrays.stream(puts).sum(), java.util.Arrays.stream(empty).sum()};
  }

  /**
   * One writer's pacing: before each call, waits until the rows written so far are due at {@code
   * rowsPerSecond} from the first call. A writer behind its schedule writes at once until it is back on
   * it; the report shows the rate the writers reached. 0: no pacing.
   */
  static final class Pace {
    private final double nanosPerRow;
    private long start = -1;
    private long rows;

    Pace(double rowsPerSecond) {
      this.nanosPerRow = rowsPerSecond > 0 ? 1e9 / rowsPerSecond : 0;
    }

    void await(int rowsNow) {
      if (nanosPerRow == 0) {
        return;
      }
      long now = System.nanoTime();
      if (start < 0) {
        start = now;
      }
      long due = start + (long) (rows * nanosPerRow);
      while (now < due) {
        java.util.concurrent.locks.LockSupport.parkNanos(due - now); // pacing a load, not synchronization
        now = System.nanoTime();
      }
      rows += rowsNow;
    }
  }
}
