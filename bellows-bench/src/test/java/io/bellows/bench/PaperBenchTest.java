package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code bench paper} end to end at a tiny scale — every run in its own child JVM — and checks
 * that it completes and that its outputs are well formed. No figure is checked against a threshold.
 */
class PaperBenchTest {
  private static final long SEED = Long.getLong("bellows.test.seed", 42);

  @TempDir
  Path tmp;

  @Test
  void smokeSuiteWritesTablesCsvAndCharts() throws IOException {
    System.out.println("seed " + SEED);
    Path out = tmp.resolve("out");
    StringWriter buf = new StringWriter();
    int exit = PaperBench.run(new String[] {"--scale", "0.002", "--configs", "NONE,ADAPTIVE:R=0.2,rocksdb",
        "--keys", "zipf,uniform", "--flush-mib", "0.25", "--seed", Long.toString(SEED), "--out", out.toString(),
        "--dir", tmp.resolve("data").toString(), "--jvm", "-Xms128m -Xmx256m -XX:+UseSerialGC",
        "--progress-ms", "200", "--io-log", tmp.resolve("io").toString()}, new PrintWriter(buf, true));
    String printed = buf.toString();
    System.out.println(printed);
    assertThat(exit).isZero();
    assertThat(printed).contains("[1/6] zipf NONE ...").contains("[6/6] uniform rocksdb: ")
        .contains("-Xmx256m").contains("rocksdb: RocksDB ");

    String md = Files.readString(out.resolve("report.md"));
    assertThat(md).contains("## Table 1: write throughput (rows/s)")
        .contains("## Table 2: flushes, compactions and bytes written — zipf keys")
        .contains("## Table 2: flushes, compactions and bytes written — uniform keys");
    for (String config : List.of("NONE", "ADAPTIVE:R=0.2", "rocksdb")) {
      assertThat(md).containsPattern("\\| " + config.replace(".", "\\.") + " \\| [0-9,]+ \\| [0-9.]+ \\| [0-9.]+ \\|");
    }
    assertThat(printed).contains(md.substring(md.indexOf("## Table 1")));
    assertThat(md).contains("durability ASYNC_WAL");

    List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
    assertThat(csv).hasSize(7);
    List<String> header = List.of(csv.get(0).split(","));
    for (String line : csv.subList(1, csv.size())) {
      String[] cells = line.split(",");
      assertThat(cells).hasSize(header.size());
      java.util.function.Function<String, String> col = name -> cells[header.indexOf(name)];
      assertThat(col.apply("keys")).isIn("zipf", "uniform");
      assertThat(Long.parseLong(col.apply("rows"))).as("rows").isEqualTo(10_000);
      boolean rocksDb = col.apply("store").equals("rocksdb");
      assertThat(Long.parseLong(col.apply("walFilesLive"))).as("WAL files live at the end of %s", line)
          .isGreaterThanOrEqualTo(rocksDb ? PaperResult.NA : 1);
      assertThat(Long.parseLong(col.apply("walFilesRolled"))).isGreaterThanOrEqualTo(rocksDb ? PaperResult.NA : 0);
      assertThat(Double.parseDouble(col.apply("rowsPerSecond"))).as("rows/s").isPositive();
      assertThat(col.apply("round")).as("round").isEqualTo("1");
      assertThat(Long.parseLong(col.apply("secondHalfNanos"))).as("second half timed").isPositive();
      assertThat(Long.parseLong(col.apply("flushBytes"))).as("flush bytes: the final flush at least").isPositive();
      long flushed = Long.parseLong(col.apply("flushedCells"));
      long dropped = Long.parseLong(col.apply("memoryEliminatedCells"));
      switch (col.apply("config")) {
        case "rocksdb" -> assertThat(List.of(flushed, dropped)).as("RocksDB counts no cells")
            .containsOnly(PaperResult.NA);
        case "NONE" -> {
          assertThat(flushed).as("cells flushed").isBetween(1L, 4 * 10_000L);
          assertThat(dropped).as("NONE drops nothing in memory").isZero();
        }
        default -> {
          assertThat(flushed).as("cells flushed").isBetween(1L, 4 * 10_000L);
          assertThat(flushed + dropped).as("cells flushed and dropped").isLessThanOrEqualTo(4 * 10_000L);
        }
      }
      assertIoLogMatches(tmp.resolve("io").resolve(col.apply("keys") + "-"
          + col.apply("config").replace(':', '_').replace('=', '_') + "-r1.csv"), col);
    }

    List<String> pngs = List.of(PaperCharts.THROUGHPUT, PaperCharts.gcFileName("zipf"),
        PaperCharts.gcFileName("uniform"), PaperCharts.bytesFileName("zipf"), PaperCharts.bytesFileName("uniform"));
    for (String png : pngs) {
      BufferedImage image = ImageIO.read(out.resolve(png).toFile());
      assertThat(image).as(png).isNotNull();
      assertThat(image.getWidth()).isGreaterThan(100);
    }

    // The charts drawn again from the CSV alone, into another folder.
    Path redrawn = tmp.resolve("redrawn");
    StringWriter again = new StringWriter();
    assertThat(PaperBench.run(new String[] {"--charts-from", out.resolve("runs.csv").toString(), "--out",
        redrawn.toString()}, new PrintWriter(again, true))).as(again.toString()).isZero();
    assertThat(again.toString()).contains("Drew 5 charts from");
    for (String png : pngs) {
      assertThat(ImageIO.read(redrawn.resolve(png).toFile())).as("redrawn " + png).isNotNull();
    }
    Files.writeString(tmp.resolve("bad.csv"), csv.get(0) + "\nNONE,zipf\n");
    StringWriter bad = new StringWriter();
    assertThat(PaperBench.run(new String[] {"--charts-from", tmp.resolve("bad.csv").toString()},
        new PrintWriter(bad, true))).isEqualTo(2);
    assertThat(bad.toString()).contains("bench paper: a runs.csv line of 2 cells");
    try (Stream<Path> left = Files.list(tmp.resolve("data"))) {
      assertThat(left).as("every run deletes its data").isEmpty();
    }
  }

  /** A run's I/O log has one line per flush of the run, and its flushes wrote the bytes Table 2 counts. */
  private static void assertIoLogMatches(Path log, java.util.function.Function<String, String> run)
      throws IOException {
    List<String> lines = Files.readAllLines(log);
    assertThat(lines.get(0)).isEqualTo(IoLog.HEADER);
    long flushes = 0;
    long flushBytes = 0;
    long compactions = 0;
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      assertThat(f).as(line).hasSize(8);
      if (f[1].equals("flush")) {
        flushes++;
        flushBytes += Long.parseLong(f[5]);
      } else {
        assertThat(f[1]).isEqualTo("compaction");
        assertThat(Long.parseLong(f[2])).as("files a compaction merged").isGreaterThanOrEqualTo(2);
        compactions++;
      }
    }
    assertThat(flushes).as(log + ": flushes").isEqualTo(Long.parseLong(run.apply("flushes")));
    assertThat(compactions).as(log + ": compactions").isGreaterThanOrEqualTo(Long.parseLong(run.apply("compactions")));
    if (!run.apply("store").equals("rocksdb")) {
      assertThat(flushBytes).as(log + ": flush bytes").isEqualTo(Long.parseLong(run.apply("flushBytes")));
    }
  }

  @Test
  void roundsRotateTheConfigurations() {
    PaperBench.Plan plan = PaperBench.Plan.parse(new String[] {"--configs", "NONE,ADAPTIVE,rocksdb", "--rounds", "3"});
    assertThat(plan.rounds()).isEqualTo(3);
    assertThat(plan.order(0)).extracting(PaperConfig::spec).containsExactly("NONE", "ADAPTIVE", "rocksdb");
    assertThat(plan.order(1)).extracting(PaperConfig::spec).containsExactly("ADAPTIVE", "rocksdb", "NONE");
    assertThat(plan.order(2)).extracting(PaperConfig::spec).containsExactly("rocksdb", "NONE", "ADAPTIVE");
    assertThat(PaperBench.Plan.parse(new String[0]).flushSize()).as("RocksDB's default write buffer")
        .isEqualTo(64L << 20);
    assertThatThrownBy(() -> PaperBench.Plan.parse(new String[] {"--rounds", "0"})).hasMessageContaining("--rounds");
  }

  @Test
  void durabilityAndLayoutReachEveryChildAndBadValuesAreRefused() {
    PaperBench.Plan plan = PaperBench.Plan.parse(new String[] {"--durability", "sync_wal", "--layout", "chunk_offheap"});
    assertThat(plan.durability()).isEqualTo(io.bellows.config.Durability.SYNC_WAL);
    assertThat(plan.layout()).isEqualTo(IndexKind.CHUNK_OFFHEAP);
    String args = String.join(" ", plan.childArgs(plan.configs().get(0), plan.keys().get(0), 0));
    assertThat(args).contains("--durability SYNC_WAL").contains("--layout CHUNK_OFFHEAP");
    PaperBench.Plan defaults = PaperBench.Plan.parse(new String[0]);
    assertThat(defaults.durability()).isEqualTo(io.bellows.config.Durability.ASYNC_WAL);
    assertThat(defaults.layout()).isEqualTo(PaperConfig.LAYOUT);
    assertThatThrownBy(() -> PaperBench.Plan.parse(new String[] {"--durability", "fast"}))
        .hasMessageContaining("--durability takes ASYNC_WAL");
    assertThatThrownBy(() -> PaperBench.Plan.parse(new String[] {"--layout", "flat"}))
        .hasMessageContaining("--layout takes");
  }

  @Test
  void rocksDbTunedMayHoldWhatBellowsMayHoldBeforeWritesBlock() {
    long flushSize = 64L << 20;
    try (org.rocksdb.Options o = RocksDbRun.options(RocksDbRun.Setup.TUNED, flushSize)) {
      double blockMultiplier = io.bellows.config.Knobs.MEMSTORE_BLOCK_MULTIPLIER.defaultValue();
      assertThat((double) o.writeBufferSize() * o.maxWriteBufferNumber()).isEqualTo(blockMultiplier * flushSize);
      assertThat(o.writeBufferSize()).isEqualTo(flushSize);
    }
  }

  @Test
  void rocksDbTunedCompressesAsBellowsDefaultUnlessTheSpecSays() {
    try (org.rocksdb.Options o = RocksDbRun.options(RocksDbRun.Setup.TUNED, 64L << 20)) {
      assertThat(o.compressionType())
          .isEqualTo(RocksDbRun.compressionType(io.bellows.config.Knobs.COMPRESSION.defaultValue()));
    }
    PaperConfig zstd = PaperConfig.parse("rocksdb-tuned:compression=zstd");
    assertThat(zstd.spec()).isEqualTo("rocksdb-tuned:COMPRESSION=ZSTD");
    assertThat(zstd.peer()).isEqualTo(RocksDbRun.Setup.TUNED);
    assertThat(zstd.peerCompression()).isEqualTo(io.bellows.config.Compression.ZSTD);
    try (org.rocksdb.Options o = RocksDbRun.options(zstd.peer(), 64L << 20, zstd.peerCompression())) {
      assertThat(o.compressionType()).isEqualTo(org.rocksdb.CompressionType.ZSTD_COMPRESSION);
    }
    assertThat(PaperConfig.parse("rocksdb").peerCompression()).isNull();
    assertThatThrownBy(() -> PaperConfig.parse("rocksdb-tuned:COMPRESSION=SNAPPY"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void mixedWorkloadsReportReadLatencies() throws IOException {
    for (String workload : List.of("read-write", "scan-write")) {
      Path out = tmp.resolve(workload);
      StringWriter buf = new StringWriter();
      int exit = PaperBench.run(new String[] {"--workload", workload, "--scale", "0.001", "--configs",
          "BASIC,rocksdb", "--keys", "zipf", "--flush-mib", "0.25", "--seed", Long.toString(SEED), "--out",
          out.toString(), "--dir", tmp.resolve("data").toString(), "--jvm", "-Xms128m -Xmx256m -XX:+UseSerialGC"},
          new PrintWriter(buf, true));
      System.out.println(buf);
      assertThat(exit).as(workload).isZero();
      String op = workload.equals("read-write") ? "Get" : "Scan";
      String md = Files.readString(out.resolve("report.md"));
      assertThat(md).contains("## " + op + " latency — zipf keys").contains("| p50 µs | p75 µs | p90 µs | p95 µs | p99 µs |");
      List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
      List<String> header = List.of(csv.get(0).split(","));
      for (String line : csv.subList(1, csv.size())) {
        String[] cells = line.split(",");
        assertThat(cells[header.indexOf("workload")]).isEqualTo(workload);
        assertThat(Long.parseLong(cells[header.indexOf("readOps")])).as("%s reads measured", workload).isPositive();
        long p50 = Long.parseLong(cells[header.indexOf("readP50")]);
        assertThat(Long.parseLong(cells[header.indexOf("readP99")])).isGreaterThanOrEqualTo(p50).isPositive();
        long readCpu = Long.parseLong(cells[header.indexOf("readCpuNanos")]);
        if (workload.equals("read-write")) {
          assertThat(readCpu).as("the reader's CPU time").isPositive();
        } else {
          assertThat(readCpu).as("scan-write's threads also put: no reader CPU").isEqualTo(PaperResult.NA);
        }
      }
      if (workload.equals("read-write")) {
        assertThat(md).contains("| reader CPU µs per get | reader cores |");
      }
      BufferedImage chart = ImageIO.read(out.resolve(PaperCharts.latencyFileName("zipf")).toFile());
      assertThat(chart).as("latency chart").isNotNull();
      assertThat(chart.getWidth()).isGreaterThan(100);
    }
  }

  @Test
  void aFailingChildIsReportedWithItsOutput() {
    List<String> cmd = ChildJvm.command(List.of("-Xmx64m"), List.of("--config", "NONE", "--rows", "1",
        "--writers", "4"));
    assertThatThrownBy(() -> ChildJvm.run(cmd, rows -> { }))
        .hasMessageContaining("exited with")
        .hasMessageContaining("need at least one row per writer");
  }

  /**
   * A child that runs out of memory while another of its threads lives on: without {@link
   * ChildJvm#ALWAYS} it never exits and the suite waits for it forever (the guard below ends the
   * test then); with it, it exits and its failure is reported.
   */
  @Test
  void aChildOutOfMemoryExitsAndIsReported() {
    List<String> cmd = ChildJvm.command(OutOfMemoryChild.class, List.of("-Xmx32m"), List.of());
    assertTimeoutPreemptively(java.time.Duration.ofMinutes(2), () ->
        assertThatThrownBy(() -> ChildJvm.run(cmd, PaperResult.LINE_PREFIX, PaperChild.PROGRESS_PREFIX, s -> { }))
            .hasMessageContaining("exited with 3")
            .hasMessageContaining("OutOfMemoryError"));
  }

  /**
   * A child whose progress figures stop moving while it keeps printing them is killed after the
   * stall limit (2 s here, 15 minutes by default) and reported, instead of holding up the suite.
   */
  @Test
  void aChildWhoseProgressStopsIsKilledAndReported() {
    List<String> cmd = ChildJvm.command(StuckChild.class, List.of(), List.of());
    List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    assertTimeoutPreemptively(java.time.Duration.ofMinutes(2), () ->
        assertThatThrownBy(() -> ChildJvm.run(cmd, PaperResult.LINE_PREFIX, PaperChild.PROGRESS_PREFIX, seen::add,
            java.time.Duration.ofSeconds(2)))
            .hasMessageContaining("made no progress for 2 s and was killed")
            .hasMessageContaining("stuck at work"));
    assertThat(seen).isNotEmpty().containsOnly("42");
  }

  @Test
  void aRunThatFailsIsReportedAndTheSuiteExitsWithOne() throws IOException {
    StringWriter buf = new StringWriter();
    Path out = tmp.resolve("failed");
    // A child JVM that cannot start: the run fails, the suite still writes its report.
    int exit = PaperBench.run(new String[] {"--scale", "0.001", "--configs", "NONE", "--keys", "zipf", "--out",
        out.toString(), "--jvm", "-Xmx1k"}, new PrintWriter(buf, true));
    assertThat(exit).isEqualTo(1);
    assertThat(buf.toString()).contains("[1/1] zipf NONE: FAILED: the child JVM exited with")
        .contains("1 of 1 runs failed");
    assertThat(Files.readString(out.resolve("report.md"))).contains("| NONE | - | - |");
  }

  /**
   * Every configuration of the suite with the default JVM flags, as a user runs it: it completes
   * and its outputs are well formed; no figure is checked. By default on Zipf keys at a fifth of the
   * documented smoke size (nine child JVMs, ~40 s on two cores); {@code -Dbellows.bench.smoke.full=true}
   * runs the documented smoke version, {@code bench paper --scale 0.05} (both key distributions,
   * 18 child JVMs, ~2.5 min).
   */
  @Test
  void theSmokeVersionOfTheWholeSuiteCompletes() throws IOException {
    boolean full = Boolean.getBoolean("bellows.bench.smoke.full");
    String scale = full ? "0.05" : "0.01";
    List<String> distributions = full ? List.of("zipf", "uniform") : List.of("zipf");
    long rows = Math.max(1, (long) (PaperBench.ROWS * Double.parseDouble(scale))); // as the suite computes it
    Path out = tmp.resolve("smoke");
    List<String> args = new java.util.ArrayList<>(List.of("--scale", scale, "--out", out.toString(), "--dir",
        tmp.resolve("smoke-data").toString()));
    if (!full) {
      args.addAll(List.of("--keys", "zipf"));
    }
    StringWriter buf = new StringWriter();
    int exit = PaperBench.run(args.toArray(String[]::new), new PrintWriter(buf, true));
    String printed = buf.toString();
    assertThat(exit).as(printed).isZero();
    List<String> suite = PaperConfig.parseList(PaperConfig.DEFAULT_SUITE).stream().map(PaperConfig::spec).toList();
    assertThat(suite).hasSizeGreaterThan(4);
    String md = Files.readString(out.resolve("report.md"));
    for (String keys : distributions) {
      assertThat(md).contains("## Table 2: flushes, compactions and bytes written — " + keys + " keys");
    }
    for (String config : suite) {
      assertThat(md).as(config).containsPattern("\\| " + config.replace(".", "\\.")
          + " \\| [0-9,]+ \\| [0-9.]+ \\| [0-9.]+ \\|");
    }
    List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
    assertThat(csv).as("a line per run").hasSize(1 + distributions.size() * suite.size());
    for (String line : csv.subList(1, csv.size())) {
      assertThat(line).as("rows of a run at scale " + scale).contains("," + rows + ",");
    }
    List<String> charts = new java.util.ArrayList<>(List.of(PaperCharts.THROUGHPUT));
    distributions.forEach(keys -> charts.add(PaperCharts.gcFileName(keys)));
    for (String png : charts) {
      assertThat(ImageIO.read(out.resolve(png).toFile())).as(png).isNotNull();
    }
  }

  @Test
  void badOptionsExitWithUsageCode() {
    StringWriter buf = new StringWriter();
    assertThat(PaperBench.run(new String[] {"--configs", "LAZY"}, new PrintWriter(buf, true))).isEqualTo(2);
    assertThat(buf.toString()).contains("unknown configuration 'LAZY'");
    for (String[] bad : List.of(new String[] {"--batch", "10", "--batch-bytes", "1000"},
        new String[] {"--batch", "0"}, new String[] {"--fields", "0"}, new String[] {"--field-length", "0"},
        new String[] {"--keys", "latest", "--workload", "read-write"}, new String[] {"--keys", "newest"},
        new String[] {"--write-rate", "1000"}, new String[] {"--workload", "read-write", "--write-rate", "-1"})) {
      StringWriter err = new StringWriter();
      assertThat(PaperBench.run(bad, new PrintWriter(err, true))).as(String.join(" ", bad)).isEqualTo(2);
      assertThat(err.toString()).as(String.join(" ", bad)).startsWith("bench paper: ");
    }
  }

  /** Paced writers: a run's write rate is named at the top of its report, and a writer is never ahead of it. */
  @Test
  void pacedWritersHoldTheirRate() {
    PaperBench.Plan plan = PaperBench.Plan.parse(new String[] {"--workload", "read-write", "--write-rate", "50000"});
    assertThat(PaperBench.preamble(plan)).contains("the writers paced to 50,000 rows/s in all (--write-rate)");
    assertThat(plan.childArgs(plan.configs().get(0), plan.keys().get(0), 0)).containsSequence("--write-rate", "50000");

    PaperMixedRun.Pace pace = new PaperMixedRun.Pace(1000); // 100 rows a call: one call every 100 ms
    long start = System.nanoTime();
    for (int call = 0; call < 4; call++) {
      pace.await(100);
    }
    assertThat(System.nanoTime() - start).as("the fourth call of 100 rows is due 300 ms after the first")
        .isGreaterThanOrEqualTo(300_000_000L);
  }

  /** YCSB's latest keys, rows of another shape and batches by bytes, end to end on both stores. */
  @Test
  void latestKeysOtherRowShapesAndBatchesByBytes() throws IOException {
    Path out = tmp.resolve("shape");
    StringWriter buf = new StringWriter();
    int exit = PaperBench.run(new String[] {"--scale", "0.001", "--keys", "latest", "--configs", "NONE,rocksdb",
        "--fields", "10", "--field-length", "100", "--batch-bytes", "10240", "--out", out.toString(), "--dir",
        tmp.resolve("shape-data").toString(), "--jvm", "-Xms128m -Xmx256m -XX:+UseSerialGC"},
        new PrintWriter(buf, true));
    String printed = buf.toString();
    System.out.println(printed);
    assertThat(exit).isZero();
    RowShape shape = new RowShape(10, 100);
    assertThat(printed).contains("of 10 × 100-byte cells")
        .contains("batches of " + shape.rowsForBytes(10240) + " rows (at least 10,240 bytes)");
    List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
    assertThat(csv).hasSize(3);
    List<String> header = List.of(csv.get(0).split(","));
    for (String line : csv.subList(1, csv.size())) {
      String[] cells = line.split(",");
      assertThat(cells[header.indexOf("keys")]).isEqualTo("latest");
      long rows = Long.parseLong(cells[header.indexOf("rows")]);
      assertThat(Long.parseLong(cells[header.indexOf("userBytes")])).as("user bytes of 10 × 100 B rows")
          .isEqualTo(rows * shape.rowBytes());
      assertThat(Long.parseLong(cells[header.indexOf("flushBytes")])).as("flushed").isPositive();
    }
  }
}
