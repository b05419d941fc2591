package io.bellows.ycsb.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's command line, and one tiny comparison end to end (four child JVMs). */
class AdapterCostTest {
  @TempDir Path dir;

  @Test
  void defaultsAreTheDocumentedOnesAndScaleMultipliesTheCounts() {
    AdapterCost.Plan p = AdapterCost.Plan.parse();
    assertThat(p.workloads()).containsExactly("a", "c");
    assertThat(p.records()).isEqualTo(200_000);
    assertThat(p.ops()).isEqualTo(400_000);
    assertThat(p.threads()).isEqualTo(4);
    assertThat(p.rounds()).isEqualTo(2);
    assertThat(p.jvmFlags()).contains("-Xmx2g", "--add-opens=java.base/java.nio=ALL-UNNAMED");
    assertThat(p.jfr()).isFalse();

    AdapterCost.Plan q = AdapterCost.Plan.parse("--scale", "0.5", "--records", "1000", "--workloads", "b",
        "--jvm", " -Xmx1g  -XX:+UseSerialGC ", "--jfr", "-p", "fieldcount=4", "--rounds", "1");
    assertThat(q.records()).isEqualTo(500);
    assertThat(q.ops()).isEqualTo(200_000);
    assertThat(q.workloads()).containsExactly("b");
    assertThat(q.jvmFlags()).containsExactly("-Xmx1g", "-XX:+UseSerialGC");
    assertThat(q.jfr()).isTrue();
    assertThat(q.properties()).containsExactly("fieldcount=4");
    assertThat(q.rounds()).isEqualTo(1);
  }

  @Test
  void badOptionsAreRefusedByName() {
    assertThatThrownBy(() -> AdapterCost.Plan.parse("--recrods", "5")).hasMessageContaining("unknown option --recrods");
    assertThatThrownBy(() -> AdapterCost.Plan.parse("--threads", "0")).hasMessageContaining("--threads must be at least 1");
    assertThatThrownBy(() -> AdapterCost.Plan.parse("--ops")).hasMessageContaining("missing value for --ops");
    assertThatThrownBy(() -> AdapterCost.Plan.parse("-p", "novalue")).hasMessageContaining("name=value");
    assertThatThrownBy(() -> AdapterCost.Plan.parse("--scale", "0")).hasMessageContaining("--scale must be positive");
  }

  @Test
  void aTinyComparisonRunsBothBindingsAndWritesTheReport() throws Exception {
    HadoopLogin.assumeWorks();
    Path out = dir.resolve("out");
    AdapterCost.Plan plan = AdapterCost.Plan.parse("--workloads", "c", "--records", "300", "--ops", "600", "--threads", "2",
        "--rounds", "1", "--out", out.toString(), "--dir", dir.resolve("data").toString(),
        "-p", "dataintegrity=true", "-p", "fieldcount=4");
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    CostReport report = AdapterCost.run(plan, new PrintStream(log, true, StandardCharsets.UTF_8));

    String printed = log.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains("warm-up, native", "warm-up, hbase-api", "[1/4", "[4/4", "workload c, hbase-api load", "workload c, native    run");
    assertThat(report.throughput("c", "load", Binding.NATIVE, CostReport.YCSB)).isPositive();
    assertThat(report.ratio("c", "run", CostReport.YCSB)).isPositive();
    assertThat(Files.readString(out.resolve("report.md"))).contains("| `c` | load |", "| `c` | run | READ |");
    assertThat(Files.readAllLines(out.resolve("runs.csv"))).hasSize(1 + 2 * 2 + 2 * 3)
        .anyMatch(l -> l.contains(",hbase-api,run,") && l.contains(",READ,600,"));
    List<String> logs;
    try (var files = Files.list(out.resolve("logs"))) {
      logs = files.map(f -> f.getFileName().toString()).sorted().toList();
    }
    assertThat(logs).containsExactly("r1-c-hbase-api-load.txt", "r1-c-hbase-api-run.txt", "r1-c-native-load.txt",
        "r1-c-native-run.txt", "warmup-hbase-api-load.txt", "warmup-native-load.txt");
    assertThat(Files.readString(out.resolve("logs/r1-c-hbase-api-run.txt"))).contains("[VERIFY], Return=OK");
    try (var left = Files.list(dir.resolve("data"))) {
      assertThat(left).as("each data directory is deleted after its run").isEmpty();
    }
  }
}
