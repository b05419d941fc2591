package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.config.EngineOptions;
import io.bellows.util.Bytes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a child JVM with SIGKILL while its split waits at a step (with acknowledged rows only in the
 * WAL when the split began, and a writer blocked by the split): the reopened directory holds the
 * parent alone (before the commit) or both daughters (from it), every acknowledged row exactly
 * once, and no split intent.
 */
class SplitCrashTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"flushed", "intent-written", "daughter-a-linked", "daughters-linked", "committed",
      "parent-closed"})
  @Timeout(120)
  void sigkillDuringASplitRecoversToParentOrDaughters(String step) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        SplitCrashWriter.class.getName(), dir.toString(), step);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    TreeSet<Integer> acked = new TreeSet<>();
    boolean paused = false;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("ACK ")) {
          acked.add(Integer.parseInt(line.substring(4)));
        } else if (line.startsWith("PAUSED ")) {
          paused = true;
          p.destroyForcibly(); // SIGKILL on Unix
          break;
        }
      }
    } finally {
      p.destroyForcibly();
      p.waitFor();
    }
    assertThat(paused).as("the child reached step %s", step).isTrue();
    assertThat(acked).hasSizeGreaterThanOrEqualTo(600);
    boolean committed = SplitListener.STEPS.indexOf(step) >= SplitListener.STEPS.indexOf("committed");
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      List<RegionInfo> regions = db.regions(SplitCrashWriter.TABLE);
      assertThat(regions).hasSize(committed ? 2 : 1);
      TreeSet<Integer> present = new TreeSet<>();
      try (ResultScanner s = db.getTable(SplitCrashWriter.TABLE).getScanner(new Scan())) {
        for (Result r : s) {
          int n = Integer.parseInt(Bytes.str(r.row()).substring(1));
          assertThat(present.add(n)).as("row %d once", n).isTrue();
          assertThat(r.getValue(SplitCrashWriter.FAMILY, Bytes.of("q"))).isEqualTo(SplitCrashWriter.value(n));
        }
      }
      assertThat(present).containsAll(acked);
      try (Stream<Path> s = Files.list(dir.resolve("tables").resolve("1-" + SplitCrashWriter.TABLE))) {
        assertThat(s.count()).as("region directories").isEqualTo(regions.size());
      }
      assertThat(Files.readString(dir.resolve("CATALOG"))).doesNotContain("split-intent");
    }
  }
}
