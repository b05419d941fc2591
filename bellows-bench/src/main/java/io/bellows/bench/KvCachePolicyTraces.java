package io.bellows.bench;

import io.bellows.config.KvCachePolicy;
import io.bellows.kvcache.BoundedCache;
import io.bellows.kvcache.BoundedCaches;
import io.bellows.kvcache.LruCache;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongFunction;

/**
 * The KV cache's replacement policies on identical key traces ({@code bellows bench
 * kvcache-policies}): scrambled Zipf θ 0.99, uniform, and CBMG sessions, row sizes from {@link
 * RowSizes}; every policy at the same capacities (shares of the trace's distinct bytes). Each
 * request is a get, and a miss puts the row (the same admission offered to every policy).
 *
 * <p>Hit ratio and byte hit ratio come from one thread replaying the whole trace, so they are
 * deterministic for a seed; the cost per operation from {@code --threads} threads (4) sharing one
 * cache, each replaying a quarter of the trace, best of {@code --rounds} (2) — wall-clock time over all
 * operations, so it is the inverse of throughput. Besides the three policies it runs {@link
 * StampedLruCache}, the lock-free-hit design {@link LruCache} was measured against.
 */
public final class KvCachePolicyTraces {
  static final Set<String> OPTIONS =
      Set.of("scale", "seed", "requests", "key-space", "threads", "rounds", "traces", "capacities");
  /** The value every entry holds: the policies only see keys and sizes. */
  private static final Object VALUE = new Object();

  private KvCachePolicyTraces() {}

  /**
   * A policy under test: its name, how to make one of a capacity, and whether it is only a design
   * measured against (timed in one round, not best of {@code --rounds}: it is far off and slow).
   */
  record Policy(String name, LongFunction<BoundedCache<Long, Object>> make, boolean reference) {}

  /** What one trace × capacity × policy gave. */
  record Result(String trace, double share, long capacity, String policy, double hitRatio, double byteHitRatio,
      long evictions, double nsPerOp) {}

  public static void main(String[] argv) {
    System.exit(run(argv, new PrintWriter(System.out, true)));
  }

  /** Runs the comparison, printing to {@code out}; returns 0, or 2 for bad options. */
  public static int run(String[] argv, PrintWriter out) {
    Args args;
    try {
      args = new Args(argv, OPTIONS);
    } catch (IllegalArgumentException e) {
      out.println("bench kvcache-policies: " + e.getMessage());
      return 2;
    }
    double scale = args.getDouble("scale", 1);
    long seed = args.getLong("seed", 42);
    int requests = (int) args.getLong("requests", Math.round(1_000_000 * scale));
    long keySpace = args.getLong("key-space", Math.max(16, Math.round(500_000 * scale)));
    int threads = (int) args.getLong("threads", 4);
    int rounds = (int) args.getLong("rounds", 2);
    List<String> traceNames = List.of(args.get("traces", "zipf,uniform,cbmg").split(","));
    List<Double> shares = new ArrayList<>();
    for (String s : args.get("capacities", "0.01,0.05,0.2").split(",")) {
      shares.add(Double.parseDouble(s));
    }
    out.printf(Locale.ROOT, "KV cache replacement policies: %,d requests per trace over %,d rows, seed %d,"
        + " timing with %d threads (best of %d)%n", requests, keySpace, seed, threads, rounds);
    out.printf(Locale.ROOT, "replay: --seed %d --requests %d --key-space %d --threads %d --rounds %d --traces %s"
        + " --capacities %s%n%n", seed, requests, keySpace, threads, rounds, String.join(",", traceNames),
        args.get("capacities", "0.01,0.05,0.2"));

    List<Result> results = new ArrayList<>();
    for (String name : traceNames) {
      KvCacheTrace trace = switch (name) {
        case "zipf" -> KvCacheTrace.zipf(requests, keySpace, seed);
        case "uniform" -> KvCacheTrace.uniform(requests, keySpace, seed);
        case "cbmg" -> KvCacheTrace.cbmg(requests, keySpace, seed);
        default -> {
          out.println("bench kvcache-policies: unknown trace " + name + " (zipf, uniform, cbmg)");
          yield null;
        }
      };
      if (trace == null) {
        return 2;
      }
      out.printf(Locale.ROOT, "%s: %,d distinct rows, %,d distinct bytes, %,d bytes requested%n", trace.name,
          trace.distinctKeys, trace.distinctBytes, trace.requestedBytes);
      for (double share : shares) {
        long capacity = Math.max(1, Math.round(trace.distinctBytes * share));
        for (Policy p : policies()) {
          results.add(measure(trace, share, capacity, p, threads, rounds));
          Result r = results.get(results.size() - 1);
          out.printf(Locale.ROOT, "  %s %s: hit %.2f%%, byte hit %.2f%%, %.0f ns/op%n", pct(share), p.name(),
              100 * r.hitRatio(), 100 * r.byteHitRatio(), r.nsPerOp());
        }
      }
    }
    out.println();
    out.print(table(results, threads));
    out.flush();
    return 0;
  }

  static List<Policy> policies() {
    List<Policy> policies = new ArrayList<>();
    for (KvCachePolicy p : KvCachePolicy.values()) {
      policies.add(new Policy(p.name(), c -> BoundedCaches.create(p, c, 1.0, 1.0, k -> {}), false));
    }
    policies.add(new Policy("LRU-stamped", c -> new StampedLruCache<>(c, k -> {}), true));
    return policies;
  }

  static Result measure(KvCacheTrace trace, double share, long capacity, Policy policy, int threads, int rounds) {
    BoundedCache<Long, Object> cache = policy.make().apply(capacity);
    long hits = 0;
    long hitBytes = 0;
    for (int i = 0; i < trace.length(); i++) {
      if (cache.get(trace.keys[i]) != null) {
        hits++;
        hitBytes += trace.sizes[i];
      } else {
        cache.put(trace.keys[i], VALUE, trace.sizes[i]);
      }
    }
    long evictions = cache.evictions();
    long best = Long.MAX_VALUE;
    for (int round = 0; round < (policy.reference() ? 1 : rounds); round++) {
      best = Math.min(best, concurrentReplay(trace, policy.make().apply(capacity), threads));
    }
    return new Result(trace.name, share, capacity, policy.name(), (double) hits / trace.length(),
        (double) hitBytes / trace.requestedBytes, evictions, (double) best / trace.length());
  }

  /** Wall-clock nanoseconds for {@code threads} threads to replay their slices of the trace on one cache. */
  static long concurrentReplay(KvCacheTrace trace, BoundedCache<Long, Object> cache, int threads) {
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int from = (int) ((long) trace.length() * t / threads);
      int to = (int) ((long) trace.length() * (t + 1) / threads);
      Thread w = new Thread(() -> {
        ready.countDown();
        awaitQuietly(start);
        for (int i = from; i < to; i++) {
          if (cache.get(trace.keys[i]) == null) {
            cache.put(trace.keys[i], VALUE, trace.sizes[i]);
          }
        }
      }, "replay-" + t);
      w.start();
      workers.add(w);
    }
    awaitQuietly(ready);
    long begin = System.nanoTime();
    start.countDown();
    for (Thread w : workers) {
      try {
        w.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while replaying", e);
      }
    }
    return System.nanoTime() - begin;
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** One row per trace × capacity × policy; the best hit ratio of each trace × capacity in bold. */
  static String table(List<Result> results, int threads) {
    MarkdownTable t = new MarkdownTable("trace", "capacity", "policy", "hit ratio", "byte hit ratio", "evictions",
        "ns/op (" + threads + " threads)");
    for (Result r : results) {
      double bestHit = 0;
      double bestByteHit = 0;
      for (Result o : results) {
        if (o.trace().equals(r.trace()) && o.share() == r.share()) {
          bestHit = Math.max(bestHit, o.hitRatio());
          bestByteHit = Math.max(bestByteHit, o.byteHitRatio());
        }
      }
      t.row(r.trace(), pct(r.share()) + " (" + mib(r.capacity()) + ")", r.policy(),
          bold(String.format(Locale.ROOT, "%.2f%%", 100 * r.hitRatio()), r.hitRatio() == bestHit),
          bold(String.format(Locale.ROOT, "%.2f%%", 100 * r.byteHitRatio()), r.byteHitRatio() == bestByteHit),
          String.format(Locale.ROOT, "%,d", r.evictions()), String.format(Locale.ROOT, "%.0f", r.nsPerOp()));
    }
    return t.render();
  }

  private static String bold(String s, boolean best) {
    return best ? "**" + s + "**" : s;
  }

  private static String pct(double share) {
    return String.format(Locale.ROOT, "%s%%", share * 100 == Math.rint(share * 100)
        ? String.valueOf((long) (share * 100)) : String.valueOf(share * 100));
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
  }
}
