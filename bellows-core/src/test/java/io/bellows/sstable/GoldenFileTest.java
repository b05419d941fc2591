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
      // data block (0..57), root index (58..100), Bloom (101..196), meta (197..384), trailer (385..448)
      "01000000002c0000002c00100200027231016671000000000000000104763101070a0032000000000000000108020000000000000001e5715d19"
      + "03000000001d0000001d11000272310166713200000000000000010802003a000000000000000198b910ae"
      + "060000000052000000520107000000000000020000000000000000010000000000488000000000000000000040000000000000000008000000000000000000000000000000020000000000000000001000000000000000000000000064bc2b94"
      + "0500000000ae000000ae0000001000027231016671000000000000000104000000000000000100000011000272310166713200000000000000010800000000000000020000000000000001000000000000000100000000000000020000000000000002000000020400000000000000010800000000000000010000000000000001013f847ae147ae147b00000100000000018bcfe5680002000000000000003a000000000000002c000000000000002b00000000000001c190c2161f"
      + "000000000000003a000000000000003a0000002b0000000100000000000000c5000000bc00000060000000000000006596465a5c0000000442454c4c4f575346";

  /**
   * The same cells and options as version 3 wrote them (the meta block's flags byte 0: not major,
   * and rows not known to stay within blocks): no longer written, still read.
   */
  static final String GOLDEN_V3 =
      // data block (0..57), root index (58..100), Bloom (101..196), meta (197..384), trailer (385..448)
      "01000000002c0000002c00100200027231016671000000000000000104763101070a0032000000000000000108020000000000000001e5715d19"
      + "03000000001d0000001d11000272310166713200000000000000010802003a000000000000000198b910ae"
      + "060000000052000000520107000000000000020000000000000000010000000000488000000000000000000040000000000000000008000000000000000000000000000000020000000000000000001000000000000000000000000064bc2b94"
      + "0500000000ae000000ae0000001000027231016671000000000000000104000000000000000100000011000272310166713200000000000000010800000000000000020000000000000001000000000000000100000000000000020000000000000002000000020400000000000000010800000000000000010000000000000001013f847ae147ae147b00000100000000018bcfe5680000000000000000003a000000000000002c000000000000002b00000000000001c124b04041"
      + "000000000000003a000000000000003a0000002b0000000100000000000000c5000000bc000000600000000000000065512694460000000342454c4c4f575346";

  /**
   * The same cells and options as version 2 wrote them (classic Bloom layout, block type 4): no longer
   * written, still read.
   */
  static final String GOLDEN_V2 =
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

  /** A version 2 file reads as it always did: its cells, and its classic Bloom filter answers. */
  @Test
  void versionTwoFileStillReads() throws Exception {
    Path p = dir.resolve("golden-v2");
    Files.write(p, HexFormat.of().parseHex(GOLDEN_V2));
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      assertThat(r.trailer().version()).isEqualTo(2);
      assertThat(r.bloomFilter().layout()).isEqualTo(BloomFilter.Layout.CLASSIC);
      assertThat(r.bloomFilter().mightContain(Bytes.of("r1"), 0, 2)).isTrue();
      assertThat(TestCells.scanAll(r)).containsExactlyElementsOf(cells());
    } finally {
      r.release();
    }
  }

  /** A version 3 file reads as it always did; its rows may span blocks, as far as a reader knows. */
  @Test
  void versionThreeFileStillReads() throws Exception {
    Path p = dir.resolve("golden-v3");
    Files.write(p, HexFormat.of().parseHex(GOLDEN_V3));
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      assertThat(r.trailer().version()).isEqualTo(3);
      assertThat(r.metadata().rowsWithinBlocks()).isFalse();
      assertThat(r.metadata().majorCompaction()).isFalse();
      assertThat(r.bloomFilter().layout()).isEqualTo(BloomFilter.Layout.BLOCKED);
      assertThat(r.readRow(Bytes.of("r1")).cells()).containsExactlyElementsOf(cells());
      assertThat(TestCells.scanAll(r)).containsExactlyElementsOf(cells());
    } finally {
      r.release();
    }
  }

  @Test
  void tinyFileMatchesGoldenBytes() throws Exception {
    Path p = dir.resolve("golden");
    TestCells.write(p, cells(), options());
    String hex = HexFormat.of().formatHex(Files.readAllBytes(p));
    assertThat(hex).isEqualTo(GOLDEN);

    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      assertThat(r.trailer().version()).isEqualTo(4);
      assertThat(r.metadata().rowsWithinBlocks()).isTrue();
      assertThat(r.bloomFilter().layout()).isEqualTo(BloomFilter.Layout.BLOCKED);
      assertThat(r.bloomFilter().mightContain(Bytes.of("r1"), 0, 2)).isTrue();
      assertThat(TestCells.scanAll(r)).containsExactlyElementsOf(cells());
    } finally {
      r.release();
    }
  }
  /**
   * Dynamic block sizing, pinned: BLOCKSIZE 128 (the maximum), MIN_BLOCKSIZE 48, MAX_ENTRIES_PER_BLOCK
   * 2. Three small cells close the first block by count (past 48 bytes with 3 > 2 cells), one
   * 150-byte value closes the second by size alone, and the last two cells end the file. The bytes
   * are those of a static file with the same blocks: only where blocks end depends on the mode.
   */
  static final String GOLDEN_DYNAMIC =
      // data blocks of 3, 1 and 2 cells (0..81, 82..274, 275..337), root index (338..429), Bloom (430..525),
      // meta (526..703), trailer (704..767)
      "0100000000440000004400100200027231016671000000000000000104763101030d0232016671000000000000000104763202030d0233016671000000000000000104763303000000000000000103876567"
      + "0100000000b3000000b30010960100027234016671000000000000000104" + "78".repeat(150) + "040000000000000001864f0807"
      + "0100000000310000003100100200027235016671000000000000000104763505030d023601667100000000000000010476360600000000000000017dc768e0"
      + "03000000004e0000004e100002723301667100000000000000010403005210000272340166710000000000000001040452c10110000272360166710000000000000001040693023f0000000000000014000000290000000389abe34d"
      + "060000000052000000520107000000000000020000000000000000060000000000c8a00006c0000000020004600240800000020042180210000000401008010080000000400200040001300020080098000000000000000000000002f9388f34"
      + "0500000000a4000000a400000010000272310166710000000000000001040000000000000001000000100002723601667100000000000000010400000000000000060000000000000001000000000000000100000000000000060000000000000006000000010400000000000000060000000000000003013f847ae147ae147b00000000800000018bcfe568000200000000000001520000000000000128000000000000005c00000000000003007e945f8e"
      + "000000000000015200000000000001520000005c00000001000000000000020e000000b20000006000000000000001aec069689d0000000442454c4c4f575346";

  static List<Cell> dynamicCells() {
    List<Cell> cells = new java.util.ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      byte[] value = Bytes.of(i == 4 ? "x".repeat(150) : "v" + i);
      Cell c = Cells.put(Bytes.of("r" + i), Bytes.of("f"), Bytes.of("q"), 1, value);
      c.setSeqId(i);
      cells.add(c);
    }
    return cells;
  }

  @Test
  void dynamicBlockSizeFileMatchesGoldenBytes() throws Exception {
    Path p = dir.resolve("golden-dynamic");
    TestCells.write(p, dynamicCells(), SortedFileOptions.builder().compression(Compression.NONE)
        .bloomType(BloomType.ROW).bloomErrorRate(0.01).blockSize(128).minBlockSize(48).maxEntriesPerBlock(2)
        .creationTimeMillis(1_700_000_000_000L).build());
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      List<DataBlockSummary> blocks = DataBlockSummary.of(r);
      assertThat(blocks).extracting(DataBlockSummary::cells).containsExactly(3, 1, 2);
      assertThat(blocks).extracting(DataBlockSummary::uncompressedSize).containsExactly(68, 179, 49);
      assertThat(blocks).extracting(DataBlockSummary::offset).containsExactly(0L, 82L, 275L);
      assertThat(TestCells.scanAll(r)).containsExactlyElementsOf(dynamicCells());
    } finally {
      r.release();
    }
    assertThat(HexFormat.of().formatHex(Files.readAllBytes(p))).isEqualTo(GOLDEN_DYNAMIC);
  }
}
