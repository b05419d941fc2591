package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Put;
import io.bellows.config.EngineOptions;
import io.bellows.util.Bytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bellows stress}: a short run finds no violation, in one process and across real SIGKILLs;
 * and it does find one when the store loses or garbles an acknowledged write (here, made by hand
 * between two runs), so a zero in its summary means something.
 */
class StressSubcommandTest {
  private static final long SEED = Long.getLong("bellows.test.seed", System.nanoTime());
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private int run(String... args) {
    bytes.reset();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    return BellowsCli.execute(new ByteArrayInputStream(new byte[0]), out, args);
  }

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static long figure(String output, String label) {
    Matcher m = Pattern.compile("(?m)^  " + label + "\\s+([\\d,]+)").matcher(output);
    assertThat(m.find()).as("summary line '%s' in:%n%s", label, output).isTrue();
    return Long.parseLong(m.group(1).replace(",", ""));
  }

  @Test
  @Timeout(120)
  void aShortRunInOneProcessFindsNoViolationAndVerifiesEveryKeyAfterReopening(@TempDir Path tmp) {
    System.out.println("StressSubcommandTest seed " + SEED + " (replay: -Dbellows.test.seed=" + SEED + ")");
    int code = run("stress", "--dir", tmp.resolve("s").toString(), "--duration", "3s", "--keys", "300",
        "--threads", "3", "--seed", Long.toString(SEED), "--set", "IN_MEMORY_COMPACTION=EAGER");
    assertThat(code).as(output()).isZero();
    assertThat(figure(output(), "violations")).isZero();
    assertThat(figure(output(), "operations")).isPositive();
    // 300 keys before the run (all absent) and 300 after the reopen.
    assertThat(figure(output(), "verified")).isEqualTo(600);
    assertThat(output()).contains("replay with --seed " + SEED);
  }

  @Test
  void aWrongSetIsRefusedBeforeTheRunNamingTheKnob(@TempDir Path tmp) {
    int code = run("stress", "--dir", tmp.resolve("s").toString(), "--duration", "1s", "--seed", "1",
        "--set", "IN_MEMORY_COMPACTION=SOMETIMES");
    assertThat(code).isEqualTo(2);
    assertThat(output()).contains("--set IN_MEMORY_COMPACTION: cannot read 'SOMETIMES' as one of NONE BASIC EAGER ADAPTIVE");
    assertThat(tmp.resolve("s")).doesNotExist();
  }

  @Test
  @Timeout(300)
  void killsWithSigkillLoseNoAcknowledgedWrite(@TempDir Path tmp) {
    System.out.println("StressSubcommandTest seed " + SEED + " (replay: -Dbellows.test.seed=" + SEED + ")");
    int code = run("stress", "--dir", tmp.resolve("s").toString(), "--duration", "12s", "--kill-every", "600ms",
        "--keys", "500", "--threads", "3", "--seed", Long.toString(SEED), "--report-every", "5s");
    assertThat(code).as(output()).isZero();
    assertThat(figure(output(), "kills")).as(output()).isPositive();
    assertThat(figure(output(), "violations")).isZero();
  }

  @Test
  @Timeout(180)
  void simulatedPowerLossesWhileWritingLoseNoAcknowledgedWrite(@TempDir Path tmp) {
    int code = run("stress", "--dir", tmp.resolve("s").toString(), "--fs", "crashable", "--duration", "5s",
        "--kill-every", "700ms", "--keys", "500", "--threads", "3", "--seed", Long.toString(SEED));
    assertThat(code).as(output()).isZero();
    assertThat(figure(output(), "kills")).as(output()).isPositive();
    assertThat(output()).contains("simulated power losses");
    assertThat(figure(output(), "violations")).isZero();
  }

  @Test
  @Timeout(180)
  void faultWindowsEndingInAPowerLossLoseNoAcknowledgedWrite(@TempDir Path tmp) {
    int code = run("stress", "--dir", tmp.resolve("s").toString(), "--fs", "crashable", "--fault-rate", "0.02",
        "--duration", "5s", "--kill-every", "500ms", "--keys", "500", "--threads", "3", "--seed", Long.toString(SEED));
    assertThat(code).as(output()).isZero();
    assertThat(figure(output(), "kills")).as(output()).isGreaterThan(1);
    assertThat(output()).containsPattern("injected faults: [1-9]");
    assertThat(figure(output(), "violations")).isZero();
  }

  @Test
  @Timeout(180)
  void injectedIoErrorsLoseNoAcknowledgedWrite(@TempDir Path tmp) {
    int code = run("stress", "--dir", tmp.resolve("s").toString(), "--fs", "faulty", "--fault-rate", "0.01",
        "--duration", "5s", "--kill-every", "700ms", "--keys", "500", "--threads", "3", "--seed", Long.toString(SEED));
    assertThat(code).as(output()).isZero();
    assertThat(output()).containsPattern("injected faults: [1-9]");
    assertThat(figure(output(), "violations")).isZero();
  }

  @Test
  @Timeout(120)
  void aLostOrGarbledRowIsReportedAsAViolation(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("s");
    assertThat(run("stress", "--dir", dir.toString(), "--duration", "2s", "--keys", "50", "--threads", "2",
        "--seed", Long.toString(SEED))).as(output()).isZero();
    // Damage two rows behind the tool's back: one deleted, one with a column from no write of the run.
    try (Bellows db = Bellows.open(dir.resolve("db"), EngineOptions.defaults())) {
      var t = db.getTable("stress");
      t.delete(new Delete(Bytes.of("k00000007")));
      t.put(new Put(Bytes.of("k00000008")).addColumn(Bytes.of("f"), Bytes.of("c1"), Long.MAX_VALUE - 1,
          new byte[100]));
    }
    int code = run("stress", "--dir", dir.toString(), "--duration", "0s", "--keys", "50", "--threads", "2");
    assertThat(code).isEqualTo(1);
    assertThat(figure(output(), "violations")).isGreaterThanOrEqualTo(1);
    assertThat(output()).contains("VIOLATION").contains("k00000008");
  }

  @Test
  void refusesADirectoryItDidNotMakeAndADurabilityThatMayLoseWrites(@TempDir Path tmp) throws Exception {
    Files.writeString(tmp.resolve("precious.txt"), "mine");
    assertThat(run("stress", "--dir", tmp.toString(), "--duration", "1s")).isEqualTo(2);
    assertThat(output()).contains("is neither empty nor a stress directory");
    assertThat(Files.readString(tmp.resolve("precious.txt"))).isEqualTo("mine");
    assertThat(run("stress", "--dir", tmp.resolve("new").toString(), "--durability", "ASYNC_WAL")).isEqualTo(2);
    assertThat(output()).contains("--durability must be SYNC_WAL or FSYNC_WAL");
    assertThat(run("stress", "--dir", tmp.resolve("new").toString(), "--duration", "soon")).isEqualTo(2);
    assertThat(output()).contains("not a time: 'soon'");
    assertThat(run("stress", "--dir", tmp.resolve("new").toString(), "--fs", "crashable")).isEqualTo(2);
    assertThat(output()).contains("--fs crashable needs --kill-every");
  }
}
