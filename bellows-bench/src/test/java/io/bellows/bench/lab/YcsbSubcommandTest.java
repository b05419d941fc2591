package io.bellows.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bellows ycsb} in the benchmark lab: YCSB's own client, in a child JVM, on a real store. */
class YcsbSubcommandTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private int run(String... args) {
    return BellowsLab.execute(new PrintStream(bytes, true, StandardCharsets.UTF_8), args);
  }

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void ycsbLoadsAndRunsACoreWorkloadAndRefusesBadArguments(@TempDir Path tmp) throws Exception {
    assertThat(run("ycsb", "--help")).isZero();
    assertThat(output()).contains("--workload").contains("read-modify-write").contains("Exit codes:");
    bytes.reset();
    assertThat(run("ycsb", "load", "--workload", "a", "--data", tmp.toString(), "--db", "leveldb")).isEqualTo(2);
    assertThat(output()).contains("unknown store 'leveldb'");
    bytes.reset();
    assertThat(run("ycsb", "load", "--workload", "z", "--data", tmp.toString())).isEqualTo(2);
    assertThat(output()).contains("no workload 'z'");
    Path data = tmp.resolve("db");
    assertThat(run("ycsb", "load", "--workload", "c", "--data", data.toString(), "-p", "recordcount=50")).isZero();
    assertThat(run("ycsb", "run", "--workload", "c", "--data", data.toString(), "--threads", "2",
        "-p", "recordcount=50", "-p", "operationcount=100")).isZero();
    try (Bellows db = Bellows.open(data, EngineOptions.defaults())) {
      try (var s = db.getTable("usertable").getScanner(new io.bellows.client.Scan())) {
        int rows = 0;
        for (var r : s) {
          rows++;
        }
        assertThat(rows).as("the records YCSB loaded").isEqualTo(50);
      }
    }
  }

  /** The child JVM gets the flags of {@code --jvm} (here a GC log, the only trace a flag leaves). */
  @Test
  void jvmFlagsReachYcsbsJvm(@TempDir Path tmp) {
    Path gcLog = tmp.resolve("gc.log");
    assertThat(run("ycsb", "load", "--workload", "c", "--data", tmp.resolve("db").toString(), "-p", "recordcount=20",
        "--jvm", " -Xmx256m  -Xlog:gc:file=" + gcLog + " ")).isZero();
    assertThat(gcLog).exists();
  }
}
