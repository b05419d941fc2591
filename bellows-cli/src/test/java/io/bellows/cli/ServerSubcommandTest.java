package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.util.Bytes;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bellows server} and {@code bellows shell --connect}. */
class ServerSubcommandTest {
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

  @TempDir
  Path dir;

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private int run(String input, String... args) {
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    return BellowsCli.execute(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out, args);
  }

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aTakenPortIsAClearErrorAndTheDataIsLeftUnlocked() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int code = run("", "server", "--data", dir.toString(), "--port", Integer.toString(taken.getLocalPort()),
          "--http-port", "-1");
      assertThat(code).isEqualTo(2);
      assertThat(output()).contains("ERROR: cannot listen on 127.0.0.1:" + taken.getLocalPort()).contains("in use");
    }
    Bellows.open(dir, EngineOptions.defaults()).close(); // the engine was closed again
  }

  @Test
  void aLockedDataDirectoryIsAClearError() {
    try (Bellows holder = Bellows.open(dir, EngineOptions.defaults())) {
      int code = run("", "server", "--data", dir.toString(), "--port", "0", "--http-port", "-1");
      assertThat(code).isEqualTo(2);
      assertThat(output()).startsWith("ERROR: cannot open " + dir.toAbsolutePath() + ": ").contains("in use by another open Bellows engine");
    }
  }

  @Test
  void aBadConfigFileIsAClearError() throws Exception {
    Path config = dir.resolve("server.properties");
    java.nio.file.Files.writeString(config, "prot = 7070\n");
    assertThat(run("", "server", "--data", dir.resolve("d").toString(), "--config", config.toString())).isEqualTo(2);
    assertThat(output()).contains("unknown server setting 'prot'");
  }

  @Test
  void aWrongSetValueNamesTheKnobAndWhatItAccepts() {
    assertThat(run("", "server", "--data", dir.resolve("d").toString(), "--set", "bellows.wal.max.files=1")).isEqualTo(2);
    assertThat(output()).contains("ERROR: --set bellows.wal.max.files = 1 is invalid: must be an integer from 2 to 100000");
  }

  @Test
  void sigtermFlushesClosesAndExitsZero() throws Exception {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path data = dir.resolve("data");
    Process p = new ProcessBuilder(java.toString(), "-Xmx256m", "-cp", classpath, BellowsCli.class.getName(), "server",
        "--data", data.toString(), "--port", "0", "--http-port", "-1")
        .redirectErrorStream(true)
        .start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader log = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      int port = -1;
      for (String line; port < 0 && (line = log.readLine()) != null; ) {
        lines.add(line);
        Matcher m = LISTENING.matcher(line);
        if (m.find()) {
          port = Integer.parseInt(m.group(1));
        }
      }
      assertThat(port).as(String.join("\n", lines)).isPositive();
      assertThat(lines.get(lines.size() - 1)).contains("loopback only");
      try (Bellows db = RemoteEngine.connect("127.0.0.1:" + port, RemoteOptions.defaults())) {
        db.createTable(TableDescriptor.builder("t").family("f").build());
        db.getTable("t").put(new Put("r1").addColumn("f", "q", "v1"));
      }
      p.toHandle().destroy(); // SIGTERM; Process.destroy would also close our end of its output
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      for (String line; (line = log.readLine()) != null; ) {
        lines.add(line);
      }
    } finally {
      p.destroyForcibly();
    }
    assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
    assertThat(String.join("\n", lines)).contains("flushing and closing the engine").contains("stopped");
    try (Bellows db = Bellows.open(data, EngineOptions.defaults())) {
      assertThat(db.getTable("t").get(new Get(Bytes.of("r1"))).getValue(Bytes.of("f"), Bytes.of("q")))
          .isEqualTo(Bytes.of("v1"));
      assertThat(db.storeMetrics("t").get("f").get("store.files").longValue()).as("flushed at stop").isPositive();
    }
  }

  @Test
  void theShellConnectsToAServer() {
    try (LocalEngine engine = LocalEngine.open(dir, EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE)) {
      String script = "create 't', 'f'\nput 't', 'r1', 'f:a', 'v1'\nscan 't'\nget 'nope', 'r1'\nlist\n";
      int code = run(script, "shell", "--connect", "127.0.0.1:" + server.port(), "--no-timing");
      assertThat(code).as(output()).isEqualTo(1); // the failed get makes a script's status 1
      assertThat(output()).contains("Created table t").contains("column=f:a").contains("value=v1")
          .contains("ERROR: Unknown table nope!").contains("1 row(s)");
      assertThat(engine.listTables()).containsExactly("t");
    }
  }

  /** Filters and reversed scans cross the wire: the same script prints the same as on an embedded engine. */
  @Test
  void theShellsFiltersReversedScansAndNewCommandsWorkOverAServer() {
    try (LocalEngine engine = LocalEngine.open(dir, EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE)) {
      String script = String.join("\n", ShellEndToEndTest.CATCH_UP_SCRIPT) + "\nstatus\nwhoami\n";
      int code = run(script, "shell", "--connect", "127.0.0.1:" + server.port(), "--no-timing");
      assertThat(code).as(output()).isEqualTo(1); // the refused filter
      assertThat(output()).startsWith(ShellEndToEndTest.CATCH_UP_OUTPUT);
      String[] tail = output().substring(ShellEndToEndTest.CATCH_UP_OUTPUT.length()).split("\n");
      assertThat(tail[0]).isEqualTo("1 active master, 0 backup masters, 1 servers, 0 dead, 2.0000 average load");
      assertThat(tail[1]).startsWith("numberOfTables=1 (0 disabled), numberOfOnlineRegions=2,");
      assertThat(tail[2]).isEqualTo("background error: none");
      boolean token = System.getenv("BELLOWS_TOKEN") != null; // the shell sends it if the environment has one
      assertThat(tail[3]).isEqualTo(System.getProperty("user.name") + " (auth:" + (token ? "TOKEN" : "NONE") + ")");
      assertThat(tail[4]).startsWith("    engine: the server at 127.0.0.1:" + server.port());
    }
  }

  /** Snapshots, alter and bulk load print the same over a server as on an embedded engine. */
  @Test
  void theShellsSnapshotAlterAndBulkLoadCommandsWorkOverAServer() throws Exception {
    Path load = dir.resolve("load");
    java.nio.file.Files.createDirectories(load.resolve("g"));
    try (io.bellows.client.BulkFileWriter w = io.bellows.client.BulkFileWriter.create(load.resolve("g/part-0"),
        io.bellows.schema.ColumnFamilyDescriptor.of("g"))) {
      w.put(Bytes.of("r2"), Bytes.of("q"), 5, Bytes.of("loaded"));
      w.finish();
    }
    String script = String.join("\n",
        "create 't', 'f', SPLITS => ['m']",
        "put 't', 'r1', 'f:q', 'v1', 1",
        "snapshot 't', 's1'",
        "alter 't', {NAME => 'f', VERSIONS => 3}, 'g'",
        "bulk_load 't', '" + load + "'",
        "clone_snapshot 's1', 'c'",
        "restore_snapshot 's1'",
        "disable 't'",
        "restore_snapshot 's1'",
        "enable 't'",
        "scan 't'",
        "scan 'c'",
        "delete_snapshot 's1'",
        "delete_snapshot 's1'",
        "list_snapshots",
        "");
    int embedded = run(script, "shell", "--data", dir.resolve("embedded").toString(), "--no-timing");
    String expected = output();
    bytes.reset();
    try (LocalEngine engine = LocalEngine.open(dir.resolve("served"), EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE)) {
      int code = run(script, "shell", "--connect", "127.0.0.1:" + server.port(), "--no-timing");
      assertThat(code).as(output()).isEqualTo(embedded).isEqualTo(1); // the refused restore and delete
      assertThat(output()).isEqualTo(expected);
    }
    assertThat(expected).contains("Updating all regions with the new schema...\n2/2 regions updated.\nDone.\n"
        + "Loaded 1 cell(s) from 1 file(s) into table t\n"
        + "ERROR: Table t is enabled. Disable it before restoring snapshot s1 into it.\n");
    assertThat(expected).endsWith(String.join("\n",
        "ROW                                COLUMN+CELL",
        " r1                                column=f:q, timestamp=1, value=v1",
        "1 row(s)",
        "ROW                                COLUMN+CELL",
        " r1                                column=f:q, timestamp=1, value=v1",
        "1 row(s)",
        "ERROR: Unknown snapshot s1!",
        "SNAPSHOT                           TABLE + CREATION TIME",
        "0 row(s)",
        ""));
  }

  @Test
  void theShellSaysSoWhenNoServerAnswers() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    assertThat(run("", "shell", "--connect", "127.0.0.1:" + port)).isEqualTo(2);
    assertThat(output()).startsWith("ERROR: cannot connect to 127.0.0.1:" + port + ": ").contains("UNAVAILABLE");
  }
}
