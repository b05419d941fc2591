package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bellows shell --set name=value}: engine knobs of the data directory the shell opens. */
class ShellSettingsTest {
  @TempDir Path tmp;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private int shell(String script, String... args) {
    String[] all = new String[args.length + 4];
    all[0] = "shell";
    all[1] = "--data";
    all[2] = tmp.resolve("db").toString();
    all[3] = "--no-timing";
    System.arraycopy(args, 0, all, 4, args.length);
    return BellowsCli.execute(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(bytes, true, StandardCharsets.UTF_8), all);
  }

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void anEngineKnobReachesTheEngine() {
    String script = "create 't', 'f'\nput 't', 'r1', 'f:q', '0123456789abcdef'\n";
    shell(script, "--set", "bellows.max.value.size=8");
    assertThat(output()).contains("bellows.max.value.size = 8");
    bytes.reset();
    shell("put 't', 'r2', 'f:q', '0123456789abcdef'\nget 't', 'r2'\n");
    assertThat(output()).doesNotContain("bellows.max.value.size").contains("value=0123456789abcdef");
  }

  @Test
  void aWrongValueNamesTheKnobAndWhatItAccepts() {
    assertThat(shell("", "--set", "bellows.kvcache.policy=MRU")).isEqualTo(2);
    assertThat(output()).startsWith("ERROR: --set bellows.kvcache.policy: cannot read 'MRU' as one of");
  }

  @Test
  void unknownNamesAndKnobsOfTablesAreRefused() {
    assertThat(shell("", "--set", "bellows.no.such=1")).isEqualTo(2);
    assertThat(output()).contains("unknown setting 'bellows.no.such'");
    bytes.reset();
    assertThat(shell("", "--set", "VERSIONS=3")).isEqualTo(2);
    assertThat(output()).contains("VERSIONS (a family setting): not settable here; set table and family knobs with"
        + " create and alter");
  }
}
