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
  void toolsAreNotAvailableYet() {
    assertThat(run("inspect", "some-file")).isEqualTo(1);
    assertThat(run("wal-dump", "some-dir")).isEqualTo(1);
    assertThat(output()).contains("inspect: not available").contains("wal-dump: not available");
  }

  @Test
  void unknownSubcommandFails() {
    assertThat(run("frobnicate")).isNotZero();
    assertThat(output()).contains("frobnicate");
  }
}
