package io.bellows.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test-only fault file: what its lines mean, how a bad one is refused, and that a change is picked up. */
class TestFaultFileTest {
  @TempDir Path dir;

  @Test
  void cutsAreBothWaysAndStaleReadsIsASwitch() {
    TestFaultFile.Faults f = TestFaultFile.parse("""
        # isolate n1
        cut n1 n2
        cut n3 n1   # either order

        """);
    assertThat(f.cut("n1", "n2")).isTrue();
    assertThat(f.cut("n2", "n1")).isTrue();
    assertThat(f.cut("n1", "n3")).isTrue();
    assertThat(f.cut("n2", "n3")).isFalse();
    assertThat(f.staleReads()).isFalse();
    assertThat(TestFaultFile.parse("stale-reads\n").staleReads()).isTrue();
    assertThat(TestFaultFile.parse("")).isEqualTo(TestFaultFile.Faults.NONE);
  }

  @Test
  void aBadLineIsRefusedNamingIt() {
    assertThatThrownBy(() -> TestFaultFile.parse("cut n1 n2\ncut n1 n1\n")).hasMessageContaining("line 2");
    assertThatThrownBy(() -> TestFaultFile.parse("partition n1")).hasMessageContaining("line 1");
    assertThatThrownBy(() -> TestFaultFile.parse("stale-reads now")).hasMessageContaining("line 1");
  }

  @Test
  void aWatchedFileTakesEffectWhenReadAgainAndABadChangeKeepsTheFaultsBeforeIt() throws Exception {
    Path file = dir.resolve("faults.txt"); // absent: no fault
    try (TestFaultFile faults = TestFaultFile.watch(file)) {
      assertThat(faults.drops("n1", "n2")).isFalse();
      Files.writeString(file, "cut n1 n2\nstale-reads\n");
      faults.poll();
      assertThat(faults.drops("n2", "n1")).isTrue();
      assertThat(faults.staleReads()).isTrue();
      Files.writeString(file, "cut n1\n");
      faults.poll();
      assertThat(faults.drops("n2", "n1")).isTrue();
      Files.delete(file);
      faults.poll();
      assertThat(faults.drops("n2", "n1")).isFalse();
      assertThat(faults.staleReads()).isFalse();
    }
    Files.writeString(file, "nonsense\n");
    assertThatThrownBy(() -> TestFaultFile.watch(file)).hasMessageContaining(file.toString())
        .hasMessageContaining("line 1");
  }
}
