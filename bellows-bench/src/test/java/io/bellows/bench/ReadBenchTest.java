package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.L1Admission;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code bench read} end to end at a tiny scale: every configuration and workload (in this JVM,
 * to stay fast) and a few in child JVMs as the real suite runs them. Checks the report's shape and
 * that every get found its row; no figure is checked against a threshold.
 */
class ReadBenchTest {
  private static final long SEED = Long.getLong("bellows.test.seed", 42);

  @TempDir
  Path tmp;

  @Test
  void everyConfigurationAndWorkloadFindsEveryRow() throws IOException {
    System.out.println("seed " + SEED);
    Path out = tmp.resolve("out");
    String printed = run(0, "--rows", "3000", "--ops", "2000", "--warmup", "400", "--configs",
        ReadConfig.DEFAULT_SUITE, "--workloads", "B-zipf,B-zipf-ordered,B-uniform,C-zipf,C-zipf-ordered,C-uniform,CBMG,C-hot",
        "--seed",
        Long.toString(SEED), "--out", out.toString(), "--dir", tmp.resolve("data").toString(), "--jvm", "inline");
    assertThat(printed).contains("[1/102] load 64KB/S ...").contains("[102/102] C-hot rocksdb+rowcache: ");

    String md = Files.readString(out.resolve("report.md"));
    assertThat(md).contains("## Runs").contains("## Targets (B-zipf)").contains("D(32)+KVC ÷ 64KB/S throughput");
    assertThat(printed).contains(md.substring(md.indexOf("## Runs")));
    for (ReadWorkload w : ReadWorkload.values()) {
      for (ReadConfig c : ReadConfig.ALL) {
        assertThat(md).containsPattern("\\| " + w.label + " \\| " + c.label().replace("(", "\\(").replace(")", "\\)")
            .replace("+", "\\+") + " \\| [0-9,]+ \\| [0-9]+ \\| [0-9]+ \\| [0-9]+ \\| [0-9.]+ \\| [0-9.]+\\*? \\|");
      }
    }

    List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
    assertThat(csv).hasSize(1 + ReadWorkload.values().length * ReadConfig.ALL.size());
    List<String> header = List.of(csv.get(0).split(","));
    List<String> blocks = new ArrayList<>();
    for (String line : csv.subList(1, csv.size())) {
      String[] cells = line.split(",", -1);
      assertThat(cells).hasSize(header.size());
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.MISSES)])).as(line).isZero();
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.GETS)])).as(line).isPositive();
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.OPS)])).as(line).isEqualTo(2000);
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.OPS_PER_SECOND)])).as(line).isPositive();
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.RETURNED_PAGES)])).as(line).isPositive();
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.DATA_BLOCKS)])).as(line).isPositive();
      blocks.add(cells[1] + "=" + cells[header.indexOf(ReadResult.DATA_BLOCKS)]);
      if (cells[1].endsWith("+KVC")) { // the KV cache's sizing steps are counted (none at this size)
        assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.KV_GROWS)])).as(line).isNotNegative();
        assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.KV_SHRINKS)])).as(line).isNotNegative();
      }
      if (cells[0].startsWith("B-")) {
        assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.UPDATES)])).as(line).isPositive();
      } else {
        assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.UPDATES)])).as(line).isZero();
      }
    }
    assertThat(blocks).as("64 KiB blocks are fewer than 4 KiB ones").contains("64KB/S=" + blockCount(csv, "64KB/S"));
    assertThat(blockCount(csv, "64KB/S")).isLessThan(blockCount(csv, "4KB/S"));

    List<String> charts = new ArrayList<>(List.of(ReadCharts.THROUGHPUT, ReadCharts.READ_AMPLIFICATION,
        ReadCharts.HIT_RATIO));
    for (ReadWorkload w : ReadWorkload.values()) {
      charts.add(ReadCharts.latencyFileName(w.label));
    }
    for (String png : charts) {
      BufferedImage image = ImageIO.read(out.resolve(png).toFile());
      assertThat(image).as(png).isNotNull();
      assertThat(image.getWidth()).isGreaterThan(100);
    }
    try (Stream<Path> left = Files.list(tmp.resolve("data"))) {
      assertThat(left).as("the suite deletes its data").isEmpty();
    }
  }

  @Test
  void stepsRunInChildJvms() throws IOException {
    Path out = tmp.resolve("child");
    run(0, "--rows", "2000", "--ops", "1000", "--warmup", "200", "--configs", "64KB/S+KVC,rocksdb+rowcache",
        "--workloads", "B-zipf", "--seed", Long.toString(SEED), "--out", out.toString(), "--dir",
        tmp.resolve("data").toString(), "--jvm", "-Xms128m -Xmx256m -XX:+UseSerialGC", "--window", "400");
    List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
    assertThat(csv).hasSize(3);
    List<String> header = List.of(csv.get(0).split(","));
    assertThat(header).noneMatch(h -> h.startsWith(ReadRunner.WINDOW_PREFIX));
    for (String line : csv.subList(1, csv.size())) {
      assertThat(Double.parseDouble(line.split(",", -1)[header.indexOf(ReadResult.MISSES)])).as(line).isZero();
    }
    // 1,000 measured operations in windows of 400: 400, 400 and the 200 left, for each run.
    List<String> windows = Files.readAllLines(out.resolve("windows.csv"));
    assertThat(windows.get(0)).isEqualTo("workload,config,window,ops,seconds,readAmpPages,readAmpBytes,hitRatio");
    assertThat(windows.subList(1, windows.size())).extracting(l -> String.join(",", List.of(l.split(",")).subList(0, 4)))
        .containsExactly("B-zipf,64KB/S+KVC,1,400", "B-zipf,64KB/S+KVC,2,400", "B-zipf,64KB/S+KVC,3,200",
            "B-zipf,rocksdb+rowcache,1,400", "B-zipf,rocksdb+rowcache,2,400", "B-zipf,rocksdb+rowcache,3,200");
    for (String line : windows.subList(1, windows.size())) {
      String[] cells = line.split(",", -1);
      assertThat(Double.parseDouble(cells[4])).as("seconds of %s", line).isPositive();
      assertThat(Double.parseDouble(cells[5])).as("read amplification of %s", line).isNotNegative();
    }
    assertThat(Files.readString(out.resolve("report.md"))).contains("## Read amplification (pages) per window");
    assertThat(ImageIO.read(out.resolve(ReadCharts.READ_AMPLIFICATION_WINDOWS).toFile())).isNotNull();
  }

  /**
   * A Bellows configuration may keep its data blocks in L2 ({@code @L2}; with the KV cache, in an L1
   * of its own): every get still finds its row. Not in the default suite; no RocksDB variant of it.
   */
  @Test
  void layoutsMayKeepTheBudgetInL2Alone() throws IOException {
    assertThat(ReadConfig.parse("64KB/S@L2")).isEqualTo(new ReadConfig(ReadLayout.STATIC_64K, false, true));
    assertThat(ReadConfig.ALL).noneMatch(ReadConfig::offHeap);
    assertThat(ReadConfig.parse("64KB/S+KVC@L2")).isEqualTo(new ReadConfig(ReadLayout.STATIC_64K, true, true));
    for (String bad : List.of("rocksdb@L2", "rocksdb+rowcache@L2")) {
      assertThatThrownBy(() -> ReadConfig.parse(bad))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad);
    }
    EngineOptions o = BellowsReadStore.offHeapOptions(64L << 20);
    assertThat(o.get(Knobs.BLOCKCACHE_L1_SIZE)).isZero();
    assertThat(o.get(Knobs.BLOCKCACHE_L1_FRACTION)).isZero();
    assertThat(o.get(Knobs.BLOCKCACHE_L2_SIZE)).isEqualTo(64L << 20);
    EngineOptions kv = BellowsReadStore.offHeapKvOptions(64L << 20);
    assertThat(kv.get(Knobs.BLOCKCACHE_L1_SIZE)).isEqualTo(ReadConfig.KV_L1_BYTES);
    assertThat(kv.get(Knobs.BLOCKCACHE_L1_ADMISSION)).isEqualTo(L1Admission.NONE);
    assertThat(kv.get(Knobs.BLOCKCACHE_L2_SIZE)).isEqualTo((64L << 20) - ReadConfig.KV_L1_BYTES);

    Path out = tmp.resolve("l2");
    run(0, "--rows", "2000", "--ops", "1000", "--warmup", "200", "--configs", "64KB/S@L2,D(8)@L2,64KB/S+KVC@L2",
        "--workloads", "B-zipf,C-uniform", "--seed", Long.toString(SEED), "--out", out.toString(), "--dir",
        tmp.resolve("data").toString(), "--jvm", "inline");
    assertThat(Files.readString(out.resolve("report.md"))).contains("* @L2: Bellows' data blocks in the off-heap L2")
        .contains("+KVC@L2: an L1 of 20 MiB that takes no data blocks");
    List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
    assertThat(csv).hasSize(7);
    List<String> header = List.of(csv.get(0).split(","));
    for (String line : csv.subList(1, csv.size())) {
      String[] cells = line.split(",", -1);
      assertThat(cells[1]).endsWith("@L2");
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.MISSES)])).as(line).isZero();
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.CACHED_LOOKUPS)])).as("L2 served gets: %s", line)
          .isPositive();
    }
  }

  @Test
  void directIoRunsReadEveryRowOrFailWhereTheFileSystemHasNone() throws IOException {
    Path out = tmp.resolve("direct");
    Path data = tmp.resolve("data");
    Files.createDirectories(data);
    boolean supported;
    Path probe = Files.write(data.resolve("probe"), new byte[4096]);
    try (java.nio.channels.FileChannel ignored = java.nio.channels.FileChannel.open(probe,
        java.nio.file.StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT)) {
      supported = true;
    } catch (IOException | UnsupportedOperationException e) {
      supported = false;
    }
    Files.delete(probe);
    String printed = run(supported ? 0 : 1, "--rows", "2000", "--ops", "1000", "--warmup", "200", "--configs",
        "D(32)+KVC,rocksdb", "--workloads", "B-zipf", "--seed", Long.toString(SEED), "--out", out.toString(),
        "--dir", data.toString(), "--jvm", "inline", "--direct-io", "true");
    assertThat(printed).contains("direct I/O (O_DIRECT)");
    if (!supported) {
      System.out.println("no direct I/O in " + data + ": checked that the runs fail rather than read cached files");
      assertThat(printed).contains("FAILED");
      return;
    }
    List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
    assertThat(csv).hasSize(3);
    List<String> header = List.of(csv.get(0).split(","));
    for (String line : csv.subList(1, csv.size())) {
      String[] cells = line.split(",", -1);
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.MISSES)])).as(line).isZero();
      assertThat(Double.parseDouble(cells[header.indexOf(ReadResult.GETS)])).as(line).isPositive();
    }
  }

  @Test
  void aFailedStepIsReportedAndTheSuiteExitsWithOne() throws IOException {
    String printed = run(1, "--rows", "100", "--ops", "100", "--configs", "4KB/S", "--workloads", "C-zipf",
        "--out", tmp.resolve("failed").toString(), "--dir", tmp.resolve("data").toString(), "--jvm", "-Xmx1k");
    assertThat(printed).contains("[1/2] load 4KB/S: FAILED: the child JVM exited with").contains("2 of 2 steps failed");
    assertThat(Files.readString(tmp.resolve("failed").resolve("report.md"))).contains("| C-zipf | 4KB/S | - | - |");
  }

  @Test
  void badOptionsExitWithUsageCode() {
    assertThat(run(2, "--configs", "8KB/S")).contains("unknown configuration '8KB/S'");
    assertThat(run(2, "--workloads", "A-zipf")).contains("unknown workload 'A-zipf'");
    assertThat(run(2, "--scale", "0")).contains("--scale must be positive");
    assertThat(run(2, "--window", "-1")).contains("--window takes a number of operations");
    assertThat(run(2, "--direct-io", "yes")).contains("--direct-io takes true or false");
    assertThat(run(2, "--sclae", "1")).contains("unknown option --sclae");
  }

  private static long blockCount(List<String> csv, String config) {
    List<String> header = List.of(csv.get(0).split(","));
    return csv.stream().skip(1).map(l -> l.split(",", -1)).filter(c -> c[1].equals(config))
        .mapToLong(c -> (long) Double.parseDouble(c[header.indexOf(ReadResult.DATA_BLOCKS)])).findFirst()
        .orElseThrow();
  }

  private static String run(int expectedExit, String... args) {
    StringWriter buf = new StringWriter();
    int exit = ReadBench.run(args, new PrintWriter(buf, true));
    String printed = buf.toString();
    System.out.println(printed);
    assertThat(exit).as(printed).isEqualTo(expectedExit);
    return printed;
  }
}
