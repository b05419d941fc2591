package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command line's wiring; needs no engine. */
class BellowsCliTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private int run(String... args) {
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    return BellowsCli.execute(new ByteArrayInputStream(new byte[0]), out, args);
  }

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void noArgumentsPrintsUsageWithTheSubcommands() {
    assertThat(run()).isZero();
    assertThat(output()).contains("Usage: bellows").contains("shell").contains("inspect").contains("wal-dump");
  }

  @Test
  void shellHelpNamesItsOptions() {
    assertThat(run("shell", "--help")).isZero();
    assertThat(output()).contains("--data=DIR").contains("bellows-data").contains("--no-timing");
  }

  @Test
  void toolsReportMissingFilesClearly(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
    assertThat(run("inspect", tmp.resolve("missing.sst").toString())).isEqualTo(1);
    assertThat(output()).contains("ERROR:").contains("missing.sst");
  }

  @Test
  void inspectAndWalDumpPrintARealStore(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    try (io.bellows.client.Bellows db = io.bellows.client.Bellows.open(tmp, io.bellows.config.EngineOptions.defaults())) {
      db.createTable(io.bellows.schema.TableDescriptor.builder("t").family("f").build());
      db.getTable("t").put(new io.bellows.client.Put("row1").addColumn("f", "q", "value1"));
      db.flush("t");
      db.getTable("t").put(new io.bellows.client.Put("row2").addColumn("f", "q", "value2"));
    }
    java.nio.file.Path sst;
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(tmp.resolve("tables"))) {
      sst = files.filter(p -> p.toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    assertThat(run("inspect", sst.toString())).isZero();
    assertThat(output()).contains("row1");
    assertThat(run("wal-dump", tmp.resolve("wal").toString())).isZero();
    assertThat(output()).contains("row2");
  }

  @Test
  void shellOnARegularFileSaysItIsNotADirectory(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("somefile"), "x");
    assertThat(run("shell", "--data", file.toString(), "--no-timing")).isEqualTo(2);
    assertThat(output()).isEqualTo("ERROR: cannot open " + file.toAbsolutePath() + ": not a directory\n");
  }

  @Test
  void shellOpenFailuresGiveTheReasonWithoutJavaClassNames(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("somefile"), "x");
    assertThat(run("shell", "--data", file.resolve("data").toString(), "--no-timing")).isEqualTo(2);
    assertThat(output()).startsWith("ERROR: cannot open " + file.resolve("data").toAbsolutePath() + ": ")
        .contains("somefile").doesNotContain("Exception").doesNotContain("java.");

    bytes.reset();
    try (io.bellows.client.Bellows db = io.bellows.client.Bellows.open(tmp.resolve("db"), io.bellows.config.EngineOptions.defaults())) {
      db.createTable(io.bellows.schema.TableDescriptor.builder("t").family("f").build());
      assertThat(run("shell", "--data", tmp.resolve("db").toString(), "--no-timing")).isEqualTo(2);
    }
    assertThat(output()).startsWith("ERROR: cannot open " + tmp.resolve("db").toAbsolutePath() + ": ")
        .contains("in use").doesNotContain("Exception").doesNotContain("io.bellows");

    bytes.reset();
    java.nio.file.Files.writeString(tmp.resolve("db").resolve("CATALOG"), "garbage\n",
        java.nio.file.StandardOpenOption.APPEND);
    assertThat(run("shell", "--data", tmp.resolve("db").toString(), "--no-timing")).isEqualTo(2);
    assertThat(output()).startsWith("ERROR: cannot open " + tmp.resolve("db").toAbsolutePath() + ": ")
        .contains("CATALOG").doesNotContain("Exception").doesNotContain("io.bellows");
  }

  @Test
  void toolErrorsNameTheMissingFileWithoutJavaClassNames(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
    assertThat(run("wal-dump", tmp.resolve("missing").toString())).isEqualTo(1);
    assertThat(output()).contains("ERROR: ").contains("no such file or directory: " + tmp.resolve("missing"))
        .doesNotContain("Exception");
  }

  @Test
  void unknownSubcommandFails() {
    assertThat(run("frobnicate")).isNotZero();
    assertThat(output()).contains("frobnicate");
  }
}
