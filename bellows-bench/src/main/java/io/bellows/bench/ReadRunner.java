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

  /** The prefix of a per-window figure's name: {@code window.<k>.<figure>}, k from 1. */
  static final String WINDOW_PREFIX = "window.";

  /** The name of figure {@code name} of window {@code k} (from 1). */
  static String windowFigure(int k, String name) {
    return WINDOW_PREFIX + k + "." + name;
  }

  /** Runs the workload's warm-up and measured phase; returns the measured figures. */
  static Map<String, Double> run(ReadStore store, ReadRows data, ReadWorkload workload, long rows, long seed,
      int threads, long warmupOps, long ops, Progress progress) throws Exception {
    return run(store, data, workload, rows, seed, threads, warmupOps, ops, 0, progress);
  }

  /**
   * As {@link #run(ReadStore, ReadRows, ReadWorkload, long, long, int, long, long, Progress)}; if
   * {@code window} is positive, the measured phase also reports its read amplification, hit ratio
   * and throughput per window of {@code window} operations (the paper's Figure 9 plots read
   * amplification over time): the clients meet at a barrier after each window, where the store's
   * figures are read.
   */
  static Map<String, Double> run(ReadStore store, ReadRows data, ReadWorkload workload, long rows, long seed,
      int threads, long warmupOps, long ops, long window, Progress progress) throws Exception {
    Client[] clients = new Client[threads];
    Windows windows = window > 0 ? new Windows(store, clients, window, ops) : null;
    // Read when every client has arrived and before any is released: the measured phase's figures
    // (and its first window's) start from exactly here.
    AtomicReference<Map<String, Double>> before = new AtomicReference<>();
    long[] start = new long[1];
    CyclicBarrier measuredStart = new CyclicBarrier(threads + 1, () -> {
      before.set(store.figures());
      progress.start("measured", ops);
      start[0] = System.nanoTime();
      if (windows != null) {
        windows.start(before.get(), start[0]);
      }
    });
    CyclicBarrier measuredEnd = new CyclicBarrier(threads + 1);
    CyclicBarrier windowEnd = windows == null ? null : new CyclicBarrier(threads, windows::close);
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
          if (windows == null) {
            c.phase(c.ops, c.measured, c.latency);
          } else {
            for (int k = 0; k < windows.count; k++) {
              c.phase(share(windows.ops(k), threads, c.index), c.measured, c.latency);
              windowEnd.await();
            }
          }
          measuredEnd.await();
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          measuredStart.reset();
          measuredEnd.reset();
          if (windowEnd != null) {
            windowEnd.reset();
          }
        }
      }, "read-client-" + i);
      workers.add(t);
      t.start();
    }
    try {
      measuredStart.await();
      measuredEnd.await();
      long nanos = System.nanoTime() - start[0];
      Map<String, Double> after = store.figures();
      for (Thread t : workers) {
        t.join();
      }
      Map<String, Double> f = figures(clients, before.get(), after, nanos);
      if (windows != null) {
        f.putAll(windows.figures);
      }
      return f;
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

  /**
   * The measured phase cut into windows of operations: at the end of each (on the last client to
   * reach the barrier, while the others wait) the store's figures and the clients' returned bytes
   * are read and the window's figures computed from the differences.
   */
  private static final class Windows {
    final ReadStore store;
    final Client[] clients;
    final long window;
    final long ops;
    final int count;
    final Map<String, Double> figures = new HashMap<>();
    private Map<String, Double> last;
    private long lastNanos;
    private long lastReturnedBytes;
    private long lastReturnedPages;
    private int closed;

    Windows(ReadStore store, Client[] clients, long window, long ops) {
      this.store = store;
      this.clients = clients;
      this.window = window;
      this.ops = ops;
      this.count = (int) Math.min(Integer.MAX_VALUE, (ops + window - 1) / window);
    }

    /** Operations of window {@code k} (from 0): the last one takes what is left. */
    long ops(int k) {
      return Math.min(window, ops - k * window);
    }

    void start(Map<String, Double> before, long nanos) {
      last = before;
      lastNanos = nanos;
    }

    /** Called once per window by the barrier: the window's figures from the differences. */
    void close() {
      long now = System.nanoTime();
      Map<String, Double> after = store.figures();
      long returnedBytes = 0;
      long returnedPages = 0;
      for (Client c : clients) {
        returnedBytes += c.returnedBytes;
        returnedPages += c.returnedPages;
      }
      Map<String, Double> d = new HashMap<>();
      after.forEach((k, v) -> d.put(k, v - last.getOrDefault(k, 0.0)));
      double pagesRead = d.containsKey(ReadResult.FILE_PAGES_READ) ? d.get(ReadResult.FILE_PAGES_READ)
          : d.getOrDefault(ReadResult.BLOCKS_READ, 0.0) + Math.max(0, d.getOrDefault(ReadResult.FILE_BYTES_READ, 0.0)
              - d.getOrDefault(ReadResult.BLOCKS_READ, 0.0)) / PAGE;
      int k = ++closed;
      figures.put(windowFigure(k, ReadResult.OPS), (double) ops(k - 1));
      figures.put(windowFigure(k, ReadResult.SECONDS), (now - lastNanos) / 1e9);
      figures.put(windowFigure(k, ReadResult.READ_AMP_PAGES), ratio(pagesRead, (double) (returnedPages - lastReturnedPages)));
      figures.put(windowFigure(k, ReadResult.READ_AMP_BYTES),
          ratio(d.get(ReadResult.FILE_BYTES_READ), (double) (returnedBytes - lastReturnedBytes)));
      figures.put(windowFigure(k, ReadResult.HIT_RATIO), ratio(d.get(ReadResult.CACHED_LOOKUPS), d.get(ReadResult.LOOKUPS)));
      last = after;
      lastNanos = now;
      lastReturnedBytes = returnedBytes;
      lastReturnedPages = returnedPages;
    }
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
    final int index;
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
      this.index = index;
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
