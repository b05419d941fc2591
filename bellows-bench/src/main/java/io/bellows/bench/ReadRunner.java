package io.bellows.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * Loads a {@link ReadStore} and drives one workload against it: client threads run an unreported
 * warm-up, meet at a barrier, then the measured phase; the store's figures are read on either side
 * of the measured phase and reported as deltas (levels such as the KV cache's size as they are at
 * its end). Get latency goes into one HdrHistogram per thread. Every get checks that its row is
 * there with its size; a get that does not find it counts as a miss. Single use per call; the
 * progress fields are read by a reporting thread.
 */
final class ReadRunner {
  static final int LOAD_BATCH = 1000;
  static final int PAGE = 4096;

  /** What is going on now, for progress lines. */
  static final class Progress {
    volatile String phase = "starting";
    volatile long total;
    final LongAdder done = new LongAdder();

    void start(String phase, long total) {
      done.reset();
      this.total = total;
      this.phase = phase;
    }
  }

  private ReadRunner() {}

  /** Writes rows 0 .. rows-1 in key order, then flushes and major-compacts. */
  static void load(ReadStore store, ReadRows data, long rows, Progress progress) throws Exception {
    progress.start("load", rows);
    List<byte[]> keys = new ArrayList<>(LOAD_BATCH);
    List<byte[]> values = new ArrayList<>(LOAD_BATCH);
    for (long item = 0; item < rows; item++) {
      keys.add(ReadRows.key(item));
      values.add(data.value(item, 0));
      if (keys.size() == LOAD_BATCH || item == rows - 1) {
        store.load(keys, values);
        progress.done.add(keys.size());
        keys.clear();
        values.clear();
      }
    }
    progress.start("compact", 0);
    store.compact();
  }

  /** Runs the workload's warm-up and measured phase; returns the measured figures. */
  static Map<String, Double> run(ReadStore store, ReadRows data, ReadWorkload workload, long rows, long seed,
      int threads, long warmupOps, long ops, Progress progress) throws Exception {
    CyclicBarrier measuredStart = new CyclicBarrier(threads + 1);
    CyclicBarrier measuredEnd = new CyclicBarrier(threads + 1);
    Client[] clients = new Client[threads];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    progress.start("warm-up", warmupOps);
    for (int i = 0; i < threads; i++) {
      Client c = new Client(store, data, workload, rows, seed * 1000 + i, share(warmupOps, threads, i),
          share(ops, threads, i), i, progress);
      clients[i] = c;
      Thread t = new Thread(() -> {
        try {
          c.phase(c.warmupOps, c.warmup, null);
          measuredStart.await();
          c.phase(c.ops, c.measured, c.latency);
          measuredEnd.await();
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          measuredStart.reset();
          measuredEnd.reset();
        }
      }, "read-client-" + i);
      workers.add(t);
      t.start();
    }
    try {
      measuredStart.await();
      Map<String, Double> before = store.figures();
      progress.start("measured", ops);
      long start = System.nanoTime();
      measuredEnd.await();
      long nanos = System.nanoTime() - start;
      Map<String, Double> after = store.figures();
      for (Thread t : workers) {
        t.join();
      }
      return figures(clients, before, after, nanos);
    } catch (java.util.concurrent.BrokenBarrierException e) {
      for (Thread t : workers) {
        t.join();
      }
      Throwable cause = failure.get();
      throw new IllegalStateException("a client failed: " + cause, cause);
    }
  }

  private static long share(long total, int threads, int i) {
    return total / threads + (i < total % threads ? 1 : 0);
  }

  static Map<String, Double> figures(Client[] clients, Map<String, Double> before, Map<String, Double> after,
      long nanos) {
    Histogram latency = new Histogram(3);
    long gets = 0;
    long updates = 0;
    long misses = 0;
    long returnedBytes = 0;
    long returnedPages = 0;
    for (Client c : clients) {
      latency.add(c.latency);
      gets += c.gets;
      updates += c.updates;
      misses += c.misses;
      returnedBytes += c.returnedBytes;
      returnedPages += c.returnedPages;
    }
    Map<String, Double> f = new HashMap<>();
    for (Map.Entry<String, Double> e : after.entrySet()) {
      boolean gauge = ReadStore.GAUGES.contains(e.getKey());
      f.put(e.getKey(), gauge ? e.getValue() : e.getValue() - before.getOrDefault(e.getKey(), 0.0));
    }
    double seconds = nanos / 1e9;
    f.put(ReadResult.OPS, (double) (gets + updates));
    f.put(ReadResult.GETS, (double) gets);
    f.put(ReadResult.UPDATES, (double) updates);
    f.put(ReadResult.MISSES, (double) misses);
    f.put(ReadResult.SECONDS, seconds);
    f.put(ReadResult.OPS_PER_SECOND, (gets + updates) / seconds);
    f.put(ReadResult.GET_AVG_MICROS, latency.getMean() / 1000);
    f.put(ReadResult.GET_P95_MICROS, latency.getValueAtPercentile(95) / 1000.0);
    f.put(ReadResult.GET_P99_MICROS, latency.getValueAtPercentile(99) / 1000.0);
    // What gets returned, counted by the client (key and value) so that both stores have one measure.
    f.put(ReadResult.RETURNED_BYTES, (double) returnedBytes);
    f.put(ReadResult.RETURNED_PAGES, (double) returnedPages);
    if (!f.containsKey(ReadResult.FILE_PAGES_READ)) {
      // A read of b bytes at a random offset spans 1 + (b - 1) / 4096 pages on average.
      double reads = f.getOrDefault(ReadResult.BLOCKS_READ, 0.0);
      double bytes = f.getOrDefault(ReadResult.FILE_BYTES_READ, 0.0);
      f.put(ReadResult.FILE_PAGES_READ, reads + Math.max(0, bytes - reads) / PAGE);
      f.put(ReadResult.FILE_PAGES_ESTIMATED, 1.0);
    }
    f.put(ReadResult.READ_AMP_BYTES, ratio(f.get(ReadResult.FILE_BYTES_READ), f.get(ReadResult.RETURNED_BYTES)));
    f.put(ReadResult.READ_AMP_PAGES, ratio(f.get(ReadResult.FILE_PAGES_READ), f.get(ReadResult.RETURNED_PAGES)));
    f.put(ReadResult.HIT_RATIO, ratio(f.get(ReadResult.CACHED_LOOKUPS), f.get(ReadResult.LOOKUPS)));
    return f;
  }

  private static double ratio(Double a, Double b) {
    return a == null || b == null || b == 0 ? Double.NaN : a / b;
  }

  /** One client thread's operations and counts. */
  private static final class Client {
    final ReadStore store;
    final ReadRows data;
    final ReadWorkload workload;
    final long warmupOps;
    final long ops;
    final LongSupplier warmup;
    final LongSupplier measured;
    final SplittableRandom coin;
    final Histogram latency = new Histogram(3);
    final Progress progress;
    long version;
    long gets;
    long updates;
    long misses;
    long returnedBytes;
    long returnedPages;

    Client(ReadStore store, ReadRows data, ReadWorkload workload, long rows, long seed, long warmupOps, long ops,
        int index, Progress progress) {
      this.store = store;
      this.data = data;
      this.workload = workload;
      this.warmupOps = warmupOps;
      this.ops = ops;
      // The warm-up draws other keys of the same law than the measured phase.
      this.warmup = workload.items(rows, ~seed);
      this.measured = workload.items(rows, seed);
      this.coin = new SplittableRandom(seed ^ 0x5851F42D4C957F2DL);
      this.version = (long) (index + 1) << 40;
      this.progress = progress;
    }

    /** Runs n operations; counts them only if {@code record} is given. */
    void phase(long n, LongSupplier items, Histogram record) throws Exception {
      for (long i = 0; i < n; i++) {
        long item = items.getAsLong();
        byte[] key = ReadRows.key(item);
        if (workload.updateShare > 0 && coin.nextDouble() < workload.updateShare) {
          store.update(key, data.value(item, ++version));
          if (record != null) {
            updates++;
          }
        } else {
          long t0 = System.nanoTime();
          int size = store.get(key);
          long t1 = System.nanoTime();
          if (record != null) {
            record.recordValue(Math.max(0, t1 - t0));
            gets++;
            if (size != RowSizes.of(item)) {
              misses++;
            } else {
              long bytes = key.length + size;
              returnedBytes += bytes;
              returnedPages += (bytes + PAGE - 1) / PAGE;
            }
          }
        }
        if ((i & 255) == 255) {
          progress.done.add(256);
        }
      }
    }
  }
}
