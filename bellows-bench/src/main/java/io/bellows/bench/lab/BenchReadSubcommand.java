package io.bellows.bench.lab;

import io.bellows.bench.ReadBench;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code bellows bench read}: passes its options through to {@link ReadBench}, which parses and checks them. */
@Command(name = "read", mixinStandardHelpOptions = true,
    description = {"The read-path suite of the SAC 2024 paper (dynamic data block sizes and a KV cache, section 5)"
        + " on Bellows and RocksDB: each block layout loaded and major-compacted once, each configuration and"
        + " workload on a fresh copy in a fresh JVM. Throughput, get latency, read amplification (bytes and pages),"
        + " cache hit ratio and the paper's targets as ratios, printed and written to --out with a CSV and PNG"
        + " charts.",
        "",
        "Options (all optional):",
        "  --scale S           rows, cache budget and operations x S (default 1: 1M rows of ~500 B, 64 MiB)",
        "  --out DIR           where report.md, runs.csv and the charts go (default bench-read)",
        "  --workloads LIST    of B-zipf, B-zipf-ordered, B-uniform, C-zipf, C-zipf-ordered, C-uniform, CBMG,"
            + " C-hot (default B-zipf,B-uniform,CBMG; -ordered: Zipf keys not scrambled, the hottest rows"
            + " neighbours; C-hot: uniform gets over every 4th row of the first tenth, a hot set the KV cache"
            + " must grow to hold)",
        "  --configs LIST      of 64KB/S, 4KB/S, D(8), D(32), D(128), each also +KVC, and rocksdb,"
            + " rocksdb+rowcache (default all); a Bellows configuration may add @L2 (e.g. 64KB/S@L2, 64KB/S+KVC@L2):"
            + " data blocks in the off-heap L2, read in place; without +KVC the whole budget is L2's, with it a"
            + " 20 MiB L1 holds the KV cache alone (not in the default)",
        "  --seed N            seed of values and keys (default 42), the same for every run",
        "  --ops N --warmup N  measured and warm-up operations at scale 1 (default 600000, 1000000)",
        "  --direct-io true    the measured runs read the files with direct I/O (O_DIRECT), past the page"
            + " cache, both stores (default false); the data directory must be on a file system with direct I/O",
        "  --window N          also report read amplification, hit ratio and throughput per window of N"
            + " measured operations (windows.csv, a chart: the paper's Figure 9 time axis; default 0, none)",
        "  --rows N --budget-mib M --threads N --dir DIR --progress-ms MS",
        "  --jvm \"FLAGS\"       flags of each child JVM (default -Xms4g -Xmx4g -XX:+UseG1GC)"},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:all runs finished", "1:a run failed", "2:bad options"})
final class BenchReadSubcommand extends PassThroughCommand {
  @Override
  int run(String[] args, PrintWriter out) {
    return ReadBench.run(args, out);
  }
}
