package io.bellows.bench;

import io.bellows.client.Put;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * The client threads of the end-to-end benchmarks, the same for Bellows ({@link EngineRun}) and
 * its peer ({@link RocksDbRun}): writers that put their rows in batches and time each call, and
 * readers that read sampled rows back. Each store supplies only how a batch is written and how a
 * row is read. A client is confined to its thread while running; the driver reads its figures
 * after {@link #runAll} returns (happens-before through the futures).
 */
final class BenchClients {
  /**
   * Rows written by all writers of this JVM so far, read by progress reporters. Process-wide because
   * runs never overlap (their GC counters are JVM-wide anyway); a LongAdder so that writers do not
   * contend on it.
   */
  static final LongAdder ROWS_WRITTEN = new LongAdder();

  /** Rows the run writes in all, set by {@link #expect}; 0: no halfway time is taken. */
  private static volatile long expectedRows;
  /** {@code System.nanoTime()} when the rows written first reached half, and all, of the expected; 0 until then. */
  private static final AtomicLong HALF_NANOS = new AtomicLong();
  private static final AtomicLong ALL_NANOS = new AtomicLong();

  private BenchClients() {}

  /** Starts timing the second half of a run of {@code rows} rows (see {@link #secondHalfNanos}). */
  static void expect(long rows) {
    HALF_NANOS.set(0);
    ALL_NANOS.set(0);
    expectedRows = rows;
  }

  /**
   * Time from the moment the writers had written half the expected rows to the moment they had
   * written them all, or {@link PaperResult#NA} if the run did not get there: the rate past the
   * warm-up, for every store alike.
   */
  static long secondHalfNanos() {
    long half = HALF_NANOS.get();
    long all = ALL_NANOS.get();
    return half == 0 || all == 0 ? PaperResult.NA : all - half;
  }

  private static void rowsWritten(int n) {
    ROWS_WRITTEN.add(n);
    long expected = expectedRows;
    if (expected > 0 && ALL_NANOS.get() == 0) { // one sum per batch call, only while timing
      long written = ROWS_WRITTEN.sum();
      long now = System.nanoTime();
      if (2 * written >= expected) {
        HALF_NANOS.compareAndSet(0, now);
      }
      if (written >= expected) {
        ALL_NANOS.compareAndSet(0, now);
      }
    }
  }

  /** Runs the tasks on the pool and waits for all; the first failure is rethrown. */
  static void runAll(ExecutorService pool, List<? extends Callable<Void>> tasks) {
    try {
      for (Future<Void> f : pool.invokeAll(tasks)) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a benchmark client failed", e.getCause());
    }
  }

  /**
   * One writer thread: puts its rows and records each write call's latency (building the puts is
   * not timed); with a batch of N, N rows go in one call (the last call of a writer may carry
   * fewer). Keeps every k-th row id so that the readers read rows known to exist.
   */
  abstract static class RowWriter implements Callable<Void> {
    final KeyChooser keys;
    final PaperPuts puts;
    final long rows;
    final int batch;
    final long[] sampled;
    final long stride;
    int sampledCount;
    final Histogram latency = new Histogram(3);

    RowWriter(KeyChooser keys, PaperPuts puts, long rows, int sampleSize, int batch) {
      this.keys = keys;
      this.puts = puts;
      this.rows = rows;
      this.batch = batch;
      this.sampled = new long[sampleSize];
      this.stride = Math.max(1, rows / sampleSize);
    }

    /** Writes one call's rows (one row when the batch is 1). */
    abstract void write(List<Put> rows) throws Exception;

    /** Runs before each call, untimed: a paced writer waits here for its turn. */
    void beforeWrite(int rows) {}

    @Override
    public Void call() throws Exception {
      List<Put> pending = new ArrayList<>(batch);
      for (long i = 0; i < rows; i++) {
        long id = keys.nextRowId();
        pending.add(puts.put(id));
        if (i % stride == 0 && sampledCount < sampled.length) {
          sampled[sampledCount++] = id;
        }
        if (pending.size() == batch || i == rows - 1) {
          beforeWrite(pending.size());
          long t0 = System.nanoTime();
          write(pending);
          latency.recordValue(System.nanoTime() - t0);
          rowsWritten(pending.size());
          pending = new ArrayList<>(batch);
        }
      }
      return null;
    }

    long[] sampledIds() {
      return java.util.Arrays.copyOf(sampled, sampledCount);
    }
  }

  /** One reader thread: whole-row reads of sampled row ids; a row without all its cells is a miss. */
  abstract static class RowReader implements Callable<Void> {
    final PaperPuts keys;
    final long[] ids;
    final long gets;
    final SplittableRandom random;
    final Histogram latency = new Histogram(3);
    long misses;

    RowReader(PaperPuts keys, long[] ids, long gets, SplittableRandom random) {
      this.keys = keys;
      this.ids = ids;
      this.gets = gets;
      this.random = random;
    }

    /** Reads the whole row and returns how many cells it has. */
    abstract int cellsOf(byte[] row) throws Exception;

    @Override
    public Void call() throws Exception {
      if (ids.length == 0) {
        return null;
      }
      for (long i = 0; i < gets; i++) {
        byte[] row = keys.rowKey(ids[random.nextInt(ids.length)]);
        long t0 = System.nanoTime();
        int cells = cellsOf(row);
        latency.recordValue(System.nanoTime() - t0);
        if (cells != keys.shape().fields()) {
          misses++;
        }
      }
      return null;
    }
  }
}
