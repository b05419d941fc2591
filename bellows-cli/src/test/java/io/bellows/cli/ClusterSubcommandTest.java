package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.engine.ClusterStatus;
import io.bellows.remote.RemoteCluster;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bellows cluster start} starts three server processes that form a cluster, writes their
 * addresses and pids, and a client of the three writes and reads through them (and the shell
 * connects to them); {@code bellows cluster stop} ends every process.
 */
class ClusterSubcommandTest {
  @TempDir
  Path dir;

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private int run(String... args) {
    return BellowsCli.execute(new ByteArrayInputStream(new byte[0]), new PrintStream(bytes, true, StandardCharsets.UTF_8),
        args);
  }

  private int shell(String input, ByteArrayOutputStream out, String... args) {
    return BellowsCli.execute(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8), args);
  }

  @Test
  void startServesAClusterThatAClientAndTheShellUseAndStopEndsItsProcesses() throws Exception {
    Path d = dir.resolve("c");
    List<ProcessHandle> processes = new ArrayList<>();
    try {
      assertThat(run("cluster", "start", "--dir", d.toString(), "--servers", "3")).as(bytes.toString()).isZero();
      List<String> lines = Files.readAllLines(d.resolve("servers.txt"));
      assertThat(lines).hasSize(3);
      List<String> addresses = new ArrayList<>();
      for (String line : lines) {
        String[] f = line.split(" ");
        addresses.add(f[0]);
        processes.add(ProcessHandle.of(Long.parseLong(f[1])).orElseThrow());
      }
      assertThat(Files.readString(d.resolve("members.txt")).lines()).hasSize(3);
      try (Bellows db = RemoteEngine.connect(addresses, RemoteOptions.defaults())) {
        db.createTable(TableDescriptor.builder("t").family("f").build());
        Table t = db.getTable("t");
        t.put(new Put(Bytes.of("r1")).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of("v1")));
        assertThat(Bytes.str(t.get(new Get(Bytes.of("r1"))).getValue(Bytes.of("f"), Bytes.of("q")))).isEqualTo("v1");
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThat(shell("get 't', 'r1'\nput 't', 'r2', 'f:q', 'v2'\nget 't', 'r2'\n", out, "shell", "--connect",
          String.join(",", addresses))).as(out.toString()).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("value=v1").contains("value=v2");

      // A fourth server joins the running cluster: its line marked added, its process, the cluster's add_server.
      bytes.reset();
      assertThat(run("cluster", "add", "--dir", d.toString())).as(bytes.toString()).isZero();
      assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("added n4");
      lines = Files.readAllLines(d.resolve("servers.txt"));
      assertThat(lines).hasSize(4);
      processes.add(ProcessHandle.of(Long.parseLong(lines.get(3).split(" ")[1])).orElseThrow());
      assertThat(Files.readString(d.resolve("members.txt")).lines().toList().get(3)).startsWith("n4 ").endsWith(" added");
      try (RemoteCluster c = RemoteCluster.open(addresses, RemoteOptions.defaults())) {
        assertThat(c.clusterStatus().orElseThrow().members()).extracting(ClusterStatus.Member::id)
            .containsExactly("n1", "n2", "n3", "n4");
      }

      assertThat(run("cluster", "stop", "--dir", d.toString())).as(bytes.toString()).isZero();
      for (ProcessHandle p : processes) {
        assertThat(p.isAlive()).as("pid %d after stop", p.pid()).isFalse();
      }
      assertThat(d.resolve("servers.txt")).doesNotExist();
    } finally {
      for (ProcessHandle p : processes) {
        p.destroyForcibly();
        p.onExit().get(30, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void badClusterArgumentsAreOneLineErrorsWithStatusTwo() throws Exception {
    Path members = dir.resolve("members.txt");
    Files.writeString(members, "n1 127.0.0.1:9001 127.0.0.1:7001\nn2 127.0.0.1:9002 127.0.0.1:7002\n");
    assertThat(run("server", "--data", dir.resolve("d").toString(), "--cluster", members.toString(), "--id", "n1"))
        .isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("ERROR: " + members + ": a cluster has 3 to 5 members");
    bytes.reset();
    Files.writeString(members, "n1 127.0.0.1:9001 127.0.0.1:7001\nn2 127.0.0.1:9002 127.0.0.1:7002\n"
        + "n3 127.0.0.1:9003 127.0.0.1:7003\n");
    assertThat(run("server", "--data", dir.resolve("d").toString(), "--cluster", members.toString(), "--id", "n9"))
        .isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("ERROR: no member 'n9'");
    bytes.reset();
    assertThat(run("server", "--data", dir.resolve("d").toString(), "--cluster", members.toString(), "--port", "7999"))
        .isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("no member of " + members + " has the client port 7999");
    bytes.reset();
    assertThat(run("server", "--data", dir.resolve("d").toString(), "--id", "n1")).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("ERROR: --id names a member of a cluster");
    bytes.reset();
    assertThat(run("cluster", "start", "--dir", dir.resolve("c").toString(), "--servers", "2")).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("ERROR: --servers is 3 to 5");
    bytes.reset();
    assertThat(run("cluster", "stop", "--dir", dir.resolve("none").toString())).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("no cluster started there runs");
    bytes.reset();
    assertThat(run("cluster", "add", "--dir", dir.resolve("none").toString())).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("no cluster started there runs");
  }

  @Test
  void theTestOnlyFaultOptionIsHiddenAndOnlyForAClusterMemberWithAFileThatParses() throws Exception {
    assertThat(run("server", "--help")).isEqualTo(0);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("--cluster").doesNotContain("test-faults");
    bytes.reset();
    Path faults = dir.resolve("faults.txt");
    assertThat(run("server", "--data", dir.resolve("d").toString(), "--test-faults", faults.toString())).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("ERROR: --test-faults is a test-only option of a"
        + " cluster member");
    bytes.reset();
    Path members = dir.resolve("members.txt");
    Files.writeString(members, "n1 127.0.0.1:9001 127.0.0.1:7001\nn2 127.0.0.1:9002 127.0.0.1:7002\n"
        + "n3 127.0.0.1:9003 127.0.0.1:7003\n");
    Files.writeString(faults, "cut n1 n2\ncut n1\n");
    assertThat(run("server", "--data", dir.resolve("d").toString(), "--cluster", members.toString(), "--id", "n1",
        "--test-faults", faults.toString())).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("ERROR: cannot start member n1")
        .contains("line 2 is neither 'cut A B'");
  }
}
