package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data blocks end between rows (format version 4): a full block takes the rest of its last row, so
 * a get reads one block for its row, and the file says so in its metadata; a row wider than twice
 * the block size is split, the file says that too, and a get still reads the whole row.
 */
@ExtendWith(SeedExtension.class)
class RowAlignedBlocksTest {
  @TempDir Path dir;

  /** Rows of {@code columns} cells of {@code valueSize} bytes each. */
  private static List<Cell> rows(int rows, int columns, int valueSize) {
    List<Cell> cells = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      for (int q = 0; q < columns; q++) {
        Cell c = Cells.put(Bytes.of(String.format("row%05d", r)), TestCells.FAMILY, Bytes.of(String.format("q%03d", q)),
            1, new byte[valueSize]);
        c.setSeqId(1);
        cells.add(c);
      }
    }
    return cells;
  }

  private static List<Cell> ofRow(List<Cell> cells, byte[] row) {
    return cells.stream().filter(c -> c.isRow(row)).toList();
  }

  /** Opens the file with a source that counts the data blocks read. */
  private static SortedFileReader open(Path p, AtomicInteger reads) {
    return SortedFileReader.open(p, 1, (fileId, raw) -> (offset, size) -> {
      reads.incrementAndGet();
      return raw.read(offset, size);
    });
  }

  @Test
  void aGetReadsOneBlockForEveryRowWhenBlocksEndBetweenRows() {
    // Ten cells of 100 bytes a row (YCSB's shape) and 1 KiB blocks: the size is reached inside a row.
    List<Cell> cells = rows(200, 10, 100);
    Path p = dir.resolve("aligned");
    TestCells.write(p, cells, SortedFileOptions.builder().blockSize(1024).build());
    AtomicInteger reads = new AtomicInteger();
    SortedFileReader r = open(p, reads);
    try {
      assertThat(r.metadata().rowsWithinBlocks()).isTrue();
      List<DataBlockSummary> blocks = DataBlockSummary.of(r);
      assertThat(blocks).hasSizeGreaterThan(100);
      assertThat(blocks).allSatisfy(b -> assertThat(b.cells() % 10).as("whole rows").isZero());
      for (int i = 0; i < 200; i++) {
        byte[] row = Bytes.of(String.format("row%05d", i));
        reads.set(0);
        RowRead read = r.readRow(row);
        assertThat(read.cells()).as("row %d", i).isEqualTo(ofRow(cells, row));
        assertThat(read.endedInBlock()).isTrue();
        assertThat(reads.get()).as("blocks read for row %d", i).isEqualTo(1);
      }
    } finally {
      r.release();
    }
  }

  @Test
  void aRowWiderThanTwiceTheBlockSizeIsSplitAndReadWhole() {
    List<Cell> cells = new ArrayList<>(rows(3, 4, 100));
    List<Cell> wide = rows(1, 100, 100).stream().map(c -> {
      Cell w = Cells.put(Bytes.of("row00001w"), TestCells.FAMILY, c.qualifier(), 1, c.value());
      w.setSeqId(1);
      return w;
    }).toList();
    cells.addAll(8, wide); // after row00001's four cells
    Path p = dir.resolve("split");
    TestCells.write(p, cells, SortedFileOptions.builder().blockSize(1024).build());
    AtomicInteger reads = new AtomicInteger();
    SortedFileReader r = open(p, reads);
    try {
      assertThat(r.metadata().rowsWithinBlocks()).isFalse();
      assertThat(DataBlockSummary.of(r)).allSatisfy(b -> assertThat(b.uncompressedSize()).isLessThan(2 * 1024 + 200));
      RowRead read = r.readRow(Bytes.of("row00001w"));
      assertThat(read.cells()).isEqualTo(wide);
      assertThat(read.endedInBlock()).isFalse();
      for (String row : List.of("row00000", "row00001", "row00002")) {
        assertThat(r.readRow(Bytes.of(row)).cells()).as(row).isEqualTo(ofRow(cells, Bytes.of(row)));
      }
    } finally {
      r.release();
    }
  }

  /** Random cells, block sizes and modes: every row reads whole, from one block when the file says rows stay in one. */
  @Test
  void everyRowReadsWholeWhateverTheBlocks(Seed seed) {
    Random rnd = seed.random();
    for (int round = 0; round < 20; round++) {
      TreeSet<Cell> sorted = TestCells.randomSorted(rnd, 200 + rnd.nextInt(2000));
      List<Cell> cells = new ArrayList<>(sorted);
      int blockSize = 64 + rnd.nextInt(2048);
      SortedFileOptions.Builder options = SortedFileOptions.builder().blockSize(blockSize);
      if (rnd.nextBoolean()) {
        options.minBlockSize(1 + rnd.nextInt(blockSize)).maxEntriesPerBlock(1 + rnd.nextInt(16));
      }
      Path p = dir.resolve("random-" + round);
      TestCells.write(p, cells, options.build());
      AtomicInteger reads = new AtomicInteger();
      SortedFileReader r = open(p, reads);
      try {
        boolean aligned = r.metadata().rowsWithinBlocks();
        for (int i = 0; i < 300; i++) {
          byte[] row = Bytes.of("row-" + i);
          reads.set(0);
          RowRead read = r.readRow(row);
          List<Cell> expected = ofRow(cells, row);
          assertThat(read.cells()).as("%s: round %d, row %d, block size %d", seed, round, i, blockSize)
              .isEqualTo(expected);
          if (aligned && !expected.isEmpty()) {
            assertThat(reads.get()).as("%s: round %d, row %d: blocks read", seed, round, i).isEqualTo(1);
          }
        }
      } finally {
        r.release();
      }
    }
  }
}
