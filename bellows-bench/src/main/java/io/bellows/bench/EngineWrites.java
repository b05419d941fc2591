package io.bellows.bench;

import io.bellows.config.Durability;
import io.bellows.config.Knob;
import io.bellows.config.MemStorePolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * End-to-end write benchmark of the engine (public API only) under the Accordion paper's workload:
 * for each memory-store policy, a fresh engine, one table with one family, ASYNC_WAL, rows of 4
 * cells × 25-byte values written by 2 threads with Zipf (θ = 0.99) or all-unique uniform keys.
 * {@code --batch N} writes N rows per {@code Table.put(List)} call (put latency is then per call),
 * {@code --durability} sets the table's durability, {@code --regions N} pre-splits the table into N
 * even regions, {@code --set name=value,...} sets engine knobs by name (e.g. {@code
 * bellows.compaction.threads=2}), {@code --peers rocksdb,rocksdb-tuned} runs RocksDB on the same
 * workload in the same rounds ({@link RocksDbRun}).
 * Reports throughput, disk flushes and compactions, bytes they wrote per byte of user data (write
 * amplification without the WAL), WAL bytes, blocked-write time, GC, put latency, and a burst of
 * gets after writing (see {@link EngineRun} for the phases of a run).
 *
 * <p>Method: an untimed warm-up pass runs every policy once on a fifth of the rows; then {@code
 * --rounds} rounds, each running every policy once in an order rotated by the round, so that no
 * policy always follows the same predecessor. Every run uses the same seeds, so all policies see
 * the same key sequences. Single-threaded driver; not reusable.
 */
public final class EngineWrites {
  private static final Set<String> OPTIONS = Set.of("rows", "scale", "flush-mib", "key-space", "rounds", "policies",
      "layout", "keys", "writers", "gets", "seed", "warmup", "dir", "batch", "durability",
      "regions", "set", "peers");

  /** Everything a benchmark invocation needs, parsed from the options. */
  record Plan(List<MemStorePolicy> policies, IndexKind layout, List<KeyDistribution> keys, long flushSize,
      long keySpace, long rows, int writers, long gets, long seed, int rounds, double warmupFraction, Path dir,
      int batch, Durability durability, int regions, Map<String, String> engineSettings,
      List<RocksDbRun.Setup> peers) {

    static Plan parse(String[] argv) {
      Args a = new Args(argv, OPTIONS);
      return new Plan(
          Configs.policies(a.get("policies", "NONE,BASIC,EAGER,ADAPTIVE")),
          IndexKind.valueOf(a.get("layout", "OBJECT").toUpperCase(Locale.ROOT)),
          Configs.distributions(a.get("keys", "ZIPF,UNIQUE")),
          (long) (a.getDouble("flush-mib", EngineWorkload.DEFAULT_FLUSH_MIB) * 1024 * 1024),
          a.getLong("key-space", 1_000_000),
          (long) (a.getLong("rows", 4_000_000) * a.getDouble("scale", 1)),
          (int) a.getLong("writers", 2),
          a.getLong("gets", 50_000),
          a.getLong("seed", 42),
          (int) a.getLong("rounds", 3),
          a.getDouble("warmup", 0.2),
          Path.of(a.get("dir", System.getProperty("java.io.tmpdir"))),
          (int) a.getLong("batch", 1),
          Durability.valueOf(a.get("durability", "ASYNC_WAL").toUpperCase(Locale.ROOT)),
          (int) a.getLong("regions", 1),
          KnobSettings.parse(a.get("set", ""), "--set takes engine knobs; see --layout, --policies and"
              + " --durability for the table's and family's", Knob.Scope.ENGINE),
          peers(a.get("peers", "")));
    }

    private static List<RocksDbRun.Setup> peers(String csv) {
      List<RocksDbRun.Setup> out = new ArrayList<>();
      for (String label : csv.split(",")) {
        if (!label.isBlank()) {
          out.add(RocksDbRun.Setup.ofLabel(label.trim()));
        }
      }
      return out;
    }

    /** The row labels of the report: each policy's name, then each peer's label. */
    List<String> labels() {
      List<String> out = new ArrayList<>();
      policies.forEach(p -> out.add(p.name()));
      peers.forEach(p -> out.add(p.label));
      return out;
    }

    EngineWorkload workload(KeyDistribution dist) {
      return new EngineWorkload(dist, keySpace, rows, writers, gets, seed, dir, batch, durability, regions,
          engineSettings, RowShape.PAPER);
    }

    StoreConfig config(MemStorePolicy p) {
      return new StoreConfig(p, layout, flushSize);
    }
  }

  public static void main(String[] argv) {
    Plan plan = Plan.parse(argv);
    System.out.printf("# EngineWrites: %,d rows (%,d cells) per run from %d writers, %d rows per put call, flush size"
            + " %.2f MiB, layout %s, %s, %d region(s), engine settings %s, Zipf key space %,d rows, %,d gets,"
            + " %d rounds, seed %d, %s, %d CPUs, data under %s%n%n",
        plan.rows(), plan.rows() * PaperRows.CELLS_PER_ROW, plan.writers(), plan.batch(), plan.flushSize() / 1048576.0,
        plan.layout(), plan.durability(), plan.regions(), plan.engineSettings(), plan.keySpace(), plan.gets(),
        plan.rounds(), plan.seed(), Runtime.version(), Runtime.getRuntime().availableProcessors(), plan.dir());
    System.out.println("# JVM: " + java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
    for (RocksDbRun.Setup peer : plan.peers()) {
      System.out.println("# peer " + RocksDbRun.describe(peer, plan.flushSize()));
    }
    System.out.println();
    for (KeyDistribution dist : plan.keys()) {
      Map<String, List<EngineRunResult>> runs = measure(plan, dist, line -> System.out.println("  " + line));
      System.out.printf("%n## %s keys, layout %s%n%n", dist, plan.layout());
      System.out.println(EngineReport.render(plan.labels(), runs));
    }
  }

  /**
   * Warm-up, then the rounds; returns the measured runs by label (policy name or peer label), in the
   * plan's order. Each round runs every policy and peer once, in an order rotated by the round.
   * Progress goes to {@code log}.
   */
  static Map<String, List<EngineRunResult>> measure(Plan plan, KeyDistribution dist,
      java.util.function.Consumer<String> log) {
    EngineWorkload workload = plan.workload(dist);
    long warmupRows = (long) (plan.rows() * plan.warmupFraction());
    List<String> labels = plan.labels();
    if (warmupRows >= plan.writers()) {
      for (String label : labels) {
        runOne(plan, label, workload.withRows(warmupRows)); // discarded
      }
    }
    Map<String, List<EngineRunResult>> runs = new java.util.LinkedHashMap<>();
    labels.forEach(l -> runs.put(l, new ArrayList<>()));
    int n = labels.size();
    for (int round = 0; round < plan.rounds(); round++) {
      for (int i = 0; i < n; i++) {
        String label = labels.get((i + round) % n);
        EngineRunResult r = runOne(plan, label, workload);
        runs.get(label).add(r);
        log.accept(String.format("%s %s round %d: %,.0f rows/s, %d flushes, %d compactions, WA %.2f, GC %d ms,"
                + " blocked %d ms, paced %d ms, %,.0f gets/s, %,d WAL records, %,d WAL syncs", dist, label, round,
            r.rowsPerSecond(), r.flushes(), r.compactions(), r.writeAmplification(), r.gcMillis(),
            r.blockedNanos() / 1_000_000, r.delayedNanos() / 1_000_000,
            r.getsPerSecond(), r.walRecords(), r.walSyncs()));
      }
    }
    return runs;
  }

  private static EngineRunResult runOne(Plan plan, String label, EngineWorkload workload) {
    for (RocksDbRun.Setup peer : plan.peers()) {
      if (peer.label.equals(label)) {
        return RocksDbRun.run(peer, workload, plan.flushSize());
      }
    }
    return EngineRun.run(plan.config(MemStorePolicy.valueOf(label)), workload);
  }
}
