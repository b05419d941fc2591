package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.BloomType;
import io.bellows.config.Compression;
import io.bellows.util.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny file written with fixed options must match these bytes exactly. The example in
 * docs/FORMAT.md ("Sorted files") walks through the same bytes; if this test fails, the format changed and the
 * documentation (and the format version) must change with it.
 */
class GoldenFileTest {
  @TempDir Path dir;

  static final String GOLDEN =
      // data block (0..57), root index (58..100), Bloom (101..140), meta (141..328), trailer (329..392)
      "01000000002c0000002c00100200027231016671000000000000000104763101070a0032000000000000000108020000000000000001e5715d19"
      + "03000000001d0000001d11000272310166713200000000000000010802003a000000000000000198b910ae"
      + "04000000001a0000001a011e00000000000000400000000000000001b49692da4b492d251f294e8b"
      + "0500000000ae000000ae0000001000027231016671000000000000000104000000000000000100000011000272310166713200000000000000010800000000000000020000000000000001000000000000000100000000000000020000000000000002000000020400000000000000010800000000000000010000000000000001013f847ae147ae147b00000100000000018bcfe5680000000000000000003a000000000000002c000000000000002b0000000000000189ef120532"
      + "000000000000003a000000000000003a0000002b00000001000000000000008d000000bc0000002800000000000000650e3e36070000000242454c4c4f575346";

  static List<Cell> cells() {
    Cell a = Cells.put(Bytes.of("r1"), Bytes.of("f"), Bytes.of("q"), 1, Bytes.of("v1"));
    a.setSeqId(1);
    Cell b = Cells.create(Bytes.of("r1"), Bytes.of("f"), Bytes.of("q2"), 1, CellType.DELETE, Bytes.EMPTY);
    b.setSeqId(2);
    return List.of(a, b);
  }

  static SortedFileOptions options() {
    return SortedFileOptions.builder().compression(Compression.NONE).bloomType(BloomType.ROW).bloomErrorRate(0.01)
        .blockSize(64 * 1024).creationTimeMillis(1_700_000_000_000L).build();
  }

  @Test
  void tinyFileMatchesGoldenBytes() throws Exception {
    Path p = dir.resolve("golden");
    TestCells.write(p, cells(), options());
    String hex = HexFormat.of().formatHex(Files.readAllBytes(p));
    assertThat(hex).isEqualTo(GOLDEN);

    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      assertThat(TestCells.scanAll(r)).containsExactlyElementsOf(cells());
    } finally {
      r.release();
    }
  }
}
