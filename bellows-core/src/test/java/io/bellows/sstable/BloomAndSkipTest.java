package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.scan.ScanQuery;
import io.bellows.config.BloomType;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bloom filters (no false negatives, a reasonable false-positive rate) and scanner skipping. */
class BloomAndSkipTest {
  @TempDir Path dir;

  private static String row(int i) {
    return String.format("row%07d", i);
  }

  /** Even rows 0..2n-2, columns q0 and q1 each. */
  private SortedFileReader evenRows(BloomType type, int n, double fpRate) {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      cells.add(TestCells.put(row(2 * i), "q0", 5, 1));
      cells.add(TestCells.put(row(2 * i), "q1", 5, 1));
    }
    Path p = dir.resolve("bloom-" + type);
    TestCells.write(p, cells, SortedFileOptions.builder().bloomType(type).bloomErrorRate(fpRate).blockSize(4096).build());
    return SortedFileReader.open(p, 1);
  }

  @Test
  void rowBloomHasNoFalseNegativesAndAReasonableFalsePositiveRate() {
    int n = 5000;
    double target = 0.01;
    SortedFileReader r = evenRows(BloomType.ROW, n, target);
    try {
      assertThat(r.bloomFilter().keyCount()).isEqualTo(n); // one key per row, not per cell
      for (int i = 0; i < n; i++) {
        assertThat(r.mayContainRow(Bytes.of(row(2 * i)))).as("row %d", 2 * i).isTrue();
      }
      int falsePositives = 0;
      for (int i = 0; i < n - 1; i++) {
        if (r.mayContainRow(Bytes.of(row(2 * i + 1)))) { // absent rows inside the key range
          falsePositives++;
        }
      }
      double rate = (double) falsePositives / (n - 1);
      assertThat(rate).isLessThan(5 * target);
      assertThat(falsePositives).isGreaterThan(0); // the filter is sized for the target, not oversized
    } finally {
      r.release();
    }
  }

  @Test
  void rowColBloomAnswersPerColumn() {
    int n = 3000;
    double target = 0.01;
    SortedFileReader r = evenRows(BloomType.ROWCOL, n, target);
    try {
      assertThat(r.bloomFilter().keyCount()).isEqualTo(2L * n);
      int falsePositives = 0;
      for (int i = 0; i < n; i++) {
        byte[] row = Bytes.of(row(2 * i));
        assertThat(r.mayContainColumn(row, TestCells.FAMILY, Bytes.of("q0"))).isTrue();
        assertThat(r.mayContainColumn(row, TestCells.FAMILY, Bytes.of("q1"))).isTrue();
        if (r.mayContainColumn(row, TestCells.FAMILY, Bytes.of("q2"))) {
          falsePositives++;
        }
      }
      assertThat((double) falsePositives / n).isLessThan(5 * target);
      // A row-only question cannot be answered by a ROWCOL filter: key range only.
      assertThat(r.mayContainRow(Bytes.of(row(1)))).isTrue();
      assertThat(r.mayContainRow(Bytes.of("zzz"))).isFalse();
    } finally {
      r.release();
    }
  }

  @Test
  void rowColBloomKeepsFilesWithFamilyTombstones() {
    Path p = dir.resolve("df");
    List<Cell> cells = List.of(
        Cells.create(Bytes.of("r1"), TestCells.FAMILY, Bytes.EMPTY, 100, CellType.DELETE_FAMILY, Bytes.EMPTY),
        TestCells.put("r2", "other", 5, 1));
    TestCells.write(p, cells, SortedFileOptions.builder().bloomType(BloomType.ROWCOL).build());
    SortedFileReader r = SortedFileReader.open(p, 1);
    try (SortedFileScanner s = r.scanner()) {
      // The tombstone masks r1/f:q even though no cell of that column is in the file.
      assertThat(s.shouldUse(ScanQuery.builder().singleRow(Bytes.of("r1")).addColumn(TestCells.FAMILY, Bytes.of("q"))
          .build())).isTrue();
    } finally {
      r.release();
    }
  }

  @Test
  void shouldUseSkipsByKeyRangeTimeRangeAndBloom() {
    Path p = dir.resolve("skip");
    List<Cell> cells = new ArrayList<>();
    for (int i = 10; i < 20; i++) {
      cells.add(TestCells.put("r" + i, "q", 100 + i, i));
    }
    TestCells.write(p, cells, SortedFileOptions.builder().bloomType(BloomType.ROW).build());
    SortedFileReader r = SortedFileReader.open(p, 1);
    try (SortedFileScanner s = r.scanner()) {
      // Rows r10..r19, timestamps 110..119.
      assertThat(s.shouldUse(ScanQuery.builder().build())).isTrue();
      assertThat(s.shouldUse(range("r20", "r30"))).isFalse();
      assertThat(s.shouldUse(range("r00", "r10"))).isFalse(); // stop row exclusive
      assertThat(s.shouldUse(range("r00", "r100"))).isTrue();
      assertThat(s.shouldUse(range("r19", "r30"))).isTrue();
      assertThat(s.shouldUse(ScanQuery.builder().startRow(Bytes.of("r19"), false).build())).isFalse();
      // Only newer cells: never skipped (they take version slots, see docs/design/scan.md).
      assertThat(s.shouldUse(ScanQuery.builder().timeRange(0, 110).build())).isTrue();
      assertThat(s.shouldUse(ScanQuery.builder().timeRange(0, 111).build())).isTrue();
      assertThat(s.shouldUse(ScanQuery.builder().timeRange(120, 200).build())).isFalse();
      assertThat(s.shouldUse(ScanQuery.builder().timeRange(119, 200).build())).isTrue();
      assertThat(s.shouldUse(ScanQuery.builder().singleRow(Bytes.of("r15")).build())).isTrue();
      assertThat(s.shouldUse(ScanQuery.builder().singleRow(Bytes.of("r9")).build())).isFalse();
      // Inside the key range but absent: the Bloom filter decides (deterministic hash, fixed keys).
      int skipped = 0;
      for (int i = 0; i < 100; i++) {
        if (!s.shouldUse(ScanQuery.builder().singleRow(Bytes.of("r15-" + i)).build())) {
          skipped++;
        }
      }
      assertThat(skipped).isGreaterThan(80);
    } finally {
      r.release();
    }
  }

  @Test
  void filesOfOnlyNewerCellsAreNeverSkippedByTimeRange() {
    Path p = dir.resolve("tomb");
    List<Cell> cells = List.of(
        Cells.create(Bytes.of("r"), TestCells.FAMILY, Bytes.of("q"), 500, CellType.DELETE_COLUMN, Bytes.EMPTY));
    TestCells.write(p, cells, SortedFileOptions.builder().build());
    SortedFileReader r = SortedFileReader.open(p, 1);
    try (SortedFileScanner s = r.scanner()) {
      // The tombstone at ts 500 masks versions at ts < 100 that live in other files.
      assertThat(s.shouldUse(ScanQuery.builder().timeRange(0, 100).build())).isTrue();
      assertThat(s.shouldUse(ScanQuery.builder().timeRange(600, 700).build())).isFalse();
    } finally {
      r.release();
    }
  }

  private static ScanQuery range(String start, String stop) {
    return ScanQuery.builder().startRow(Bytes.of(start), true).stopRow(Bytes.of(stop), false).build();
  }
}
