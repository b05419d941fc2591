package io.bellows.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bellows bench read}: its usage, its errors and one tiny run through the command line. */
class BenchReadSubcommandTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private int run(String... args) {
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    return BellowsLab.execute(out, args);
  }

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void benchListsReadAndReadHelpNamesItsOptions() {
    assertThat(run("bench", "--help")).isZero();
    assertThat(output()).contains("paper").contains("read");
    bytes.reset();
    assertThat(run("bench", "read", "--help")).isZero();
    assertThat(output()).contains("SAC 2024").contains("--scale S").contains("--workloads LIST")
        .contains("--configs LIST").contains("--seed N").contains("--out DIR");
  }

  @Test
  void badOptionsExitWithTwoAndSayWhy() {
    assertThat(run("bench", "read", "--workloads", "B-zipf,Z")).isEqualTo(2);
    assertThat(output()).contains("bench read: unknown workload 'Z'");
    bytes.reset();
    assertThat(run("bench", "read", "--scale")).isEqualTo(2);
    assertThat(output()).contains("bench read: missing value for --scale");
  }

  @Test
  void aTinyRunWritesItsReport(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("out");
    assertThat(run("bench", "read", "--rows", "300", "--ops", "200", "--warmup", "50", "--configs", "D(32)+KVC",
        "--workloads", "C-uniform", "--out", out.toString(), "--dir", tmp.toString(), "--jvm", "inline"))
        .as(output()).isZero();
    assertThat(output()).contains("| C-uniform | D(32)+KVC |");
    assertThat(Files.readString(out.resolve("report.md"))).contains("## Targets (B-zipf)");
  }
}
