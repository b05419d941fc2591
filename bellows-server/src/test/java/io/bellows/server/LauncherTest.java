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
 * supervisor to restart) instead of leaving it half working. Runs a copy of the script beside a
 * built jar, with a {@code java} on the PATH that prints the options it was given.
 */
class LauncherTest {
  @TempDir Path dir;

  private String launch(String... args) throws IOException, InterruptedException {
    Path root = dir.resolve("root");
    Files.createDirectories(root.resolve("bellows-cli/target"));
    Files.copy(Path.of("..", "bellows"), root.resolve("bellows"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(root.resolve("bellows-cli/target/bellows.jar"), ""); // newer than any source: no build
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path fakeJava = bin.resolve("java");
    Files.writeString(fakeJava, "#!/usr/bin/env bash\necho \"java $*\"\n");
    Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));
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

  @Test
  void aServerExitsOnOutOfMemoryErrorOtherCommandsAreLeftAlone() throws Exception {
    assertThat(launch("server", "--data", "d")).contains("-XX:+ExitOnOutOfMemoryError").contains("server --data d");
    assertThat(launch("shell")).doesNotContain("ExitOnOutOfMemoryError").contains("-jar");
  }
}
