package io.bellows.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code bellows} launcher runs a server so that a heap exhaustion ends the process (for its
 * supervisor to restart) instead of leaving it half working, and runs {@code bench} and {@code ycsb} in
 * the benchmark lab, which it builds on first use. Runs a copy of the script beside a built product jar,
 * with a {@code java} on the PATH that prints the options it was given and an {@code mvn} that prints its
 * arguments and writes the lab's jar.
 */
class LauncherTest {
  @TempDir Path dir;

  private String launch(String... args) throws IOException, InterruptedException {
    Path root = root();
    Files.createDirectories(root.resolve("bellows-cli/target"));
    Files.copy(Path.of("..", "bellows"), root.resolve("bellows"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(root.resolve("bellows-cli/target/bellows.jar"), ""); // newer than any source: no build
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path fakeJava = bin.resolve("java");
    Files.writeString(fakeJava, "#!/usr/bin/env bash\necho \"java $*\"\n");
    Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path fakeMvn = bin.resolve("mvn");
    Files.writeString(fakeMvn, "#!/usr/bin/env bash\necho \"mvn $*\"\n"
        + "mkdir -p bellows-bench/target && touch bellows-bench/target/benchmarks.jar\n");
    Files.setPosixFilePermissions(fakeMvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<String> command = new ArrayList<>(List.of("bash", root.resolve("bellows").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    pb.environment().remove("BELLOWS_JAVA_OPTS");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  private Path root() {
    return dir.resolve("root");
  }

  @Test
  void benchAndYcsbBuildTheLabOnFirstUseAndRunInIt() throws Exception {
    String lab = root().resolve("bellows-bench/target/benchmarks.jar").toString();
    String first = launch("bench", "paper", "--scale", "0.05");
    assertThat(first).contains("building the benchmark lab (first use)")
        .contains("package -pl bellows-bench -am")
        .contains("java -cp " + lab + " io.bellows.bench.lab.BellowsLab bench paper --scale 0.05");
    String again = launch("ycsb", "load", "--workload", "a");
    assertThat(again).doesNotContain("building").doesNotContain("mvn")
        .contains("java -cp " + lab + " io.bellows.bench.lab.BellowsLab ycsb load --workload a");
  }

  @Test
  void productCommandsNeitherBuildNorUseTheLab() throws Exception {
    String out = launch("inspect", "x");
    assertThat(out).doesNotContain("mvn").contains("-jar " + root().resolve("bellows-cli/target/bellows.jar"));
    assertThat(root().resolve("bellows-bench/target/benchmarks.jar")).doesNotExist();
  }

  @Test
  void aServerExitsOnOutOfMemoryErrorOtherCommandsAreLeftAlone() throws Exception {
    assertThat(launch("server", "--data", "d")).contains("-XX:+ExitOnOutOfMemoryError").contains("server --data d");
    assertThat(launch("shell")).doesNotContain("ExitOnOutOfMemoryError").contains("-jar");
  }
}
