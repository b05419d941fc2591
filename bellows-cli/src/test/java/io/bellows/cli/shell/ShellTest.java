package io.bellows.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.engine.ClusterStatus;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shell loop and its output, against the real embedded engine on a memory file system ({@link TestEngine}). */
class ShellTest {
  private final TestEngine engine = new TestEngine();
  private int status;

  @org.junit.jupiter.api.AfterEach
  void closeEngine() {
    engine.closeEngine();
  }

  private String run(String script, boolean timing) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Shell shell = new Shell(engine.engine(), Session.embedded(null), new BufferedReader(new StringReader(script)), out,
        false, timing);
    status = shell.run();
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private String run(String script) {
    return run(script, false);
  }

  @Test
  void backgroundErrorAndResume() {
    engine.backgroundError = new io.bellows.util.BackgroundError(io.bellows.util.BackgroundError.Kind.FLUSH,
        io.bellows.util.BackgroundError.Severity.HARD, "t", "cannot create sorted file: no space left on device",
        java.time.Instant.parse("2026-11-23T07:00:00Z"), 3);
    String out = run(String.join("\n", "background_error", "resume", "background_error", "resume 'x'", ""));
    assertThat(out).isEqualTo(String.join("\n",
        "WRITES STOPPED by a failing FLUSH of table t since 2026-11-23T07:00:00Z (3 attempt(s)): cannot create"
            + " sorted file: no space left on device",
        "Resumed: no background error stops writes",
        "No background error: flushes and compactions work, writes are accepted",
        "ERROR: resume: wrong number of arguments (given 1, expected 0)",
        "Usage: resume",
        ""));
    assertThat(engine.calls).containsOnlyOnce("resume");
  }

  @Test
  void balancerSaysHowManyLeadershipsMoved() {
    String out = run(String.join("\n", "balancer", "balancer 'x'", ""));
    engine.balanced = 3;
    out += run("balancer\n");
    engine.balanced = 1;
    out += run("balancer\n");
    assertThat(out).isEqualTo(String.join("\n",
        "Balanced: no leadership handed over",
        "ERROR: balancer: wrong number of arguments (given 1, expected 0)",
        "Usage: balancer",
        "Balanced: 3 regions' leaderships handed over to members that led fewer",
        "Balanced: 1 region's leadership handed over to members that led fewer",
        ""));
    assertThat(engine.calls).containsExactly("balance", "balance", "balance");
  }

  @Test
  void moveHandsARegionsLeadershipToTheMemberNamedAsListRegionsNamesIt() {
    String out = run(String.join("\n", "create 't', 'f', SPLITS => ['m']", "move '2', 'm2'", ""));
    assertThat(out).endsWith("ERROR: move: this engine is not a cluster: a single server leads every region itself,"
        + " so there is nothing to move\n");
    List<Integer> ids = engine.engine().regions("t").stream().map(io.bellows.engine.RegionInfo::id).toList();
    engine.clusterStatus = new ClusterStatus(List.of(new ClusterStatus.Member("m1", "127.0.0.1:7001", true),
        new ClusterStatus.Member("m2", "127.0.0.1:7002", true), new ClusterStatus.Member("m3", "127.0.0.1:7003", true)),
        List.of());
    String second = String.valueOf(ids.get(1));
    out = run(String.join("\n",
        "move '" + second + "', 'm2'",
        "move '" + second + "', 'm2'",
        "move " + ids.get(0) + ", '127.0.0.1:7003'",
        "move '" + second + "', 'm1 127.0.0.1:7001'",
        "move '" + second + "', '127.0.0.1,7003,1700000000000'",
        "move '" + second + "'",
        "move '" + second + "', 'm9'",
        "move '999', 'm2'",
        "move 'abc', 'm2'",
        "move",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Moved the leadership of region " + second + " of table 't' from m1 to m2",
        "Region " + second + " of table 't' is led by m2 already: nothing moved",
        "Moved the leadership of region " + ids.get(0) + " of table 't' from m2 to m3",
        "Moved the leadership of region " + second + " of table 't' from m3 to m1",
        "Moved the leadership of region " + second + " of table 't' from m1 to m3",
        "Moved the leadership of region " + second + " of table 't' from m3 to m2",
        "ERROR: move: no member 'm9' in the cluster (members: m1 127.0.0.1:7001, m2 127.0.0.1:7002, m3 127.0.0.1:7003)",
        "ERROR: move: no region 999 in any table (list_regions 't' lists a table's regions)",
        "ERROR: move: name the region by the REGION_ID that list_regions prints, not 'abc'",
        "ERROR: move: wrong number of arguments (given 0, expected 1 to 2)",
        "Usage: move 'REGION_ID' [, 'SERVER']",
        ""));
    assertThat(engine.calls).containsExactly("moveLeader t m m2", "moveLeader t m m2", "moveLeader t  m3",
        "moveLeader t m m1", "moveLeader t m m3", "moveLeader t m null");
  }

  @Test
  void addServerAddsAMemberToAClusterAndIsRefusedElsewhere() {
    String out = run(String.join("\n", "add_server 'n4', '127.0.0.1:7004', '127.0.0.1:8004'", ""));
    assertThat(out).isEqualTo("ERROR: add_server: this engine is not a cluster: it has no members to add to\n");
    engine.clusterStatus = new ClusterStatus(List.of(new ClusterStatus.Member("n1", "127.0.0.1:8001", true),
        new ClusterStatus.Member("n2", "127.0.0.1:8002", true), new ClusterStatus.Member("n3", "127.0.0.1:8003", true)),
        List.of());
    out = run(String.join("\n",
        "add_server 'n4', '127.0.0.1:7004', '127.0.0.1:8004'",
        "add_server 'n5', '127.0.0.1:7005'",
        "add_server 'n5', '', '127.0.0.1:8005'",
        "add_server 'n5', 7005, '127.0.0.1:8005'",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Added n4 (raft 127.0.0.1:7004, clients 127.0.0.1:8004): it is a member of meta; move puts replicas on it"
            + " (list_regions shows where each region's replicas are)",
        "ERROR: add_server: wrong number of arguments (given 2, expected 3)",
        "Usage: add_server 'ID', 'HOST:RAFTPORT', 'HOST:CLIENTPORT'",
        "ERROR: add_server: raft address must not be empty",
        "Usage: add_server 'ID', 'HOST:RAFTPORT', 'HOST:CLIENTPORT'",
        "ERROR: add_server: raft address must be a quoted string, not the number 7005",
        "Usage: add_server 'ID', 'HOST:RAFTPORT', 'HOST:CLIENTPORT'",
        ""));
    assertThat(engine.calls).containsExactly("addServer n4 127.0.0.1:7004 127.0.0.1:8004");
    assertThat(run("help 'add_server'\n")).startsWith("add_server 'ID', 'HOST:RAFTPORT', 'HOST:CLIENTPORT'")
        .contains("Examples:\n  add_server 'n4', '10.0.0.4:9870', '10.0.0.4:7070'");
  }

  @Test
  void aCorruptionErrorSaysOnlyOneStoreStopped() {
    engine.backgroundError = new io.bellows.util.BackgroundError(io.bellows.util.BackgroundError.Kind.CORRUPTION,
        io.bellows.util.BackgroundError.Severity.HARD, "t", "f/1.sst: checksum mismatch in block at offset 0",
        java.time.Instant.parse("2026-11-23T07:00:00Z"), 1);
    assertThat(run("background_error\n")).isEqualTo("WRITES TO ONE STORE STOPPED by a damaged file of table t found"
        + " 2026-11-23T07:00:00Z: f/1.sst: checksum mismatch in block at offset 0\n");
  }

  @Test
  void verifyPrintsEachDamageWithFileAndOffsetThenWhatWasChecked() {
    engine.verifyReport = new io.bellows.engine.VerifyReport(2, 2, 3, 9, 600, 1, java.util.List.of());
    String clean = run("verify\n");
    engine.verifyReport = new io.bellows.engine.VerifyReport(2, 1, 3, 9, 600, 1, java.util.List.of(
        new io.bellows.engine.VerifyReport.Damage("tables/1-t/1/f/00000000000000000001.sst", 0,
            "checksum mismatch in block at offset 0"),
        new io.bellows.engine.VerifyReport.Damage("tables/1-t/1/g/MANIFEST", -1, "manifest checksum mismatch")));
    String damaged = run("verify\nverify 't'\n");
    assertThat(clean).isEqualTo("Checked 2 store(s): 2 manifest(s), 3 sorted file(s) (9 block(s), 600 cell(s)), 1 WAL"
        + " file(s); no damage\n");
    assertThat(damaged).isEqualTo(String.join("\n",
        "FILE                               DAMAGE",
        " tables/1-t/1/f/00000000000000000001.sst offset=0, checksum mismatch in block at offset 0",
        " tables/1-t/1/g/MANIFEST           manifest checksum mismatch",
        "Checked 2 store(s): 1 manifest(s), 3 sorted file(s) (9 block(s), 600 cell(s)), 1 WAL file(s); 2 damage(s):"
            + " close the engine and run `bellows repair DIR` to see what --fix would do",
        "ERROR: verify: wrong number of arguments (given 1, expected 0)",
        "Usage: verify",
        ""));
  }

  @Test
  void putGetScanInHBaseLayout() {
    String out = run(String.join("\n",
        "create 't', 'f1', {NAME => 'f2', VERSIONS => 3}",
        "put 't', 'r1', 'f1:q', 'v1', 1700000000000",
        "put 't', 'r2', 'f1:q', \"\\x00\\xFFz\", 1700000000001",
        "put 't', 'r2', 'f2:a', 'x'",
        "get 't', 'r2'",
        "scan 't'",
        "scan 't', {STARTROW => 'r2', COLUMNS => ['f1:q']}",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "COLUMN                             CELL",
        " f1:q                              timestamp=1700000000001, value=\\x00\\xFFz",
        " f2:a                              timestamp=1000, value=x",
        "2 row(s)",
        "ROW                                COLUMN+CELL",
        " r1                                column=f1:q, timestamp=1700000000000, value=v1",
        " r2                                column=f1:q, timestamp=1700000000001, value=\\x00\\xFFz",
        " r2                                column=f2:a, timestamp=1000, value=x",
        "2 row(s)",
        "ROW                                COLUMN+CELL",
        " r2                                column=f1:q, timestamp=1700000000001, value=\\x00\\xFFz",
        "1 row(s)",
        ""));
    assertThat(status).isZero();
  }

  @Test
  void longKeysPushTheRightColumnButKeepASpace() {
    String key = "k".repeat(40);
    String out = run("create 't', 'f'\nput 't', '" + key + "', 'f:q', 'v', 5\nscan 't'\n");
    assertThat(out).contains(" " + key + " column=f:q, timestamp=5, value=v\n");
  }

  @Test
  void errorsArePrintedAndTheShellGoesOn() {
    String out = run(String.join("\n",
        "create 't', 'f'",
        "frobnicate 't'",
        "put 't', 'r'",
        "put 'nope', 'r', 'f:q', 'v'",
        "put 't', 'r', 'g:q', 'v'",
        "get 't' 'r'",
        "drop 't'",
        "scan 't', {REVERSED => 'yes'}",
        "put 't', 'r', 'f:q', 'ok', 7",
        "get 't', 'r'",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "ERROR: Unknown command 'frobnicate'. Type 'help' for the list of commands.",
        "ERROR: put: wrong number of arguments (given 2, expected 4 to 5)",
        "Usage: put 't', 'row', 'f:q', 'value' [, timestamp]",
        "ERROR: Unknown table nope!",
        "ERROR: Unknown column family 'g' of table t; its families are: f",
        "ERROR: syntax error at column 9: unexpected ''' after the arguments",
        "ERROR: Table t is enabled. Disable it first.",
        "ERROR: scan: REVERSED must be true or false, not the string 'yes'",
        "Usage: " + CommandCatalog.find("scan").usage(),
        "COLUMN                             CELL",
        " f:q                               timestamp=7, value=ok",
        "1 row(s)",
        ""));
    assertThat(status).isEqualTo(1);
  }

  @Test
  void engineFailuresPrintTheirMessagesWithoutJavaClassNames() {
    run("create 't', 'f'\n");
    engine.flushFailure = new io.bellows.util.CorruptionException("t/f/1.sst: block checksum mismatch at offset 4096",
        new java.io.IOException("read error"));
    String out = run("flush 't'\nlist\n");
    assertThat(out).isEqualTo(String.join("\n",
        "ERROR: t/f/1.sst: block checksum mismatch at offset 4096: read error",
        "TABLE", "t", "1 row(s)", ""));
  }

  @Test
  void refusedMutationsApplyNothing() {
    run("create 't', 'f'\nput 't', 'r', 'g:q', 'v'\ndisable 't'\nput 't', 'r', 'f:q', 'v'\nenable 't'\n");
    assertThat(run("scan 't'\n")).endsWith("0 row(s)\n");
  }

  @Test
  void deletesAndCounters() {
    String out = run(String.join("\n",
        "create 't', {NAME => 'f', VERSIONS => 5}",
        "put 't', 'r', 'f:a', 'a1', 1",
        "put 't', 'r', 'f:a', 'a2', 2",
        "put 't', 'r', 'f:b', 'b', 3",
        "put 't', 's', 'f:a', 'x', 4",
        "delete 't', 'r', 'f:a'",
        "get 't', 'r', {COLUMN => 'f:a', VERSIONS => 5}",
        "deleteall 't', 'r'",
        "get 't', 'r'",
        "count 't'",
        "incr 't', 'c', 'f:n'",
        "incr 't', 'c', 'f:n', 41",
        "get_counter 't', 'c', 'f:n'",
        "get_counter 't', 'c', 'f:none'",
        "get_counter 't', 's', 'f:a'",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "COLUMN                             CELL",
        " f:a                               timestamp=1, value=a1",
        "1 row(s)",
        "COLUMN                             CELL",
        "0 row(s)",
        "1 row(s)",
        "COUNTER VALUE = 1",
        "COUNTER VALUE = 42",
        "COUNTER VALUE = 42",
        "No counter found at specified coordinates",
        "ERROR: the value of f:a is 1 bytes long, not a counter (a counter is 8 bytes)",
        ""));
  }

  @Test
  void tableLifecycleAndListing() {
    String out = run(String.join("\n",
        "create 'b', 'f'",
        "create 'a', 'f', DURABILITY => 'ASYNC_WAL'",
        "create 'a', 'f'",
        "list",
        "list 'a.*'",
        "exists 'a'",
        "exists 'zz'",
        "is_enabled 'a'",
        "disable 'a'",
        "is_disabled 'a'",
        "disable 'a'",
        "drop 'a'",
        "exists 'a'",
        "flush 'b'",
        "compact 'b'",
        "major_compact 'b'",
        ""));
    engine.writeBlocks("b", "f"); // a split without a key needs a file of two blocks or more
    out += run(String.join("\n",
        "split 'b'",
        "split 'b', 'm'",
        "flush 'zz'",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table b",
        "Created table a",
        "ERROR: Table already exists: a!",
        "TABLE", "a", "b", "2 row(s)",
        "TABLE", "a", "1 row(s)",
        "Table a does exist",
        "Table zz does not exist",
        "true",
        "true",
        "ERROR: Table a is already disabled!",
        "Table a does not exist",
        "ERROR: Unknown table zz!",
        ""));
    assertThat(engine.calls).containsExactly("flush b", "compact b", "major_compact b", "split b", "split b m");
  }

  @Test
  void describeShowsStateTableSettingsAndFamilies() {
    String out = run("create 't', {NAME => 'f', VERSIONS => 2}, 'g', {DURABILITY => 'FSYNC_WAL'}\ndescribe 't'\n");
    String[] lines = out.split("\n");
    assertThat(lines[1]).isEqualTo("Table t is ENABLED");
    assertThat(lines[2]).isEqualTo("t, {TABLE_ATTRIBUTES => {DURABILITY => 'FSYNC_WAL'}}");
    assertThat(lines[3]).isEqualTo("COLUMN FAMILIES DESCRIPTION");
    assertThat(lines[4]).startsWith("{NAME => 'f', VERSIONS => '2', ").endsWith("}");
    assertThat(lines[5]).startsWith("{NAME => 'g', VERSIONS => '1', ");
    assertThat(lines[6]).isEqualTo("2 row(s)");
  }

  @Test
  void blockCacheFamilySettingsAreTakenByCreateAndShownByDescribe() {
    String out = run("create 't', {NAME => 'f', BLOCKCACHE => false, IN_MEMORY => 'true'}, 'g'\ndescribe 't'\n");
    String[] lines = out.split("\n");
    assertThat(lines[4]).contains("BLOCKCACHE => 'false'").contains("IN_MEMORY => 'true'");
    assertThat(lines[5]).contains("BLOCKCACHE => 'true'").contains("IN_MEMORY => 'false'");
    assertThat(engine.describeTable("t").family("f").get(io.bellows.config.Knobs.BLOCKCACHE)).isFalse();
    assertThat(engine.describeTable("t").family("f").get(io.bellows.config.Knobs.IN_MEMORY)).isTrue();
  }

  @Test
  void truncateKeepsTheSchemaAndDropsTheData() {
    String out = run("create 't', {NAME => 'f', VERSIONS => 4}\nput 't', 'r', 'f:q', 'v'\ntruncate 't'\ncount 't'\n");
    assertThat(out).contains("Truncating 't' table (it may take a while):\n - Disabling table...\n - Truncating table...\n0 row(s)\n");
    assertThat(engine.describeTable("t").family("f").maxVersions()).isEqualTo(4);
  }

  @Test
  void statsPrintEngineAndStoreMetrics() {
    engine.metrics = Map.of("wal.syncs", 3L, "flush.count", 1L);
    engine.storeMetrics = Map.of("f", Map.of("files", 0));
    String out = run("create 't', 'f'\nstats\nstats 't'\nstats 'zz'\n");
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "METRIC                             VALUE",
        " flush.count                       1",
        " wal.syncs                         3",
        "2 row(s)",
        "FAMILY                             METRIC=VALUE",
        " f                                 files=0",
        "1 row(s)",
        "ERROR: Unknown table zz!",
        ""));
  }

  @Test
  void statementsMaySpanLinesAndCommentsAreIgnored() {
    String out = run("# a script\ncreate 't',\n  {NAME => 'f',   # family\n   VERSIONS => 2}\n\nlist\n");
    assertThat(out).isEqualTo("Created table t\nTABLE\nt\n1 row(s)\n");
  }

  @Test
  void anUnfinishedStatementDoesNotSwallowTheCommandOnTheNextLine() {
    String out = run(String.join("\n",
        "create 't', 'f'",
        "put('t', 'r1', 'f:q', 'v1'",
        "put('t', 'r2', 'f:q', 'v2', 2)",
        "put('t', 'r3',",
        "    'f:q', 'v3', 3",
        "  get 't', 'r2'",
        "put('t', 'r4',",
        "'f:q', 'v4', 4)",
        "scan 't'",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "ERROR: syntax error at column 27: missing ')' (at the end of the line; the next line starts a new command)",
        "ERROR: syntax error at column 34: missing ')' (at the end of the line; the next line starts a new command)",
        "COLUMN                             CELL",
        " f:q                               timestamp=2, value=v2",
        "1 row(s)",
        "ROW                                COLUMN+CELL",
        " r2                                column=f:q, timestamp=2, value=v2",
        " r4                                column=f:q, timestamp=4, value=v4",
        "2 row(s)",
        ""));
    assertThat(status).isEqualTo(1);
  }

  @Test
  void aBadContinuationThatIsNoCommandIsOneError() {
    String out = run("create 't', 'f'\nput('t', 'r1', 'f:q', 'v1'\n'oops')\nlist\n");
    assertThat(out).isEqualTo("Created table t\nERROR: syntax error at column 28: expected ')'\nTABLE\nt\n1 row(s)\n");
  }

  @Test
  void exitStopsReadingAndUnfinishedInputIsReported() {
    assertThat(run("list\nexit\nlist\n")).isEqualTo("TABLE\n0 row(s)\n");
    assertThat(status).isZero();
    assertThat(run("list\ncreate 't', {NAME => 'f'")).startsWith("TABLE\n0 row(s)\nERROR: syntax error at column")
        .contains("missing '}'");
    assertThat(status).isEqualTo(1);
    assertThat(engine.closed()).as("the shell does not close the engine it was given").isFalse();
  }

  @Test
  void timingLineFollowsEachCommandWhenOn() {
    String out = run("create 't', 'f'\nbogus\nlist\n", true);
    assertThat(out).matches("(?s)Created table t\nTook \\d+\\.\\d{4} seconds\n"
        + "ERROR: Unknown command 'bogus'.*\nTook \\d+\\.\\d{4} seconds\n"
        + "TABLE\nt\n1 row\\(s\\)\nTook \\d+\\.\\d{4} seconds\n");
  }

  @Test
  void hbaseCommandsBellowsLacksAreNotSupportedRatherThanUnknown() {
    String out = run("alter_async 't', NAME => 'f', VERSIONS => 5\nhelp 'alter_async'\ndelete_all_snapshot 's.*'\n"
        + "frobnicate\n");
    assertThat(out).isEqualTo(String.join("\n",
        "ERROR: 'alter_async' is not supported by Bellows. Type 'help' for the list of commands.",
        "ERROR: 'alter_async' is not supported by Bellows. Type 'help' for the list of commands.",
        "ERROR: 'delete_all_snapshot' is not supported by Bellows. Type 'help' for the list of commands.",
        "ERROR: Unknown command 'frobnicate'. Type 'help' for the list of commands.",
        ""));
    assertThat(run("help 'desc'\n")).startsWith("describe 't'");
  }

  @Test
  void helpListsAndExplainsCommands() {
    String out = run("help\nhelp 'scan'\nhelp 'nope'\n");
    for (CommandCatalog.Entry e : CommandCatalog.entries()) {
      assertThat(out).contains(e.usage());
    }
    assertThat(out).contains("FILTER takes a string in HBase's filter language").contains("ERROR: Unknown command 'nope'");
  }

  @Test
  void appendPrintsTheNewValue() {
    String out = run(String.join("\n",
        "create 't', 'f'",
        "append 't', 'r', 'f:q', 'ab'",
        "append 't', 'r', 'f:q', \"\\x00c\"",
        "append 't', 'r', 'g:q', 'x'",
        "append 't', 'r'",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "CURRENT VALUE = ab",
        "CURRENT VALUE = ab\\x00c",
        "ERROR: Unknown column family 'g' of table t; its families are: f",
        "ERROR: append: wrong number of arguments (given 2, expected 4)",
        "Usage: append 't', 'row', 'f:q', 'value'",
        ""));
  }

  @Test
  void getSplitsCountsRegionsAndListsSplitKeys() {
    String out = run(String.join("\n",
        "create 't', 'f', SPLITS => ['g', \"n\\x00\"]",
        "create 'one', 'f'",
        "get_splits 't'",
        "get_splits 'one'",
        "disable 'one'",
        "get_splits 'one'",
        "get_splits 'nope'",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "Created table one",
        "Total number of splits = 3",
        "g",
        "n\\x00",
        "Total number of splits = 1",
        "ERROR: Table one is disabled!",
        "ERROR: Unknown table nope!",
        ""));
  }

  @Test
  void statusSummarizesTheEngineInHBasesLayout() {
    engine.metrics = Map.of("wal.syncs", 3L, "flush.count", 1L); // no memory limit or heap: the line ends earlier
    String out = run(String.join("\n",
        "create 't', 'f', SPLITS => ['m']",
        "create 'off', 'f'",
        "disable 'off'",
        "status",
        "status 'simple'",
        "status 'detailed'",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "Created table off",
        "1 active master, 0 backup masters, 1 servers, 0 dead, 2.0000 average load",
        "numberOfTables=2 (1 disabled), numberOfOnlineRegions=2, numberOfStorefiles=0, storefileSizeBytes=0,"
            + " memstoreSizeBytes=0",
        "background error: none",
        "ERROR: status 'simple' describes a cluster's servers; this engine is not a cluster member: use status 'summary'",
        "ERROR: status: only status 'summary' (and, over a cluster, 'simple') is supported by Bellows, not 'detailed'"
            + " (HBase's 'detailed', 'replication' and 'tasks' describe what Bellows has not)",
        "Usage: status ['summary' | 'simple']",
        ""));
    engine.backgroundError = new io.bellows.util.BackgroundError(io.bellows.util.BackgroundError.Kind.COMPACTION,
        io.bellows.util.BackgroundError.Severity.SOFT, "t", "disk full", java.time.Instant.parse("2026-11-23T07:00:00Z"), 2);
    assertThat(run("status 'summary'\n")).endsWith("\nbackground error: Writes accepted by a failing COMPACTION of table t"
        + " since 2026-11-23T07:00:00Z (2 attempt(s)): disk full\n");
  }

  @Test
  void overAClusterStatusAndListRegionsNameTheLeadersAndEveryReplicasState() {
    engine.metrics = Map.of();
    run("create 't', 'f'\n");
    int id = engine.engine().regions("t").get(0).id();
    engine.clusterStatus = new ClusterStatus(List.of(new ClusterStatus.Member("m1", "127.0.0.1:7001", true),
        new ClusterStatus.Member("m2", "127.0.0.1:7002", true), new ClusterStatus.Member("m3", "127.0.0.1:7003", false)),
        List.of(new ClusterStatus.Replica(null, 0, "m1", "FOLLOWER", "m2", 4, 10, 0, 0, 0),
            new ClusterStatus.Replica("t", id, "m1", "LEADER", "m1", 3, 42, 100, 1, 64),
            new ClusterStatus.Replica(null, 0, "m2", "LEADER", "m2", 4, 11, 0, 0, 0),
            new ClusterStatus.Replica("t", id, "m2", "FOLLOWER", "m1", 3, 40, 90, 1, 80)));
    String out = run("status\nstatus 'simple'\nlist_regions 't'\n");
    assertThat(out).isEqualTo(String.join("\n",
        "1 active master, 1 backup masters, 2 servers, 1 dead, 1.0000 average load",
        "numberOfTables=1 (0 disabled), numberOfOnlineRegions=1, numberOfStorefiles=0, storefileSizeBytes=0,"
            + " memstoreSizeBytes=0",
        "background error: none",
        "meta leader: m2 127.0.0.1:7002, term 4",
        "active master: m2 127.0.0.1:7002 (meta's leader, term 4)",
        "1 backup masters",
        "    m1 127.0.0.1:7001",
        "2 live servers",
        "    m1 127.0.0.1:7001",
        "        numberOfOnlineRegions=1, numberOfLeaders=1, storefileSizeBytes=100, memstoreSizeBytes=64",
        "        meta: FOLLOWER, term 4, applied 10, lag 1",
        "        t: LEADER, term 3, applied 42",
        "    m2 127.0.0.1:7002",
        "        numberOfOnlineRegions=1, numberOfLeaders=0, storefileSizeBytes=90, memstoreSizeBytes=80",
        "        meta: LEADER, term 4, applied 11",
        "        t: FOLLOWER, term 3, applied 40, lag 2",
        "1 dead servers",
        "    m3 127.0.0.1:7003",
        "       SERVER_NAME | REGION_ID | START_KEY | END_KEY |     ROLE | TERM | APPLIED_INDEX | LAG | SIZE | STOREFILES"
            + " | MEMSTORE_SIZE |",
        " ----------------- | --------- | --------- | ------- | -------- | ---- | ------------- | --- | ---- | ----------"
            + " | ------------- |",
        " m1 127.0.0.1:7001 | " + " ".repeat(9 - String.valueOf(id).length()) + id
            + " |           |         |   LEADER |    3 |            42 |   0 |  100 |          1 |            64 |",
        " m2 127.0.0.1:7002 | " + " ".repeat(9 - String.valueOf(id).length()) + id
            + " |           |         | FOLLOWER |    3 |            40 |   2 |   90 |          1 |            80 |",
        " 2 rows",
        " m3 127.0.0.1:7003 did not answer: its replicas are not listed",
        ""));
  }

  @Test
  void versionAndWhoami() {
    String out = run("version\nwhoami\n");
    String[] lines = out.split("\n");
    assertThat(lines).hasSize(3);
    // the project's version, filled in by the build, then the runtime
    assertThat(lines[0]).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?, Java " + java.util.regex.Pattern.quote(
        Runtime.version().toString()) + " \\(.*\\)");
    assertThat(lines[1]).isEqualTo(System.getProperty("user.name") + " (auth:SIMPLE)");
    assertThat(lines[2]).isEqualTo("    engine: an engine given to the shell");
  }

  @Test
  void countPrintsProgressEveryInterval() {
    String out = run(String.join("\n",
        "create 't', 'f'",
        "put 't', 'r1', 'f:q', 'v'",
        "put 't', 'r2', 'f:q', 'v'",
        "put 't', 'r3', 'f:q', 'v'",
        "count 't', {INTERVAL => 2, CACHE => 10}",
        ""));
    assertThat(out).isEqualTo(String.join("\n",
        "Created table t",
        "Current count: 2, row: r2",
        "3 row(s)",
        ""));
  }
}
