package io.bellows.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.BulkFileWriter;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots, alter and bulk load through the shell, against a real engine in a temporary directory
 * with a manual clock (2026-11-26 10:00:00 UTC), so timestamps and creation times are fixed.
 */
class ShellAdminTest {
  private static final long NOW = 1_795_687_200_000L; // 2026-11-26T10:00:00Z

  @TempDir
  Path dir;

  private Engine db;
  private int status;

  @BeforeEach
  void open() {
    db = LocalEngine.open(dir.resolve("data"), EngineOptions.builder().clock(new Clock.Manual(NOW)).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private String run(String... lines) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    String script = String.join("\n", lines) + "\n";
    status = new Shell(db, Session.embedded(null), new BufferedReader(new StringReader(script)), out, false, false).run();
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  @Test
  void snapshotListCloneRestoreAndDeleteInHBasesLayout() {
    String out = run(
        "create 't', 'f'",
        "put 't', 'r1', 'f:q', 'v1', 1",
        "snapshot 't', 's1'",
        "put 't', 'r2', 'f:q', 'v2', 2",
        "snapshot 't', 'other-2'",
        "list_snapshots",
        "list_snapshots 's.*'",
        "clone_snapshot 's1', 'c'",
        "scan 'c'",
        "put 't', 'r1', 'f:q', 'changed', 3",
        "disable 't'",
        "restore_snapshot 's1'",
        "is_enabled 't'",
        "enable 't'",
        "scan 't'",
        "delete_snapshot 's1'",
        "list_snapshots",
        "scan 'c'");
    assertThat(out).isEqualTo(lines(
        "Created table t",
        "SNAPSHOT                           TABLE + CREATION TIME",
        " other-2                           t (2026-11-26 10:00:00 +0000)",
        " s1                                t (2026-11-26 10:00:00 +0000)",
        "2 row(s)",
        "SNAPSHOT                           TABLE + CREATION TIME",
        " s1                                t (2026-11-26 10:00:00 +0000)",
        "1 row(s)",
        "ROW                                COLUMN+CELL",
        " r1                                column=f:q, timestamp=1, value=v1",
        "1 row(s)",
        "false",
        "ROW                                COLUMN+CELL",
        " r1                                column=f:q, timestamp=1, value=v1",
        "1 row(s)",
        "SNAPSHOT                           TABLE + CREATION TIME",
        " other-2                           t (2026-11-26 10:00:00 +0000)",
        "1 row(s)",
        "ROW                                COLUMN+CELL",
        " r1                                column=f:q, timestamp=1, value=v1",
        "1 row(s)"));
    assertThat(status).isZero();
  }

  @Test
  void skipFlushLeavesOutWhatIsOnlyInMemory() {
    String out = run(
        "create 't', 'f'",
        "put 't', 'r1', 'f:q', 'on disk', 1",
        "flush 't'",
        "put 't', 'r2', 'f:q', 'in memory', 2",
        "snapshot 't', 'quick', {SKIP_FLUSH => true}",
        "snapshot 't', 'full'",
        "clone_snapshot 'quick', 'q'",
        "clone_snapshot 'full', 'f'",
        "count 'q'",
        "count 'f'");
    assertThat(out).endsWith(lines("1 row(s)", "2 row(s)"));
  }

  @Test
  void snapshotCommandsRefuseBadInputClearly() {
    String out = run(
        "create 't', 'f'",
        "create 'u', 'f'",
        "snapshot 'nope', 's1'",
        "snapshot 't', 's1'",
        "snapshot 't', 's1'",
        "snapshot 't', 'bad name'",
        "delete_snapshot 'nope'",
        "clone_snapshot 'nope', 'x'",
        "clone_snapshot 's1', 'u'",
        "restore_snapshot 'nope'",
        "restore_snapshot 's1'",
        "snapshot 't', 's2', {SKIP_FLUSH => 'yes'}",
        "list_snapshots");
    assertThat(out).isEqualTo(lines(
        "Created table t",
        "Created table u",
        "ERROR: Unknown table nope!",
        "ERROR: Snapshot s1 already exists!",
        "ERROR: invalid snapshot name 'bad name': use letters, digits, '_', '-' and '.' (not first), at most 200"
            + " characters",
        "ERROR: Unknown snapshot nope!",
        "ERROR: Unknown snapshot nope!",
        "ERROR: Table already exists: u!",
        "ERROR: Unknown snapshot nope!",
        "ERROR: Table t is enabled. Disable it before restoring snapshot s1 into it.",
        "ERROR: snapshot: SKIP_FLUSH must be true or false, not the string 'yes'",
        "Usage: snapshot 't', 'name' [, {SKIP_FLUSH => true}]",
        "SNAPSHOT                           TABLE + CREATION TIME",
        " s1                                t (2026-11-26 10:00:00 +0000)",
        "1 row(s)"));
    assertThat(status).isEqualTo(1);
    assertThat(db.isTableEnabled("t")).isTrue();
  }

  @Test
  void restoringADroppedTableCreatesItAgain() {
    String out = run(
        "create 't', {NAME => 'f', VERSIONS => 2}",
        "put 't', 'r', 'f:q', 'v', 1",
        "snapshot 't', 's1'",
        "disable 't'",
        "drop 't'",
        "restore_snapshot 's1'",
        "get 't', 'r'");
    assertThat(out).endsWith(lines("COLUMN                             CELL",
        " f:q                               timestamp=1, value=v", "1 row(s)"));
    assertThat(db.describeTable("t").family("f").maxVersions()).isEqualTo(2);
  }

  @Test
  void alterInEveryFormOfHBase() {
    String out = run(
        "create 't', 'f', SPLITS => ['m']",
        "put 't', 'r', 'f:q', 'v1', 1",
        "put 't', 'r', 'f:q', 'v2', 2",
        "get 't', 'r', {COLUMN => 'f:q', VERSIONS => 5}",
        "alter 't', {NAME => 'f', VERSIONS => 5}",
        "put 't', 'r', 'f:q', 'v3', 3",
        "get 't', 'r', {COLUMN => 'f:q', VERSIONS => 5}",
        "alter 't', 'g'",
        "alter 't', {NAME => 'h', VERSIONS => 2}",
        "put 't', 'r', 'g:q', 'in g', 4",
        "alter 't', 'delete' => 'g'",
        "alter 't', {NAME => 'h', METHOD => 'delete'}",
        "alter 't', DURABILITY => 'FSYNC_WAL'",
        "alter 't', 'i', {NAME => 'f', TTL => 'FOREVER', BLOCKSIZE => '8K'}, METHOD => 'table_att', MAX_FILESIZE => '1G'",
        "get 't', 'r'");
    String updated = lines("Updating all regions with the new schema...", "2/2 regions updated.", "Done.");
    assertThat(out).isEqualTo("Created table t\n"
        + lines("COLUMN                             CELL",
            " f:q                               timestamp=2, value=v2",
            "1 row(s)")
        + updated
        + lines("COLUMN                             CELL",
            " f:q                               timestamp=3, value=v3",
            " f:q                               timestamp=2, value=v2", // v1 went at the alter's flush (VERSIONS 1 then)
            "2 row(s)")
        + updated + updated + updated + updated + updated + updated
        + lines("COLUMN                             CELL",
            " f:q                               timestamp=3, value=v3",
            "1 row(s)"));
    assertThat(db.describeTable("t").families()).extracting(ColumnFamilyDescriptor::name).containsExactly("f", "i");
    assertThat(db.describeTable("t").family("f").maxVersions()).as("unnamed settings stay").isEqualTo(5);
    assertThat(db.describeTable("t").family("f").get(io.bellows.config.Knobs.BLOCKSIZE)).isEqualTo(8192);
    assertThat(db.describeTable("t").durability()).isEqualTo(Durability.FSYNC_WAL);
  }

  @Test
  void aDisabledTableIsAlteredToo() {
    String out = run("create 't', 'f'", "disable 't'", "alter 't', 'g', {NAME => 'f', VERSIONS => 2}", "enable 't'",
        "describe 't'");
    assertThat(out).startsWith(lines("Created table t", "Updating all regions with the new schema...",
        "1/1 regions updated.", "Done.", "Table t is ENABLED"));
    assertThat(db.describeTable("t").families()).extracting(ColumnFamilyDescriptor::name).containsExactly("f", "g");
    assertThat(db.describeTable("t").family("f").maxVersions()).isEqualTo(2);
  }

  @Test
  void alterRefusesAMissingFamilyOrTableAndAppliesNoneOfItsChanges() {
    String out = run(
        "create 't', 'f', 'g'",
        "alter 't', {NAME => 'f', VERSIONS => 3}, 'delete' => 'x'",
        "alter 't', 'f'",
        "alter 'nope', 'f'",
        "alter 't', 'delete' => 'f', 'delete' => 'g'",
        "alter 't', {NAME => 'f', METHOD => 'delete'}, {NAME => 'g', METHOD => 'delete'}",
        "alter 't', {NAME => 'f', VERSIONS => -1}");
    assertThat(out).isEqualTo(lines(
        "Created table t",
        "ERROR: Unknown column family 'x' of table t; its families are: f, g",
        "ERROR: Column family 'f' of table t exists already; change its settings with {NAME => 'f', KNOB => value}",
        "ERROR: Unknown table nope!",
        "ERROR: syntax error at column 38: key 'delete' given twice",
        "ERROR: Cannot delete column family 'g' of table t: it is the table's only family (drop the table instead)",
        "ERROR: alter: family 'f': VERSIONS = -1 is invalid: must be an integer from 1 to 2147483647",
        "Usage: " + CommandCatalog.find("alter").usage()));
    assertThat(db.describeTable("t").family("f").maxVersions()).isEqualTo(1);
    assertThat(db.describeTable("t").families()).hasSize(2);
  }

  @Test
  void bulkLoadAdoptsTheFilesOfEachFamilysDirectory() throws IOException {
    run("create 't', 'f', 'g', SPLITS => ['m']");
    Path load = dir.resolve("load");
    write(load.resolve("f/part-0"), "f", "a", "z");
    write(load.resolve("g/part-0"), "g", "b");
    Files.writeString(Files.createDirectories(load.resolve("f")).resolve("_SUCCESS"), ""); // a job's marker: skipped
    String out = run("bulk_load 't', '" + load + "'", "scan 't'", "count 't'");
    assertThat(out).isEqualTo(lines(
        "Loaded 3 cell(s) from 2 file(s) into table t",
        "ROW                                COLUMN+CELL",
        " a                                 column=f:q, timestamp=7, value=a",
        " b                                 column=g:q, timestamp=7, value=b",
        " z                                 column=f:q, timestamp=7, value=z",
        "3 row(s)",
        "3 row(s)"));
  }

  @Test
  void bulkLoadRefusesBadInputAndLoadsNothing() throws IOException {
    run("create 't', 'f'");
    Path wrongFamily = dir.resolve("wrong");
    write(wrongFamily.resolve("x/part-0"), "x", "a");
    Path damaged = dir.resolve("damaged");
    write(damaged.resolve("f/part-0"), "f", "a");
    Path file = damaged.resolve("f/part-1");
    Files.write(file, new byte[] {1, 2, 3});
    Path flat = dir.resolve("flat");
    write(flat.resolve("f/part-0"), "f", "a");
    Files.writeString(flat.resolve("stray"), "x");
    Path empty = Files.createDirectories(dir.resolve("empty/f"));
    String out = run(
        "bulk_load 't', '" + dir.resolve("missing") + "'",
        "bulk_load 't', '" + wrongFamily + "'",
        "bulk_load 't', '" + damaged + "'",
        "bulk_load 't', '" + flat + "'",
        "bulk_load 't', '" + empty.getParent() + "'",
        "bulk_load 'nope', '" + flat + "'",
        "count 't'");
    assertThat(out).isEqualTo(lines(
        "ERROR: " + dir.resolve("missing") + " is not a directory (a bulk load reads DIR/family/file)",
        "ERROR: Unknown column family 'x' of table t; its families are: f",
        "ERROR: bulk load: " + file + " is not a readable Bellows sorted file: " + firstReason(file),
        "ERROR: " + flat.resolve("stray") + " is a file: a bulk-load directory holds one directory per column family,"
            + " named after it, with the family's sorted files",
        "ERROR: no files to load in " + empty.getParent() + " (a bulk load reads DIR/family/file)",
        "ERROR: Unknown table nope!",
        "0 row(s)"));
  }

  /** The reason the engine gives for a file that is no sorted file (its wording is the engine's). */
  private String firstReason(Path file) {
    try {
      db.bulkLoad("t", java.util.Map.of("f", java.util.List.of(file)));
      throw new AssertionError("loaded a damaged file");
    } catch (RuntimeException e) {
      return e.getMessage().substring(e.getMessage().indexOf("sorted file: ") + "sorted file: ".length());
    }
  }

  @Test
  void helpExplainsEachNewCommandWithItsOptions() {
    String out = run("help 'snapshot'", "help 'alter'", "help 'bulk_load'", "help 'restore_snapshot'", "help");
    assertThat(out).contains("SKIP_FLUSH => true").contains("METHOD => 'delete'").contains("VERSIONS, MIN_VERSIONS")
        .contains("DURABILITY").contains("DIR holds one\ndirectory per column family")
        .contains("the table must be disabled first").contains("Group snapshots:");
    assertThat(status).isZero();
  }

  private static void write(Path file, String family, String... rows) throws IOException {
    Files.createDirectories(file.getParent());
    try (BulkFileWriter w = BulkFileWriter.create(file, ColumnFamilyDescriptor.of(family))) {
      for (String r : rows) {
        w.put(Bytes.of(r), Bytes.of("q"), 7, Bytes.of(r));
      }
      w.finish();
    }
  }
}
