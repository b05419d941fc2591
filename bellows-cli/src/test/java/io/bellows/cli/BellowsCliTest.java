package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.record.WriteRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import io.bellows.cell.Cells;
import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.wal.Wal;
import io.bellows.wal.WalOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.junit.jupiter.api.io.TempDir;

/** The command line's wiring; needs no engine. */
class BellowsCliTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private int run(String... args) {
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    return BellowsCli.execute(new ByteArrayInputStream(new byte[0]), out, args);
  }

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void noArgumentsPrintsUsageWithTheSubcommands() {
    assertThat(run()).isZero();
    assertThat(output()).contains("Usage: bellows").contains("shell").contains("server").contains("inspect").contains("wal-dump");
  }

  /** A bare {@code %} in a description makes picocli print a warning and the raw text instead. */
  @Test
  void everyCommandsHelpRendersWithoutFormatWarnings() {
    PrintStream err = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      ArrayDeque<CommandLine> todo = new ArrayDeque<>();
      todo.add(new CommandLine(new BellowsCli()));
      int rendered = 0;
      while (!todo.isEmpty()) {
        CommandLine c = todo.poll();
        assertThat(c.getUsageMessage()).as(c.getCommandName()).isNotBlank();
        rendered++;
        todo.addAll(c.getSubcommands().values());
      }
      assertThat(rendered).isGreaterThan(10);
    } finally {
      System.setErr(err);
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8)).doesNotContain("WARN");
  }

  @Test
  void shellHelpNamesItsOptions() {
    assertThat(run("shell", "--help")).isZero();
    assertThat(output()).contains("--data=DIR").contains("bellows-data").contains("--no-timing");
  }

  @Test
  void toolsReportMissingFilesClearly(@TempDir Path tmp) {
    Path missing = tmp.resolve("missing.sst");
    assertThat(run("inspect", missing.toString())).isEqualTo(1);
    assertThat(output()).isEqualTo("ERROR: " + missing + ": cannot open sorted file: no such file or directory\n");
    bytes.reset();
    Path missingLog = tmp.resolve("nonexistent");
    assertThat(run("wal-dump", missingLog.toString())).isEqualTo(1);
    assertThat(output()).isEqualTo("ERROR: " + missingLog + ": no such file or directory\n");
  }

  @Test
  void toolsSayWhenAFileIsNotOfTheirKind(@TempDir Path tmp) throws Exception {
    Path text = tmp.resolve("notes.txt");
    Files.writeString(text, "just some text, long enough to hold a sorted-file trailer if it were one: "
        + "0123456789012345678901234567890123456789\n");
    assertThat(run("wal-dump", text.toString())).isEqualTo(1);
    assertThat(output()).contains("not a Bellows WAL file").doesNotContain("Exception");
    bytes.reset();
    assertThat(run("inspect", text.toString())).isEqualTo(1);
    assertThat(output()).contains("not a Bellows sorted file").doesNotContain("Exception");
    bytes.reset();
    assertThat(run("inspect", tmp.toString())).as("a directory").isEqualTo(1);
    assertThat(output()).startsWith("ERROR: " + tmp + ": ").doesNotContain("Exception");
  }

  @Test
  void inspectShowsTheBlockSizeAndCellsPerBlockHistograms(@TempDir Path tmp) {
    Path file = tmp.resolve("dynamic.sst");
    io.bellows.sstable.SortedFileWriter w = io.bellows.sstable.SortedFileWriter.create(file,
        io.bellows.sstable.SortedFileOptions.builder().blockSize(16 * 1024).minBlockSize(1024).maxEntriesPerBlock(16)
            .build());
    for (int i = 0; i < 3; i++) { // 3 rows of 16 KiB values, then 740 of 10 bytes (20 blocks of 37)
      var c = Cells.put(Bytes.of("A" + i), Bytes.of("f"), Bytes.of("q"), 1, new byte[16 * 1024]);
      c.setSeqId(1);
      w.append(c);
    }
    for (int i = 0; i < 740; i++) {
      var c = Cells.put(Bytes.of(String.format("a%05d", i)), Bytes.of("f"), Bytes.of("q"), 1, new byte[10]);
      c.setSeqId(1);
      w.append(c);
    }
    w.finish();
    assertThat(run("inspect", file.toString())).isZero();
    String text = output();
    assertThat(text).contains("Data block sizes (uncompressed, power-of-two buckets):", "Cells per block:",
        "min=1 ").containsPattern("\\[16 KiB, 32 KiB\\) +3 ").containsPattern("\\[1, 2\\) +3 ")
        .containsPattern("\\[1 KiB, 2 KiB\\) +20 ")
        .containsPattern("\\[32, 64\\) +20 ").contains("min=1 mean=32.3 max=37");
  }

  @Test
  void usageErrorsExitWithTwoAndTheHelpListsTheExitCodes() {
    assertThat(run("wal-dump")).isEqualTo(2);
    assertThat(run("inspect")).isEqualTo(2);
    bytes.reset();
    assertThat(run("wal-dump", "--help")).isZero();
    assertThat(output()).contains("Exit codes:").contains("--truncate");
    bytes.reset();
    assertThat(run("inspect", "--help")).isZero();
    assertThat(output()).contains("Exit codes:");
  }

  @Test
  void benchAndYcsbPointToTheBenchmarkLab() {
    for (String command : List.of("bench", "ycsb")) {
      bytes.reset();
      assertThat(run(command, "paper", "--scale", "0.05")).as(command).isEqualTo(2);
      assertThat(output()).contains("'bellows " + command + "' is part of the benchmark lab")
          .contains("./bellows " + command).contains("bellows-bench/target/benchmarks.jar");
    }
  }

  @Test
  void inspectAndWalDumpPrintARealStore(@TempDir Path tmp) throws Exception {
    try (Bellows db = Bellows.open(tmp, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      db.getTable("t").put(new Put("row1").addColumn("f", "q", "value1"));
      db.flush("t");
      db.getTable("t").put(new Put("row2").addColumn("f", "q", "value2"));
      // While the engine is open: a clean close may leave no WAL behind.
      assertThat(run("wal-dump", tmp.resolve("wal").toString())).isZero();
      assertThat(output()).contains("row2");
      // --truncate never changes a log under a running engine.
      Path log;
      try (Stream<Path> files = Files.list(tmp.resolve("wal"))) {
        log = files.filter(Files::isRegularFile).findFirst().orElseThrow();
      }
      byte[] before = Files.readAllBytes(log);
      bytes.reset();
      assertThat(run("wal-dump", "--truncate", log.toString())).isEqualTo(1);
      assertThat(output()).contains("is open in a running Bellows engine").contains("nothing was changed");
      assertThat(Files.readAllBytes(log)).isEqualTo(before);
      bytes.reset();
      Path manifest;
      try (Stream<Path> files = Files.walk(tmp.resolve("tables"))) {
        manifest = files.filter(p -> p.getFileName().toString().equals("MANIFEST")).findFirst().orElseThrow();
      }
      bytes.reset();
      assertThat(run("wal-dump", manifest.toString())).isEqualTo(1);
      assertThat(output()).contains("not a Bellows WAL file");
    }
    Path sst;
    try (Stream<Path> files = Files.walk(tmp.resolve("tables"))) {
      sst = files.filter(p -> p.toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    assertThat(run("inspect", sst.toString())).isZero();
    assertThat(output()).contains("row1");
  }

  @Test
  void walDumpExitsOneOnDamageAndTruncateCutsIt(@TempDir Path tmp) throws Exception {
    Path walDir = tmp.resolve("wal");
    long second;
    try (Wal wal = Wal.open(walDir, WalOptions.defaults())) {
      wal.append(edit("a"));
      second = 28 + wal.appendedTxid(); // the file header is 28 bytes (format 4); txids count record bytes
      wal.append(edit("b"));
      wal.append(edit("c"));
    }
    Path file;
    try (Stream<Path> s = Files.list(walDir)) {
      file = s.findFirst().orElseThrow();
    }
    byte[] b = Files.readAllBytes(file);
    b[(int) second + 1] ^= 0x40; // the second record's length
    Files.write(file, b);
    assertThat(run("wal-dump", walDir.toString())).isEqualTo(1);
    assertThat(output()).contains("DAMAGED record @" + second).contains("row-c");
    bytes.reset();
    assertThat(run("wal-dump", "--truncate", walDir.toString())).isEqualTo(2);
    bytes.reset();
    assertThat(run("wal-dump", "--truncate", file.toString())).isZero();
    assertThat(output()).contains("cut at byte offset " + second);
    assertThat(run("wal-dump", walDir.toString())).isZero();
  }

  private static WriteRecord edit(String row) {
    return new WriteRecord(1, 1, List.of(Cells.put(Bytes.of("row-" + row), Bytes.of("f"), Bytes.of("q"), 1, Bytes.of("v"))));
  }

  @Test
  void shellOnARegularFileSaysItIsNotADirectory(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("somefile"), "x");
    assertThat(run("shell", "--data", file.toString(), "--no-timing")).isEqualTo(2);
    assertThat(output()).isEqualTo("ERROR: cannot open " + file.toAbsolutePath() + ": not a directory\n");
  }

  @Test
  void shellOpenFailuresGiveTheReasonWithoutJavaClassNames(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("somefile"), "x");
    assertThat(run("shell", "--data", file.resolve("data").toString(), "--no-timing")).isEqualTo(2);
    assertThat(output()).startsWith("ERROR: cannot open " + file.resolve("data").toAbsolutePath() + ": ")
        .contains("somefile").doesNotContain("Exception").doesNotContain("java.");

    bytes.reset();
    try (io.bellows.client.Bellows db = io.bellows.client.Bellows.open(tmp.resolve("db"), io.bellows.config.EngineOptions.defaults())) {
      db.createTable(io.bellows.schema.TableDescriptor.builder("t").family("f").build());
      assertThat(run("shell", "--data", tmp.resolve("db").toString(), "--no-timing")).isEqualTo(2);
    }
    assertThat(output()).startsWith("ERROR: cannot open " + tmp.resolve("db").toAbsolutePath() + ": ")
        .contains("in use").doesNotContain("Exception").doesNotContain("io.bellows");

    bytes.reset();
    java.nio.file.Files.writeString(tmp.resolve("db").resolve("CATALOG"), "garbage\n",
        java.nio.file.StandardOpenOption.APPEND);
    assertThat(run("shell", "--data", tmp.resolve("db").toString(), "--no-timing")).isEqualTo(2);
    assertThat(output()).startsWith("ERROR: cannot open " + tmp.resolve("db").toAbsolutePath() + ": ")
        .contains("CATALOG").doesNotContain("Exception").doesNotContain("io.bellows");
  }

  @Test
  void toolErrorsNameTheMissingFileWithoutJavaClassNames(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
    assertThat(run("wal-dump", tmp.resolve("missing").toString())).isEqualTo(1);
    assertThat(output()).isEqualTo("ERROR: " + tmp.resolve("missing") + ": no such file or directory\n");
  }

  @Test
  void unknownSubcommandFails() {
    assertThat(run("frobnicate")).isNotZero();
    assertThat(output()).contains("frobnicate");
  }

  @Test
  void repairReportsASoundDirectoryAndRefusesAForeignOne(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("data");
    try (Bellows db = Bellows.open(data, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      db.getTable("t").put(new Put("r").addColumn("f", "q", "v"));
      db.flush("t");
    }
    assertThat(run("repair", data.toString())).as(output()).isZero();
    assertThat(output()).contains("catalog: ok").contains("checked 1 stores, 1 sorted files (1 cells)")
        .contains("no damage");
    bytes.reset();
    assertThat(run("repair", "--fix", tmp.toString())).isEqualTo(1);
    assertThat(output()).contains("is not a Bellows data directory").contains("nothing was changed");
  }

  @Test
  void snapshotExportAndImportCopyASnapshotToAnotherDataDirectory(@TempDir Path tmp) {
    Path data = tmp.resolve("data");
    try (Bellows db = Bellows.open(data, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      db.getTable("t").put(new Put("r").addColumn("f", "q", "v"));
      db.snapshot("t", "s1");
      assertThat(run("snapshot", "export", "--data", data.toString(), "--snapshot", "s1", "--to",
          tmp.resolve("backup").toString())).as(output()).isZero(); // while the engine runs
    }
    assertThat(output()).contains("copied snapshot s1: 1 sorted files");
    Path other = tmp.resolve("other");
    assertThat(run("snapshot", "import", "--from", tmp.resolve("backup").resolve("s1").toString(), "--data",
        other.toString())).as(output()).isZero();
    try (Bellows db = Bellows.open(other, EngineOptions.defaults())) {
      db.cloneSnapshot("s1", "t");
      assertThat(db.getTable("t").get(new io.bellows.client.Get("r")).getValue(io.bellows.util.Bytes.of("f"),
          io.bellows.util.Bytes.of("q"))).isEqualTo(io.bellows.util.Bytes.of("v"));
    }
    bytes.reset();
    assertThat(run("snapshot", "import", "--from", tmp.resolve("backup").resolve("s1").toString(), "--data",
        other.toString())).isEqualTo(2);
    assertThat(output()).contains("ERROR: snapshot 's1' already exists");
    bytes.reset();
    assertThat(run("snapshot", "export", "--data", data.toString(), "--snapshot", "nope", "--to",
        tmp.resolve("backup").toString())).isEqualTo(2);
    assertThat(output()).contains("ERROR: snapshot 'nope' does not exist");
  }

  @Test
  void bulkLoadLoadsADirectoryOfFamilyFilesIntoATable(@TempDir Path tmp) throws java.io.IOException {
    Path data = tmp.resolve("data");
    try (Bellows db = Bellows.open(data, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
    }
    Path load = tmp.resolve("load");
    java.nio.file.Files.createDirectories(load.resolve("f"));
    try (io.bellows.client.BulkFileWriter w = io.bellows.client.BulkFileWriter.create(load.resolve("f/part-0"),
        io.bellows.schema.ColumnFamilyDescriptor.of("f"))) {
      w.put(io.bellows.util.Bytes.of("r"), io.bellows.util.Bytes.of("q"), 5, io.bellows.util.Bytes.of("v"));
      w.finish();
    }
    assertThat(run("bulk-load", "--data", data.toString(), "t", load.toString())).as(output()).isZero();
    assertThat(output()).isEqualTo("Loaded 1 cell(s) from 1 file(s) into table t\n");
    try (Bellows db = Bellows.open(data, EngineOptions.defaults())) {
      assertThat(db.getTable("t").get(new io.bellows.client.Get("r")).getValue(io.bellows.util.Bytes.of("f"),
          io.bellows.util.Bytes.of("q"))).isEqualTo(io.bellows.util.Bytes.of("v"));
    }
    bytes.reset();
    assertThat(run("bulk-load", "--data", data.toString(), "nope", load.toString())).isEqualTo(2);
    assertThat(output()).contains("ERROR: ").contains("nope");
    bytes.reset();
    assertThat(run("bulk-load", "--data", data.toString(), "t", tmp.resolve("missing").toString())).isEqualTo(2);
    assertThat(output()).contains("is not a directory");
    bytes.reset();
    java.nio.file.Files.write(load.resolve("f/part-1"), new byte[] {1, 2, 3});
    assertThat(run("bulk-load", "--data", data.toString(), "t", load.toString())).isEqualTo(1);
    assertThat(output()).contains("ERROR: bulk load: " + load.resolve("f/part-1").toAbsolutePath());
  }
}
