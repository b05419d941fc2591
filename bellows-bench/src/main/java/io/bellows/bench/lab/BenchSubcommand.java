package io.bellows.bench.lab;

import io.bellows.bench.ClusterBench;
import io.bellows.bench.KvCachePolicyTraces;
import io.bellows.bench.PaperBench;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bellows bench paper [options]}: the benchmarks of module bellows-bench that have a command. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks. 'bench paper' runs the Accordion paper's write benchmark with RocksDB alongside;"
        + " 'bench read' the SAC 2024 paper's read workloads over block layouts and the KV cache, RocksDB alongside;"
        + " 'bench kvcache-policies' compares the KV cache's replacement policies on key traces;"
        + " 'bench cluster' measures a cluster's idle cost, replication efficiency and catch-up.",
    subcommands = {BenchSubcommand.Paper.class, BenchReadSubcommand.class, BenchSubcommand.KvCachePolicies.class,
        BenchSubcommand.Cluster.class})
final class BenchSubcommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Passes its options through to {@link PaperBench}, which parses and checks them. */
  @Command(name = "paper", mixinStandardHelpOptions = true,
      description = {"The Accordion paper's write-only suite (VLDB 2018, section 4.2.1) on Bellows and RocksDB, each"
          + " configuration in a fresh JVM: Table 1 (throughput), Table 2 (flushes, compactions, bytes written),"
          + " a CSV of every run and PNG charts (throughput, GC, bytes written, read latency), printed and written"
          + " to --out.",
          "",
          "Options (all optional):",
          "  --scale S           rows and key space × S (default 1: 5M rows, 10M keys per run; 0.05: smoke)",
          "  --out DIR           where report.md, runs.csv and the charts go (default bench-paper)",
          "  --keys LIST         zipf,uniform (zipf = YCSB's scrambled zipfian, theta 0.99); also latest (YCSB's"
              + " latest: 5%% of puts insert new rows, the others update recent rows; write workload only)",
          "  --configs LIST      default NONE,BASIC,EAGER,ADAPTIVE:R=0.05,ADAPTIVE:R=0.2,ADAPTIVE:R=0.35,"
              + "ADAPTIVE:R=0.5,rocksdb,rocksdb-tuned; a Bellows spec may set A=, S=, R= or any family knob"
              + " (e.g. BASIC:A=0.05:S=2, ADAPTIVE:SEGMENT_INDEX=CHUNK)",
          "  --rounds N          run every configuration N times, rotating their order each round; the tables"
              + " show each one's median run and every round's ratio to RocksDB (default 1)",
          "  --sweep A|S|R       instead of --configs: sweep one Accordion parameter",
          "  --workload W        write (default), read-write (get latency while writing, after a load) or"
              + " scan-write (95%% scans of 1-100 rows, 5%% puts, after a load)",
          "  --readers N         read-write: reader threads among the clients (default 1)",
          "  --write-rate R      read-write: the writers put R rows per second in all (default 0: as fast as"
              + " they can), so that stores are compared serving gets beside the same write load",
          "  --ops N             scan-write: operations at scale 1 (default 100000)",
          "  --seed N            seed of keys and values (default 42), the same for every run",
          "  --regions N         pre-split the table (default: the paper's 10M rows per region, at least 1)",
          "  --flush-mib M       Bellows' flush size (default 64); RocksDB tuned gets 4 write buffers of it",
          "  --io-log DIR        write-only runs: one CSV per run in DIR with every flush and compaction (files,"
              + " bytes and cells in and out), to see where the bytes written go",
          "  --fields F          columns per row (default 4, the paper's; YCSB's default is 10)",
          "  --field-length L    bytes per column value (default 25, the paper's; YCSB's default is 100)",
          "  --batch N           rows per client write call (default 100)",
          "  --batch-bytes B     instead of --batch: the fewest rows whose cells make B bytes (the paper: 10 KB)",
          "  --durability D      the table's durability: ASYNC_WAL (default, as the paper's suite), SYNC_WAL"
              + " (the paper's Figure 8), FSYNC_WAL or SKIP_WAL",
          "  --layout L          Bellows' memory layout: CHUNK_FLAT (default, the engine's), OBJECT, CHUNK_HEAP or"
              + " CHUNK_OFFHEAP (chunks in direct memory: the paper's off-heap runs)",
          "  --rows N --key-space N --writers N --dir DIR --progress-ms MS",
          "  --jvm \"FLAGS\"       flags of each child JVM (default -Xms2g -Xmx2g -XX:+UseG1GC"
              + " -XX:MaxDirectMemorySize=2g -XX:+AlwaysPreTouch)",
          "  --charts-from CSV   run nothing: draw the charts again from an earlier invocation's runs.csv into"
              + " --out (default: the CSV's folder)"},
      exitCodeListHeading = "Exit codes:%n",
      exitCodeList = {"0:all runs finished", "1:a run failed", "2:bad options"})
  static final class Paper extends PassThroughCommand {
    @Override
    int run(String[] args, PrintWriter out) {
      return PaperBench.run(args, out);
    }
  }

  /** Passes its options through to {@link KvCachePolicyTraces}, which parses and checks them. */
  @Command(name = "kvcache-policies", mixinStandardHelpOptions = true,
      description = {"The KV cache's replacement policies (WEIGHTED, LRU, TINYLFU) on identical key traces (scrambled"
          + " Zipf 0.99, uniform, CBMG sessions; heavy-tailed row sizes) at 1%%, 5%% and 20%% of each trace's distinct"
          + " bytes: hit ratio and byte hit ratio (one thread) and ns per operation (4 threads), as a Markdown table.",
          "",
          "Options (all optional):",
          "  --scale S           requests and key space x S (default 1: 1M requests over 500K rows; ~3 min)",
          "  --seed N            seed of the traces (default 42)",
          "  --requests N --key-space N --threads N --rounds N",
          "  --traces LIST       zipf,uniform,cbmg",
          "  --capacities LIST   shares of the distinct bytes (default 0.01,0.05,0.2)"},
      exitCodeListHeading = "Exit codes:%n",
      exitCodeList = {"0:done", "2:bad options"})
  static final class KvCachePolicies extends PassThroughCommand {
    @Override
    int run(String[] args, PrintWriter out) {
      return KvCachePolicyTraces.run(args, out);
    }
  }

  /** Passes its options through to {@link ClusterBench}, which parses and checks them. */
  @Command(name = "cluster", mixinStandardHelpOptions = true,
      description = {"Three of a cluster's targets on this machine (docs/design/cluster.md, step 4), each against a"
          + " peer measured in the same run, with servers started from the product jar as 'bellows server' runs"
          + " them; progress lines, then report.md and a CSV in --out.",
          "",
          "  --test idle         3 members, then 100 tables (one Raft group each): threads per replica and idle CPU"
              + " (targets: at most 5 threads per replica, 10%% of a core for 100 groups x 3 replicas); ~7 min",
          "  --test efficiency   the paper's write workload against one server and 3 members, alternating:"
              + " 3 x cluster rows/s / single rows/s (target at least 0.6) and write p99; ~5 min",
          "  --test catchup      a follower stopped, the table filled, the follower back: its checkpoint install's"
              + " bytes/s against a plain copy of the same files over loopback (target at least 0.8); ~5 min",
          "",
          "Options (--test required):",
          "  --scale S           tables, rows and fill x S (default 1: 100 tables; 300,000 rows per run over 1M"
              + " keys; 256 MiB of files)",
          "  --out DIR           where report.md and the CSV go (default bench-cluster-TEST)",
          "  --rounds N          efficiency: rounds, each running both (default 3)",
          "  --tables N --settle-s S --sample-s S   idle: tables, seconds to settle (75) and to sample CPU (60)",
          "  --rows N --key-space N --writers N --batch N --seed N   the write workload",
          "  --fill-mib M        catchup: the leader's sorted files to reach",
          "  --jvm \"FLAGS\"       the servers' JVM flags (default -Xms1g -Xmx1g -XX:+UseG1GC)",
          "  --jfr DIR           a flight recording (profile settings) of every server process into DIR",
          "  --product JAR       the product jar (default bellows-cli/target/bellows.jar beside the lab)",
          "  --dir DIR           where the servers' directories go (default the temporary directory)"},
      exitCodeListHeading = "Exit codes:%n",
      exitCodeList = {"0:measured", "1:the run failed", "2:bad options"})
  static final class Cluster extends PassThroughCommand {
    @Override
    int run(String[] args, PrintWriter out) {
      return ClusterBench.run(args, out);
    }
  }
}
