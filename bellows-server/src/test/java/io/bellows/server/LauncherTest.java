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

  /** What a launch printed on each stream, and its exit code. */
  private record Launch(String out, String err, int exit) {}

  /**
   * A JDK home of the given version (its {@code release} file as JDKs write it) whose {@code java} prints
   * the options it was given and, told to record a class-data archive, writes one where it is told.
   */
  private Path fakeJdk(String name, String version) throws IOException {
    Path home = dir.resolve(name);
    Path bin = Files.createDirectories(home.resolve("bin"));
    Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + version + "\"\n"
        + "JAVA_VERSION_DATE=\"2026-01-01\"\n");
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/usr/bin/env bash\necho \"java $*\"\n"
        + "for a in \"$@\"; do case \"$a\" in -XX:ArchiveClassesAtExit=*|-XX:AOTCacheOutput=*)"
        + " echo archive >\"${a#*=}\";; esac; done\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return home;
  }

  /** Runs the launcher (as {@link #launch}) with {@code jdk}'s java first on the PATH and {@code env} set. */
  private Launch launchWith(Path jdk, java.util.Map<String, String> env, String... args) throws Exception {
    if (!Files.exists(root().resolve("bellows"))) {
      launch("inspect", "x"); // lays out the root, the jar and the fake mvn (later launches keep the jar's time)
    }
    List<String> command = new ArrayList<>(List.of("bash", root().resolve("bellows").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("PATH", jdk.resolve("bin") + ":" + dir.resolve("bin") + ":" + System.getenv("PATH"));
    pb.environment().remove("BELLOWS_JAVA_OPTS");
    pb.environment().remove("BELLOWS_CDS");
    pb.environment().putAll(env);
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Launch(Files.readString(out), Files.readString(err), p.exitValue());
  }

  private Path archive(Path jdk, String version, String kind) {
    String id = jdk.toString().replace('/', '_').replaceFirst("^_", "");
    return root().resolve("bellows-cli/target/class-data/" + id + "-" + version + "." + kind);
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

  @Test
  void withoutAnArchiveCommandsGetNoClassSharingOptions() throws Exception {
    Path jdk = fakeJdk("jdk17", "17.0.15");
    Launch shell = launchWith(jdk, java.util.Map.of(), "shell");
    assertThat(shell.out()).startsWith("java -jar ").doesNotContain("SharedArchiveFile").doesNotContain("AOTCache");
  }

  @Test
  void warmupCacheOnJdk17RecordsADynamicArchiveThatProductCommandsThenUse() throws Exception {
    Path jdk = fakeJdk("jdk17", "17.0.15");
    Path archive = archive(jdk, "17.0.15", "cds");
    Launch made = launchWith(jdk, java.util.Map.of(), "warmup-cache");
    assertThat(made.exit()).as(made.err()).isZero();
    assertThat(made.out()).as("nothing on standard output").isEmpty();
    assertThat(made.err()).contains("java -XX:ArchiveClassesAtExit=" + archive + ".tmp.")
        .contains(" warmup --train").contains("wrote " + archive);
    assertThat(archive).hasContent("archive");
    assertThat(archive.resolveSibling(archive.getFileName() + ".tmp")).doesNotExist();

    assertThat(made.err()).contains("used only with BELLOWS_CDS=on");
    Launch auto = launchWith(jdk, java.util.Map.of(), "shell");
    assertThat(auto.out()).as("JDK 17's archive only when asked for").doesNotContain("SharedArchiveFile");
    for (String command : List.of("shell", "server")) {
      Launch run = launchWith(jdk, java.util.Map.of("BELLOWS_CDS", "on"), command);
      assertThat(run.out()).contains("-XX:SharedArchiveFile=" + archive + " -Xshare:auto -Xlog:cds*=off -jar ");
      assertThat(run.err()).isEmpty();
    }
    Launch lab = launchWith(jdk, java.util.Map.of("BELLOWS_CDS", "on"), "ycsb", "run");
    assertThat(lab.out()).as("the lab is another jar").doesNotContain("SharedArchiveFile");
    Launch off = launchWith(jdk, java.util.Map.of("BELLOWS_CDS", "off"), "shell");
    assertThat(off.out()).doesNotContain("SharedArchiveFile");
  }

  @Test
  void warmupCacheOnJdk25RecordsAnAotCache() throws Exception {
    Path jdk = fakeJdk("jdk25", "25.0.1");
    Path archive = archive(jdk, "25.0.1", "aot");
    Path oldLog = archive.resolveSibling(archive.getFileName() + ".log.3");
    Files.createDirectories(oldLog.getParent());
    Files.writeString(oldLog, "an earlier training's messages, rotated by the JVM");
    Launch made = launchWith(jdk, java.util.Map.of(), "warmup-cache");
    assertThat(oldLog).as("a training's logs replace the last one's").doesNotExist();
    assertThat(made.exit()).as(made.err()).isZero();
    assertThat(made.out()).isEmpty();
    assertThat(made.err()).contains("java -XX:AOTCacheOutput=" + archive + ".tmp.");
    assertThat(launchWith(jdk, java.util.Map.of(), "shell").out())
        .contains("-XX:AOTCache=" + archive + " -XX:AOTMode=auto -Xlog:aot*=off -Xlog:cds*=off -jar ");
  }

  @Test
  void anArchiveOfAnotherJdkOrOlderThanTheJarIsNotUsed() throws Exception {
    Path jdk17 = fakeJdk("jdk17", "17.0.15");
    Path jdk25 = fakeJdk("jdk25", "25.0.1");
    assertThat(launchWith(jdk17, java.util.Map.of(), "warmup-cache").exit()).isZero();
    assertThat(launchWith(jdk25, java.util.Map.of("BELLOWS_CDS", "on"), "shell").out()).doesNotContain("-XX:");

    Path jar = root().resolve("bellows-cli/target/bellows.jar");
    Files.setLastModifiedTime(archive(jdk17, "17.0.15", "cds"),
        java.nio.file.attribute.FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
    assertThat(launchWith(jdk17, java.util.Map.of("BELLOWS_CDS", "on"), "shell").out()).doesNotContain("SharedArchiveFile");
  }

  @Test
  void aBadBellowsCdsIsRefused() throws Exception {
    Launch bad = launchWith(fakeJdk("jdk25", "25.0.1"), java.util.Map.of("BELLOWS_CDS", "yes"), "shell");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("BELLOWS_CDS must be auto, on or off: 'yes'");
    assertThat(bad.out()).isEmpty();
  }

  @Test
  void warmupCacheRefusesAJavaItCannotIdentify() throws Exception {
    Path jdk = fakeJdk("jdk17", "17.0.15");
    Files.delete(jdk.resolve("release"));
    Launch made = launchWith(jdk, java.util.Map.of(), "warmup-cache");
    assertThat(made.exit()).isEqualTo(2);
    assertThat(made.err()).contains("needs a JDK 17 or later").contains("no archive made");
    assertThat(made.out()).isEmpty();
    Launch old = launchWith(fakeJdk("jdk11", "11.0.2"), java.util.Map.of(), "warmup-cache");
    assertThat(old.exit()).isEqualTo(2);
  }

  /**
   * The options the launcher gives the JVM running this test, with an archive the JVM cannot use (as a
   * stale one, or one of another build of the JDK): the JVM accepts them together (an AOT cache refuses
   * -Xshare), starts, and says nothing about the archive.
   */
  @Test
  void theRealJvmTakesTheSharingOptionsAndIgnoresAnUnusableArchiveSilently() throws Exception {
    int feature = Runtime.version().feature();
    String version = feature + ".0.1";
    Path jdk = fakeJdk("jdk-real", version);
    assertThat(launchWith(jdk, java.util.Map.of(), "warmup-cache").exit()).isZero(); // the fake writes "archive"
    String line = launchWith(jdk, java.util.Map.of("BELLOWS_CDS", "on"), "shell").out().strip();
    assertThat(line).contains(archive(jdk, version, feature >= 25 ? "aot" : "cds").toString());
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String option : line.substring("java ".length(), line.indexOf(" -jar ")).split(" ")) {
      command.add(option);
    }
    command.add("-version");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(command + "\n" + out).isZero();
    assertThat(out).as(command.toString()).containsIgnoringCase("version")
        .doesNotContain("[warning]").doesNotContain("[error").doesNotContain("Error").doesNotContainIgnoringCase("archive");
  }
}
