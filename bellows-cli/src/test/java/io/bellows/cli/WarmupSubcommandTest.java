package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bellows warmup}: a first run loads the store and stops; a later one runs the mix and reports
 * every second and the first seconds' rate against the steady one. {@code --train} (the launcher's
 * warmup-cache) prints nothing on standard output and leaves nothing behind.
 */
class WarmupSubcommandTest {
  private static final long SEED = Long.getLong("bellows.test.seed", System.nanoTime());
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return new CommandLine(new BellowsCli())
        .setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true))
        .setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true))
        .execute(args);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  @Timeout(120)
  void aFirstRunLoadsTheStoreAndALaterRunReportsEachSecondAndTheRatio(@TempDir Path tmp) {
    System.out.println("WarmupSubcommandTest seed " + SEED + " (replay: -Dbellows.test.seed=" + SEED + ")");
    String data = tmp.resolve("d").toString();
    assertThat(run("warmup", "--data", data, "--records", "500", "--seed", Long.toString(SEED))).as(err()).isZero();
    assertThat(out()).contains("loaded 500 records into " + data).doesNotContain("second 1");

    int code = run("warmup", "--data", data, "--seconds", "2", "--first", "1", "--steady-from", "2", "--threads", "2",
        "--seed", Long.toString(SEED));
    assertThat(code).as(out() + err()).isZero();
    assertThat(out()).contains("warmup: 500 records, 2 threads").contains("seed " + SEED)
        .contains("second 1: ").contains("second 2: ")
        .containsPattern("first 1 s: [\\d,]+ ops/s; steady \\(s 2-2\\): [\\d,]+ ops/s; first/steady \\d+\\.\\d\\d")
        .containsPattern("second 1: [\\d,]+ ops, [\\d,]+ ms CPU").containsPattern("(?m)^per CPU-second: ");
    assertThat(out()).doesNotContain("second 3: ");
  }

  @Test
  void secondsOutsideTheRunAndAMissingStoreAreUsageErrors(@TempDir Path tmp) {
    String data = tmp.resolve("d").toString();
    assertThat(run("warmup", "--data", data, "--seconds", "5", "--first", "10")).isEqualTo(2);
    assertThat(err()).contains("--first and --steady-from must be seconds of the run (1 to 5)");
    assertThat(run("warmup")).isEqualTo(2);
    assertThat(err()).contains("--data");
    assertThat(tmp.resolve("d")).doesNotExist();
  }

  @Test
  @Timeout(120)
  void trainingPrintsNothingOnStandardOutputAndLeavesNothingBehind(@TempDir Path tmp) throws Exception {
    System.out.println("WarmupSubcommandTest seed " + SEED + " (replay: -Dbellows.test.seed=" + SEED + ")");
    Path parent = tmp.resolve("train");
    int code = run("warmup", "--train", "--seconds", "1", "--records", "300", "--train-dir", parent.toString(),
        "--seed", Long.toString(SEED));
    assertThat(code).as(err()).isZero();
    assertThat(out()).isEmpty();
    assertThat(err()).contains("training in " + parent).contains("training done");
    try (Stream<Path> left = Files.list(parent)) {
      assertThat(left).isEmpty();
    }
  }
}
