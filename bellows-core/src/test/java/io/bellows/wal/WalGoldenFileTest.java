package io.bellows.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
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
 * A tiny WAL file compared byte for byte with the layout of docs/FORMAT.md ("Write-ahead log"), so
 * the document cannot drift from the code: header, then one record holding one edit of one cell.
 */
class WalGoldenFileTest {
  /**
   * Header: "BWAL", version 2, file number 1, CRC32C. Record: payload length, CRC32C of the
   * payload, CRC32C of the 8 bytes before, payload = region 7, sequence id 2^31 + 1, 1 cell, cell
   * length, cell r/f:q @5 PUT "v".
   */
  static final String GOLDEN = "4257414c00000002000000000000000171f26632" + "0000002c69dd3b692ac78373"
      + "00000007000000008000000100000001000000180000000f0000000100017201667100000000000000050476";

  @TempDir Path dir;

  @Test
  void oneEditFileHasTheDocumentedBytes() throws IOException {
    Cell cell = Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), 5, Bytes.of("v"));
    try (Wal wal = Wal.open(dir, WalOptions.defaults())) {
      wal.replay(e -> { });
      long txid = wal.append(new WalEdit(7, (1L << 31) + 1, List.of(cell)));
      wal.sync(txid, Durability.FSYNC_WAL);
    }
    Path file;
    try (Stream<Path> s = Files.list(dir)) {
      file = s.filter(p -> p.getFileName().toString().endsWith(".log")).findFirst().orElseThrow();
    }
    assertThat(file.getFileName().toString()).isEqualTo("wal-00000000000000000001.log");
    String hex = HexFormat.of().formatHex(Files.readAllBytes(file));
    assertThat(hex).isEqualTo(GOLDEN);
  }
}
