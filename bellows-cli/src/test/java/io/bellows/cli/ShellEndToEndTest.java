package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives {@code bellows shell} through its input and output against a real engine in a temporary
 * directory. Needs the engine behind {@code io.bellows.client.Bellows}.
 */
@Tag("needs-engine")
class ShellEndToEndTest {
  @TempDir
  Path dir;

  private int status;

  /** Runs one shell session over the script and returns everything it printed. */
  private String shell(String... lines) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    String script = String.join("\n", lines) + "\n";
    status = BellowsCli.execute(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)), out,
        "shell", "--data", dir.resolve("data").toString(), "--no-timing");
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  @Test
  void createPutGetScanWithOptions() {
    String out = shell(
        "create 't', 'f1', {NAME => 'f2', VERSIONS => 3}",
        "put 't', 'r1', 'f1:q', 'v1', 1700000000000",
        "put 't', 'r2', 'f1:q', 'v2', 1700000000001",
        "put 't', 'r3', 'f2:a', 'old', 10",
        "put 't', 'r3', 'f2:a', 'new', 20",
        "get 't', 'r1'",
        "get 't', 'r3', {COLUMN => 'f2:a', VERSIONS => 3}",
        "get 't', 'r3', {COLUMN => 'f2:a', TIMERANGE => [0, 15]}",
        "scan 't'",
        "scan 't', {STARTROW => 'r2', STOPROW => 'r3'}",
        "scan 't', {LIMIT => 1, COLUMNS => ['f1:q']}",
        "scan 't', {COLUMNS => 'f2', VERSIONS => 2}");
    assertThat(out).isEqualTo(lines(
        "Created table t",
        "COLUMN                             CELL",
        " f1:q                              timestamp=1700000000000, value=v1",
        "1 row(s)",
        "COLUMN                             CELL",
        " f2:a                              timestamp=20, value=new",
        " f2:a                              timestamp=10, value=old",
        "2 row(s)",
        "COLUMN                             CELL",
        " f2:a                              timestamp=10, value=old",
        "1 row(s)",
        "ROW                                COLUMN+CELL",
        " r1                                column=f1:q, timestamp=1700000000000, value=v1",
        " r2                                column=f1:q, timestamp=1700000000001, value=v2",
        " r3                                column=f2:a, timestamp=20, value=new",
        "3 row(s)",
        "ROW                                COLUMN+CELL",
        " r2                                column=f1:q, timestamp=1700000000001, value=v2",
        "1 row(s)",
        "ROW                                COLUMN+CELL",
        " r1                                column=f1:q, timestamp=1700000000000, value=v1",
        "1 row(s)",
        "ROW                                COLUMN+CELL",
        " r3                                column=f2:a, timestamp=20, value=new",
        " r3                                column=f2:a, timestamp=10, value=old",
        "1 row(s)"));
    assertThat(status).isZero();
  }

  /** The statements of {@link #filtersReversedScansAndTheNewCommands} and what they print, here and over a server. */
  static final String[] CATCH_UP_SCRIPT = {
      "create 't', 'f', SPLITS => ['r2']",
      "put 't', 'r1', 'f:a', 'apple', 1",
      "put 't', 'r1', 'f:b', 'x', 1",
      "put 't', 'r2', 'f:a', 'banana', 1",
      "put 't', 'r3', 'f:a', 'cherry', 1",
      "put 't', 's1', 'f:a', 'apple pie', 1",
      "scan 't', {FILTER => \"PrefixFilter('r1')\"}",
      "scan 't', {FILTER => \"ValueFilter(=, 'substring:APPLE') AND QualifierFilter(=, 'binary:a')\"}",
      "scan 't', {FILTER => \"RowFilter(>=, 'binary:r3') OR SingleColumnValueFilter('f', 'a', =, 'regexstring:^ban', true, true)\"}",
      "scan 't', {FILTER => \"KeyOnlyFilter() AND FirstKeyOnlyFilter()\", LIMIT => 1}",
      "scan 't', {REVERSED => true}",
      "scan 't', {REVERSED => true, STARTROW => 'r3', STOPROW => 'r1', COLUMNS => ['f:a']}",
      "scan 't', {REVERSED => true, ROWPREFIXFILTER => 'r', FILTER => \"ColumnPrefixFilter('a')\"}",
      "count 't', {INTERVAL => 2, CACHE => 100}",
      "count 't', FILTER => \"PrefixFilter('r')\"",
      "append 't', 'r1', 'f:b', 'yz'",
      "append 't', 'r9', 'f:new', 'v'",
      "get_splits 't'",
      "scan 't', {FILTER => \"InclusiveStopFilter('r2')\"}"};

  static final String CATCH_UP_OUTPUT = lines(
      "Created table t",
      "ROW                                COLUMN+CELL",
      " r1                                column=f:a, timestamp=1, value=apple",
      " r1                                column=f:b, timestamp=1, value=x",
      "1 row(s)",
      "ROW                                COLUMN+CELL",
      " r1                                column=f:a, timestamp=1, value=apple",
      " s1                                column=f:a, timestamp=1, value=apple pie",
      "2 row(s)",
      "ROW                                COLUMN+CELL",
      " r2                                column=f:a, timestamp=1, value=banana",
      " r3                                column=f:a, timestamp=1, value=cherry",
      " s1                                column=f:a, timestamp=1, value=apple pie",
      "3 row(s)",
      "ROW                                COLUMN+CELL",
      " r1                                column=f:a, timestamp=1, value=",
      "1 row(s)",
      "ROW                                COLUMN+CELL",
      " s1                                column=f:a, timestamp=1, value=apple pie",
      " r3                                column=f:a, timestamp=1, value=cherry",
      " r2                                column=f:a, timestamp=1, value=banana",
      " r1                                column=f:a, timestamp=1, value=apple",
      " r1                                column=f:b, timestamp=1, value=x",
      "4 row(s)",
      "ROW                                COLUMN+CELL",
      " r3                                column=f:a, timestamp=1, value=cherry",
      " r2                                column=f:a, timestamp=1, value=banana",
      "2 row(s)",
      "ROW                                COLUMN+CELL",
      " r3                                column=f:a, timestamp=1, value=cherry",
      " r2                                column=f:a, timestamp=1, value=banana",
      " r1                                column=f:a, timestamp=1, value=apple",
      "3 row(s)",
      "Current count: 2, row: r2",
      "Current count: 4, row: s1",
      "4 row(s)",
      "3 row(s)",
      "CURRENT VALUE = xyz",
      "CURRENT VALUE = v",
      "Total number of splits = 2",
      "r2",
      "ERROR: scan: FILTER: bad filter at column 1: InclusiveStopFilter: this filter of HBase is not supported by"
          + " Bellows (supported: KeyOnlyFilter, FirstKeyOnlyFilter, PrefixFilter, ColumnPrefixFilter,"
          + " MultipleColumnPrefixFilter, PageFilter, TimestampsFilter, RowFilter, FamilyFilter, QualifierFilter,"
          + " ValueFilter, SingleColumnValueFilter, ColumnRangeFilter)",
      "Usage: " + io.bellows.cli.shell.CommandCatalog.find("scan").usage());

  @Test
  void filtersReversedScansAndTheNewCommands() {
    assertThat(shell(CATCH_UP_SCRIPT)).isEqualTo(CATCH_UP_OUTPUT);
    assertThat(status).isEqualTo(1); // the refused filter
  }

  @Test
  void countWithFilterOverSortedFiles() {
    String out = shell("create 't', 'f'", "put 't', 'a', 'f:q', 'v'", "put 't', 'b', 'f:q', 'v'", "flush 't'",
        "count 't'", "count 't', FILTER => \"FirstKeyOnlyFilter()\"", "count 't', FILTER => \"PrefixFilter('b')\"");
    assertThat(out).isEqualTo(lines("Created table t", "2 row(s)", "2 row(s)", "1 row(s)"));
  }

  @Test
  void statusVersionAndWhoamiOnAnEmbeddedEngine() {
    String out = shell("create 't', 'f', SPLITS => ['m']", "put 't', 'a', 'f:q', 'v'", "flush 't'", "status", "version",
        "whoami");
    String[] l = out.split("\n");
    assertThat(l[1]).isEqualTo("1 active master, 0 backup masters, 1 servers, 0 dead, 2.0000 average load");
    assertThat(l[2]).matches("numberOfTables=1 \\(0 disabled\\), numberOfOnlineRegions=2, numberOfStorefiles=1,"
        + " storefileSizeBytes=[1-9]\\d*, memstoreSizeBytes=0, memstoreLimitBytes=[1-9]\\d*, usedHeapBytes=[1-9]\\d*");
    assertThat(l[3]).isEqualTo("background error: none");
    assertThat(l[4]).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?, Java .*");
    assertThat(l[5]).isEqualTo(System.getProperty("user.name") + " (auth:SIMPLE)");
    assertThat(l[6]).isEqualTo("    engine: the embedded engine on " + dir.resolve("data").toAbsolutePath());
    assertThat(l).hasSize(7);
  }

  @Test
  void anUnclosedParenthesisDoesNotSwallowTheNextStatement() {
    String out = shell(
        "create 't', 'f'",
        "put('t','r1','f:q','v'",
        "put('t','r2','f:q','v2', 5)",
        "scan 't'");
    assertThat(out).isEqualTo(lines(
        "Created table t",
        "ERROR: syntax error at column 23: missing ')' (at the end of the line; the next line starts a new command)",
        "ROW                                COLUMN+CELL",
        " r2                                column=f:q, timestamp=5, value=v2",
        "1 row(s)"));
    assertThat(status).isEqualTo(1);
  }

  @Test
  void splitATableOnline() {
    String out = shell(
        "create 't', 'f'",
        "put 't', 'a', 'f:q', 'v', 1",
        "put 't', 'z', 'f:q', 'v', 1",
        "split 't', 'm'",
        "split 't', 'm'",
        "split 't'",
        "list_regions 't'",
        "count 't'");
    String[] l = out.split("\n");
    assertThat(l[0]).isEqualTo("Created table t");
    assertThat(out).contains("ERROR: ").contains("is the start of region");
    assertThat(out).contains("has no split point");
    assertThat(out).containsPattern(" {9}2 \\| {11}\\| {7}m \\|");
    assertThat(out).containsPattern(" {9}3 \\| {9}m \\| {9}\\|");
    assertThat(out).contains(" 2 rows").contains("2 row(s)");
  }

  @Test
  void putWithoutTimestampGetsTheCurrentTime() {
    long before = System.currentTimeMillis();
    String out = shell("create 't', 'f'", "put 't', 'r', 'f:q', 'v'", "get 't', 'r'");
    String line = out.lines().filter(l -> l.startsWith(" f:q")).findFirst().orElseThrow();
    long ts = Long.parseLong(line.replaceAll(".*timestamp=(\\d+),.*", "$1"));
    assertThat(ts).isGreaterThanOrEqualTo(before);
    assertThat(line).endsWith("value=v");
  }

  @Test
  void binaryBytesRoundTrip() {
    String out = shell(
        "create 't', 'f'",
        "put 't', \"r\\x00\\x01\", \"f:\\xFFq\", \"\\x00\\x7F\\x80\\xFFend\", 5",
        "get 't', \"r\\x00\\x01\"",
        "scan 't'",
        "put 't', 'lit', 'f:q', '\\x00', 6",
        "get 't', 'lit'");
    assertThat(out).isEqualTo(lines(
        "Created table t",
        "COLUMN                             CELL",
        " f:\\xFFq                           timestamp=5, value=\\x00\\x7F\\x80\\xFFend",
        "1 row(s)",
        "ROW                                COLUMN+CELL",
        " r\\x00\\x01                         column=f:\\xFFq, timestamp=5, value=\\x00\\x7F\\x80\\xFFend",
        "1 row(s)",
        "COLUMN                             CELL",
        // single quotes keep the four characters: the backslash prints escaped
        " f:q                               timestamp=6, value=\\x5Cx00",
        "1 row(s)"));
  }

  @Test
  void deletesCountersAndCount() {
    String out = shell(
        "create 't', {NAME => 'f', VERSIONS => 5}",
        "put 't', 'r', 'f:a', 'a1', 1",
        "put 't', 'r', 'f:a', 'a2', 2",
        "put 't', 'r', 'f:b', 'b', 3",
        "put 't', 's', 'f:a', 'x', 4",
        "delete 't', 'r', 'f:a'",
        "get 't', 'r', {VERSIONS => 5}",
        "deleteall 't', 'r', 'f:a'",
        "get 't', 'r', {VERSIONS => 5}",
        "deleteall 't', 'r'",
        "get 't', 'r'",
        "count 't'",
        "incr 't', 'c', 'f:n'",
        "incr 't', 'c', 'f:n', 41",
        "get_counter 't', 'c', 'f:n'",
        "incr 't', 's', 'f:a'",
        "count 't'");
    assertThat(out).isEqualTo(lines(
        "Created table t",
        "COLUMN                             CELL",
        " f:a                               timestamp=1, value=a1",
        " f:b                               timestamp=3, value=b",
        "2 row(s)",
        "COLUMN                             CELL",
        " f:b                               timestamp=3, value=b",
        "1 row(s)",
        "COLUMN                             CELL",
        "0 row(s)",
        "1 row(s)",
        "COUNTER VALUE = 1",
        "COUNTER VALUE = 42",
        "COUNTER VALUE = 42",
        out.lines().filter(l -> l.startsWith("ERROR: ")).findFirst().orElse("ERROR: <missing>"),
        "2 row(s)"));
    // incrementing a 1-byte value is refused by the engine; the shell reports it and goes on
    assertThat(out.lines().filter(l -> l.startsWith("ERROR: ")).count()).isEqualTo(1);
    assertThat(status).isEqualTo(1);
  }

  @Test
  void describeListDisableDropAndAdmin() {
    String out = shell(
        "create 'a', {NAME => 'f', IN_MEMORY_COMPACTION => 'ADAPTIVE', VERSIONS => 2}, {DURABILITY => 'FSYNC_WAL'}",
        "create 'b', 'f', DURABILITY => 'ASYNC_WAL'",
        "describe 'a'",
        "list",
        "put 'b', 'r', 'f:q', 'v', 1",
        "flush 'b'",
        "put 'b', 'r', 'f:q', 'w', 2",
        "flush 'b'",
        "compact 'b'",
        "major_compact 'b'",
        "get 'b', 'r'",
        "drop 'a'",
        "disable 'a'",
        "is_disabled 'a'",
        "get 'a', 'r'",
        "drop 'a'",
        "exists 'a'",
        "list");
    String[] l = out.split("\n");
    assertThat(l[0]).isEqualTo("Created table a");
    assertThat(l[1]).isEqualTo("Created table b");
    assertThat(l[2]).isEqualTo("Table a is ENABLED");
    assertThat(l[3]).isEqualTo("a, {TABLE_ATTRIBUTES => {DURABILITY => 'FSYNC_WAL'}}");
    assertThat(l[4]).isEqualTo("COLUMN FAMILIES DESCRIPTION");
    assertThat(l[5]).startsWith("{NAME => 'f', VERSIONS => '2', ").contains("IN_MEMORY_COMPACTION => 'ADAPTIVE'");
    assertThat(l[6]).isEqualTo("1 row(s)");
    assertThat(l[7]).isEqualTo("REGIONS");
    assertThat(l[8]).isEqualTo("{ID => '1', STARTKEY => '', ENDKEY => ''}");
    assertThat(l[9]).isEqualTo("1 region(s)");
    assertThat(String.join("\n", java.util.Arrays.copyOfRange(l, 10, l.length)) + "\n").isEqualTo(lines(
        "TABLE", "a", "b", "2 row(s)",
        "COLUMN                             CELL",
        " f:q                               timestamp=2, value=w",
        "1 row(s)",
        "ERROR: Table a is enabled. Disable it first.",
        "true",
        "ERROR: Table a is disabled!",
        "Table a does not exist",
        "TABLE", "b", "1 row(s)"));
  }

  @Test
  void preSplitTablesAndListRegions() {
    String out = shell(
        "create 't', 'f', SPLITS => ['g', 'n', 't']",
        "put 't', 'a', 'f:q', 'v', 1",
        "put 't', 'h', 'f:q', 'v', 1",
        "put 't', 'z', 'f:q', 'v', 1",
        "flush 't'",
        "put 't', 'zz', 'f:q', 'v', 1",
        "list_regions 't'",
        "scan 't'",
        "create 'hex', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}",
        "list_regions 'hex'",
        "create 'uni', 'f', {NUMREGIONS => 2, SPLITALGO => 'UniformSplit'}",
        "describe 'uni'",
        "create 'bad', 'f', SPLITS => ['b', 'a']",
        "create 'bad', 'f', {NUMREGIONS => 4}",
        "create 'bad', 'f', {NUMREGIONS => 4, SPLITALGO => 'Nope'}",
        "list_regions 'nope'",
        "disable 'uni'",
        "list_regions 'uni'");
    String[] l = out.split("\n");
    assertThat(l[0]).isEqualTo("Created table t");
    assertThat(l[1]).isEqualTo(" REGION_ID | START_KEY | END_KEY | SIZE | STOREFILES | MEMSTORE_SIZE |");
    assertThat(l[2]).isEqualTo(" --------- | --------- | ------- | ---- | ---------- | ------------- |");
    assertThat(l[3]).matches(" {9}1 \\| {11}\\| {7}g \\| +[1-9][0-9]* \\| {10}1 \\| {13}0 \\|");
    assertThat(l[4]).matches(" {9}2 \\| {9}g \\| {7}n \\| +[1-9][0-9]* \\| {10}1 \\| {13}0 \\|");
    assertThat(l[5]).matches(" {9}3 \\| {9}n \\| {7}t \\| +0 \\| {10}0 \\| {13}0 \\|");
    assertThat(l[6]).matches(" {9}4 \\| {9}t \\| {9}\\| +[1-9][0-9]* \\| {10}1 \\| +[1-9][0-9]* \\|");
    assertThat(l[7]).isEqualTo(" 4 rows");
    String usage = "Usage: " + io.bellows.cli.shell.CommandCatalog.find("create").usage();
    assertThat(String.join("\n", java.util.Arrays.copyOfRange(l, 8, l.length)) + "\n").isEqualTo(lines(
        "ROW                                COLUMN+CELL",
        " a                                 column=f:q, timestamp=1, value=v",
        " h                                 column=f:q, timestamp=1, value=v",
        " z                                 column=f:q, timestamp=1, value=v",
        " zz                                column=f:q, timestamp=1, value=v",
        "4 row(s)",
        "Created table hex",
        " REGION_ID | START_KEY |  END_KEY | SIZE | STOREFILES | MEMSTORE_SIZE |",
        " --------- | --------- | -------- | ---- | ---------- | ------------- |",
        "         5 |           | 40000000 |    0 |          0 |             0 |",
        "         6 |  40000000 | 80000000 |    0 |          0 |             0 |",
        "         7 |  80000000 | c0000000 |    0 |          0 |             0 |",
        "         8 |  c0000000 |          |    0 |          0 |             0 |",
        " 4 rows",
        "Created table uni",
        "Table uni is ENABLED",
        "uni",
        "COLUMN FAMILIES DESCRIPTION",
        l[26],
        "1 row(s)",
        "REGIONS",
        "{ID => '9', STARTKEY => '', ENDKEY => '\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x00'}",
        "{ID => '10', STARTKEY => '\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x00', ENDKEY => ''}",
        "2 region(s)",
        "ERROR: create: split keys must be sorted: 'a' comes after 'b'",
        usage,
        "ERROR: create: NUMREGIONS and SPLITALGO go together: e.g. {NUMREGIONS => 8, SPLITALGO => 'HexStringSplit'}"
            + " (algorithms: HexStringSplit, UniformSplit)",
        usage,
        "ERROR: create: unknown split algorithm 'Nope': use one of [HexStringSplit, UniformSplit]",
        usage,
        "ERROR: Unknown table nope!",
        "ERROR: Table uni is disabled!"));
  }

  @Test
  void statsShowEngineAndStoreMetrics() {
    String out = shell("create 't', 'f', 'g'", "put 't', 'r', 'f:q', 'v', 1", "stats", "stats 't'");
    assertThat(out).contains("METRIC                             VALUE\n");
    assertThat(out).contains("FAMILY                             METRIC=VALUE\n");
    assertThat(out).containsPattern("\n f {33}\\S+=\\S+\n").containsPattern("\n g {33}\\S+=\\S+\n");
    assertThat(out).doesNotContain("ERROR");
  }

  @Test
  void badCommandsPrintErrorsAndTheShellGoesOn() {
    String out = shell(
        "create 't', 'f'",
        "nonsense",
        "put 't', 'r'",
        "put 't', 'r', 'nofamily:q', 'v'",
        "get 'missing', 'r'",
        "create 't', 'f'",
        "scan 't', {FILTER => \"SKIP ValueFilter(=, 'binary:x')\"}",
        "put 't', 'r', 'f:q', \"\\xZZ\"",
        "create 'x', {NAME => 'f', VERSIONS => 'lots'}",
        "put 't', 'r', 'f:q', 'fine', 1",
        "scan 't'",
        "exists 'x'");
    assertThat(out.lines().filter(l -> l.startsWith("ERROR: ")).count()).isEqualTo(8);
    assertThat(out).endsWith(lines(
        "ROW                                COLUMN+CELL",
        " r                                 column=f:q, timestamp=1, value=fine",
        "1 row(s)",
        "Table x does not exist"));
    assertThat(status).isEqualTo(1);
  }

  @Test
  void dataSurvivesExitAndReopen() {
    shell("create 't', 'f'", "put 't', 'r', 'f:q', 'kept', 1", "exit", "put 't', 'r', 'f:q', 'never', 2");
    assertThat(status).isZero();
    assertThat(Files.isDirectory(dir.resolve("data"))).isTrue();
    String out = shell("get 't', 'r'");
    assertThat(out).isEqualTo(lines(
        "COLUMN                             CELL",
        " f:q                               timestamp=1, value=kept",
        "1 row(s)"));
    // EOF without exit closes cleanly too: a third session opens the same directory.
    shell("put 't', 'r2', 'f:q', 'x', 3");
    assertThat(shell("count 't'")).isEqualTo("2 row(s)\n");
  }
}
