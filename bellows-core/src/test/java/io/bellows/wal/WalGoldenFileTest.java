package io.bellows.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tiny WAL files compared byte for byte with the layout of docs/FORMAT.md ("Write-ahead log"), so
 * the document cannot drift from the code: header, then records of edits.
 */
class WalGoldenFileTest {
  /** The record of both golden files: see {@link #GOLDEN}. */
  static final String RECORD = "00000026d10c12fe2bd9608a"
      + "00000007000000008000000100000002" + "0401720166017100000000000000050176" + "7c02713200";

  /**
   * Header: "BWAL", version 4, file number 1, fenced length -1 (the previous file did not fail),
   * CRC32C of the 24 bytes before. Record: payload length, CRC32C of the payload, CRC32C of the 8
   * bytes before, payload = region 7, sequence id 2^31 + 1, 2 cells: r/f:q @5 PUT "v" (flags, row,
   * family, qualifier, timestamp, value) and r/f:q2 @5 DELETE_COLUMN with no value (flags saying
   * row, family and timestamp repeat, qualifier, value).
   */
  static final String GOLDEN = "4257414c000000040000000000000001ffffffffffffffff" + "%s" + RECORD;

  /** The same file in version 3, which builds before version 4 wrote (read, no longer written): a 20-byte header. */
  static final String GOLDEN_VERSION_3 = "4257414c00000003000000000000000185ccb07a" + RECORD;

  /**
   * A version 2 file (this build reads it, and no longer writes it): the same header but version 2,
   * then one record of the first cell above, logged whole after its length.
   */
  static final String GOLDEN_VERSION_2 = "4257414c00000002000000000000000171f26632" + "0000002c69dd3b692ac78373"
      + "00000007000000008000000100000001000000180000000f0000000100017201667100000000000000050476";

  @TempDir Path dir;

  @Test
  void oneEditFileHasTheDocumentedBytes() throws IOException {
    Cell cell = Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), 5, Bytes.of("v"));
    Cell tombstone = Cells.create(Bytes.of("r"), Bytes.of("f"), Bytes.of("q2"), 5, CellType.DELETE_COLUMN, Bytes.EMPTY);
    try (Wal wal = Wal.open(dir, WalOptions.defaults())) {
      wal.replay(e -> { });
      long txid = wal.append(new WriteRecord(7, (1L << 31) + 1, List.of(cell, tombstone)));
      wal.sync(txid, Durability.FSYNC_WAL);
    }
    Path file;
    try (Stream<Path> s = Files.list(dir)) {
      file = s.filter(p -> p.getFileName().toString().endsWith(".log")).findFirst().orElseThrow();
    }
    assertThat(file.getFileName().toString()).isEqualTo("wal-00000000000000000001.log");
    String hex = HexFormat.of().formatHex(Files.readAllBytes(file));
    byte[] header = HexFormat.of().parseHex("4257414c000000040000000000000001ffffffffffffffff");
    assertThat(hex).isEqualTo(String.format(GOLDEN, String.format("%08x", WalFormat.crc(header, 0, 24))));
  }

  /** A version 3 file, as builds before version 4 wrote it, replays to its cells. */
  @Test
  void aVersion3FileReplays() throws IOException {
    Files.write(dir.resolve("wal-00000000000000000001.log"), HexFormat.of().parseHex(GOLDEN_VERSION_3));
    Cell cell = Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), 5, Bytes.of("v"));
    Cell tombstone = Cells.create(Bytes.of("r"), Bytes.of("f"), Bytes.of("q2"), 5, CellType.DELETE_COLUMN, Bytes.EMPTY);
    assertThat(WalTestSupport.flat(WalTestSupport.reopenAndReplay(dir))).containsExactly(
        WalTestSupport.flat(new WriteRecord(7, (1L << 31) + 1, List.of(cell, tombstone))));
  }

  /** A version 2 file, as builds before version 3 wrote it, replays to its cell. */
  @Test
  void aVersion2FileReplays() throws IOException {
    Files.write(dir.resolve("wal-00000000000000000001.log"), HexFormat.of().parseHex(GOLDEN_VERSION_2));
    List<WriteRecord> edits = WalTestSupport.reopenAndReplay(dir);
    Cell cell = Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), 5, Bytes.of("v"));
    assertThat(WalTestSupport.flat(edits)).containsExactly(
        WalTestSupport.flat(new WriteRecord(7, (1L << 31) + 1, List.of(cell))));
    assertThat(edits.get(0).cells().get(0).seqId()).isEqualTo((1L << 31) + 1);
  }

  /** After an upgrade the log holds a version 2 file and then version 3 files; replay reads both, in order. */
  @Test
  void aLogOfBothVersionsReplaysInOrder() throws IOException {
    Files.write(dir.resolve("wal-00000000000000000001.log"), HexFormat.of().parseHex(GOLDEN_VERSION_2));
    WriteRecord later = WalTestSupport.edit(3, (1L << 31) + 2, "r2", "after the upgrade");
    try (Wal wal = Wal.open(dir, WalTestSupport.quiet())) {
      assertThat(WalTestSupport.replayAll(wal)).hasSize(1);
      wal.sync(wal.append(later), Durability.FSYNC_WAL);
    }
    List<Path> files = WalTestSupport.walFiles(dir);
    assertThat(files).hasSize(2);
    assertThat(Files.readAllBytes(files.get(1))[7]).isEqualTo((byte) WalFormat.VERSION);
    List<WriteRecord> edits = WalTestSupport.reopenAndReplay(dir);
    assertThat(edits).extracting(WriteRecord::seqId).containsExactly((1L << 31) + 1, (1L << 31) + 2);
    assertThat(WalTestSupport.flat(edits.get(1))).isEqualTo(WalTestSupport.flat(later));
  }

  /** The version 2 golden bytes are what {@link WalTestSupport#version2Payload} lays out. */
  @Test
  void version2GoldenMatchesTheVersion2Layout() {
    Cell cell = Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), 5, Bytes.of("v"));
    byte[] payload = WalTestSupport.version2Payload(new WriteRecord(7, (1L << 31) + 1, List.of(cell)));
    String expected = HexFormat.of().formatHex(WalTestSupport.version2Header(1))
        + HexFormat.of().formatHex(WalTestSupport.record(payload));
    assertThat(expected).isEqualTo(GOLDEN_VERSION_2);
  }
}
