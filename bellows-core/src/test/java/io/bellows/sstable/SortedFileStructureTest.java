package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.BloomType;
import io.bellows.config.Compression;
import io.bellows.util.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Index levels, writer contract, empty files, reference counting and the inspector. */
class SortedFileStructureTest {
  @TempDir Path dir;

  private static List<Cell> rows(int n) {
    List<Cell> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(TestCells.put(String.format("row%06d", i), "q", 10, i + 1));
    }
    return out;
  }

  @Test
  void tinyIndexBlocksForceSeveralLevels() {
    List<Cell> cells = rows(2000);
    Path p = dir.resolve("multi");
    TestCells.write(p, cells, SortedFileOptions.builder().blockSize(100).indexBlockSize(60).build());
    SortedFileReader r = SortedFileReader.open(p, 7);
    try {
      assertThat(r.trailer().indexLevels()).isGreaterThanOrEqualTo(3);
      List<List<IndexEntry>> levels = r.index().allLevels();
      assertThat(levels).hasSize(r.trailer().indexLevels());
      assertThat(levels.get(levels.size() - 1)).hasSize((int) r.metadata().dataBlockCount());
      assertThat(levels.get(0).size()).isLessThan(levels.get(1).size());
      assertThat(TestCells.scanAll(r)).containsExactlyElementsOf(cells);
      try (SortedFileScanner s = r.scanner()) {
        for (int i = 0; i < cells.size(); i += 37) {
          assertThat(s.seek(Cells.firstOnRow(Bytes.of(String.format("row%06d", i))))).isTrue();
          assertThat(s.peek()).isEqualTo(cells.get(i));
        }
        assertThat(s.seek(Cells.firstOnRow(Bytes.of("row999999")))).isFalse();
        assertThat(s.peek()).isNull();
      }
    } finally {
      r.release();
    }
  }

  @Test
  void singleLevelIndexWhenItFits() {
    Path p = dir.resolve("single");
    TestCells.write(p, rows(200), SortedFileOptions.builder().blockSize(100).build());
    SortedFileReader r = SortedFileReader.open(p, 7);
    try {
      assertThat(r.trailer().indexLevels()).isEqualTo(1);
      assertThat(r.metadata().dataBlockCount()).isGreaterThan(20);
    } finally {
      r.release();
    }
  }

  @Test
  void outOfOrderAndDuplicateAppendsAreRejected() {
    SortedFileWriter w = SortedFileWriter.create(dir.resolve("order"), SortedFileOptions.builder().build());
    w.append(TestCells.put("b", "q", 10, 5));
    assertThatThrownBy(() -> w.append(TestCells.put("a", "q", 10, 5))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> w.append(TestCells.put("b", "q", 10, 5))).isInstanceOf(IllegalArgumentException.class);
    // Same key, larger sequence id sorts first: also out of order.
    assertThatThrownBy(() -> w.append(TestCells.put("b", "q", 10, 6))).isInstanceOf(IllegalArgumentException.class);
    w.append(TestCells.put("b", "q", 10, 4));
    w.append(TestCells.put("b", "q", 9, 9));
    FileMetadata m = w.finish();
    assertThat(m.cellCount()).isEqualTo(3);
    assertThat(m.maxSeqId()).isEqualTo(9);
    assertThat(m.minTimestamp()).isEqualTo(9);
    assertThat(m.maxTimestamp()).isEqualTo(10);
  }

  @Test
  void metadataRecordsWhatWasWritten() {
    Path p = dir.resolve("meta");
    List<Cell> cells = new ArrayList<>();
    cells.add(Cells.create(Bytes.of("a"), TestCells.FAMILY, Bytes.EMPTY, 50, io.bellows.cell.CellType.DELETE_FAMILY, Bytes.EMPTY));
    cells.add(TestCells.put("a", "q", 40, 3));
    cells.add(TestCells.put("c", "q", 7, 2));
    FileMetadata m = TestCells.write(p, cells, SortedFileOptions.builder().compression(Compression.LZ4)
        .bloomType(BloomType.ROWCOL).bloomErrorRate(0.02).creationTimeMillis(42).majorCompaction(true).build());
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      FileMetadata read = r.metadata();
      assertThat(read).isEqualTo(m);
      assertThat(read.firstKey().row()).isEqualTo(Bytes.of("a"));
      assertThat(read.lastKey().row()).isEqualTo(Bytes.of("c"));
      assertThat(read.count(io.bellows.cell.CellType.PUT)).isEqualTo(2);
      assertThat(read.count(io.bellows.cell.CellType.DELETE_FAMILY)).isEqualTo(1);
      assertThat(read.minTimestamp()).isEqualTo(7);
      assertThat(read.maxTimestamp()).isEqualTo(50);
      assertThat(read.maxSeqId()).isEqualTo(3);
      assertThat(read.creationTimeMillis()).isEqualTo(42);
      assertThat(read.majorCompaction()).isTrue();
      assertThat(read.rowsWithinBlocks()).isTrue(); // both flags of the one byte
      assertThat(read.compression()).isEqualTo(Compression.LZ4);
      assertThat(read.bloomType()).isEqualTo(BloomType.ROWCOL);
      assertThat(read.bloomErrorRate()).isEqualTo(0.02);
      assertThat(read.fileSize()).isEqualTo(p.toFile().length());
    } finally {
      r.release();
    }
  }

  @Test
  void emptyFileHasNoCellsAndIsNeverUsed() {
    Path p = dir.resolve("empty");
    FileMetadata m = TestCells.write(p, List.of(), SortedFileOptions.builder().build());
    assertThat(m.cellCount()).isZero();
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      assertThat(TestCells.scanAll(r)).isEmpty();
      assertThat(r.mayContainRow(Bytes.of("x"))).isFalse();
      try (SortedFileScanner s = r.scanner()) {
        assertThat(s.shouldUse(io.bellows.scan.ScanQuery.builder().build())).isFalse();
      }
    } finally {
      r.release();
    }
  }

  @Test
  void abortDeletesTheFile() {
    Path p = dir.resolve("aborted");
    SortedFileWriter w = SortedFileWriter.create(p, SortedFileOptions.builder().build());
    w.append(TestCells.put("a", "q", 1, 1));
    assertThat(p).exists();
    w.abort();
    assertThat(p).doesNotExist();
    assertThatThrownBy(() -> w.append(TestCells.put("b", "q", 1, 1))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void fileIsDeletedOnlyAfterTheLastScannerCloses() {
    Path p = dir.resolve("refs");
    TestCells.write(p, rows(10), SortedFileOptions.builder().build());
    SortedFileReader r = SortedFileReader.open(p, 1);
    SortedFileScanner s1 = r.scanner();
    SortedFileScanner s2 = r.scanner();
    assertThat(r.refCount()).isEqualTo(3);
    r.markForDeletion();
    r.release();
    assertThat(p).exists();
    s1.close();
    s1.close(); // idempotent: must not release twice
    assertThat(p).exists();
    assertThat(r.refCount()).isEqualTo(1);
    assertThat(s2.seek(Cells.firstOnRow(Bytes.EMPTY))).isTrue(); // still readable
    s2.close();
    assertThat(p).doesNotExist();
    assertThat(r.refCount()).isZero();
    assertThatThrownBy(r::scanner).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void releasedReaderWithoutDeletionKeepsTheFile() {
    Path p = dir.resolve("keep");
    TestCells.write(p, rows(3), SortedFileOptions.builder().build());
    SortedFileReader r = SortedFileReader.open(p, 1);
    r.release();
    assertThat(p).exists();
  }

  @Test
  void inspectorPrintsEveryPart() {
    Path p = dir.resolve("inspect");
    TestCells.write(p, rows(300), SortedFileOptions.builder().blockSize(200).indexBlockSize(80)
        .compression(Compression.ZSTD).bloomType(BloomType.ROW).build());
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    SortedFileInspector.print(p, new PrintStream(buf, true, StandardCharsets.UTF_8));
    String text = buf.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("Trailer:", "formatVersion=4", "Metadata:", "rowsWithinBlocks=true", "cells=300", "compression=ZSTD",
        "Data blocks:", "#0 offset=0 ", "firstKey=row000000/f:q/10/PUT", "Index:", "(root)", "(leaf)",
        "Bloom:", "type=ROW", "layout=BLOCKED", "keys=300");
  }

  @Test
  void inspectorShowsTheBlockLayoutOfADynamicFile() {
    Path p = dir.resolve("layout");
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 4; i++) { // 4 cells of 8 KiB, then 400 tiny ones
      Cell big = Cells.put(Bytes.of("A" + i), TestCells.FAMILY, Bytes.of("q"), 1, new byte[8192]);
      big.setSeqId(1);
      cells.add(big);
    }
    for (int i = 0; i < 400; i++) {
      cells.add(TestCells.put(String.format("a%05d", i), "q", 1, 1));
    }
    TestCells.write(p, cells, SortedFileOptions.builder().blockSize(8192).minBlockSize(1024).maxEntriesPerBlock(20)
        .build());
    SortedFileReader r = SortedFileReader.open(p, 1);
    BlockLayoutStatistics stats;
    try {
      stats = new BlockLayoutStatistics(DataBlockSummary.of(r));
    } finally {
      r.release();
    }
    // Each big cell fills a block; tiny cells (about 30 bytes) fill 1 KiB past their count of 20, so
    // their blocks hold about 35 cells; only the file's last block may be smaller.
    assertThat(stats.blocks() - 1).isLessThanOrEqualTo((int) (stats.blocksOfSizeNear(1024) + 4));
    assertThat(stats.blocksOfSizeNear(8192)).isEqualTo(4);
    assertThat(stats.minCells()).isEqualTo(1);
    assertThat(stats.maxCells()).isBetween(21, 63);
    assertThat(stats.blocksWithCellsNear(1)).isEqualTo(4);
    assertThat(stats.meanCells()).isEqualTo(404.0 / stats.blocks());

    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    SortedFileInspector.print(p, new PrintStream(buf, true, StandardCharsets.UTF_8));
    String text = buf.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("Data block sizes (uncompressed, power-of-two buckets):", "blocks=" + stats.blocks(),
        "Cells per block:", String.format("min=1 mean=%.1f max=%d", stats.meanCells(), stats.maxCells()));
    assertThat(text).containsPattern("\\[1 KiB, 2 KiB\\) +" + stats.blocksOfSizeNear(1024) + " ");
    assertThat(text).containsPattern("\\[2 KiB, 4 KiB\\) +0 ").containsPattern("\\[8 KiB, 16 KiB\\) +4 ");
    assertThat(text).containsPattern("\\[1, 2\\) +4 ");
  }

  @Test
  void writerRefusesToOverwriteAnExistingFile() throws Exception {
    Path p = dir.resolve("exists");
    Files.write(p, new byte[] {1});
    assertThatThrownBy(() -> SortedFileWriter.create(p, SortedFileOptions.builder().build()))
        .isInstanceOf(io.bellows.util.StorageException.class);
  }
}
