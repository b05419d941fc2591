package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written with dynamic block sizing: blocks of every size between the minimum and the
 * maximum plus the rest of a row, each closed at the first row's end after the policy says it is
 * full (or inside a row once twice the maximum), and every cell found by the
 * unchanged index and readers (seek, exact-key get, forward scan, reversed row walk). Static sizing
 * ignores the minimum entirely: its files are byte-identical whatever the minimum is.
 */
@ExtendWith(SeedExtension.class)
class DynamicBlockSizeTest {
  private static final int MIN = 4 * 1024;
  private static final int MAX = 64 * 1024;
  private static final int MAX_ENTRIES = 32;

  @TempDir Path dir;

  /** Runs of tiny, medium and 32 KiB cells, one to three per row, so blocks of all sizes arise. */
  static List<Cell> mixedCells(Random rnd, int rows) {
    List<Cell> cells = new ArrayList<>();
    int kind = 0;
    for (int r = 0; r < rows; r++) {
      if (rnd.nextInt(20) == 0) {
        kind = rnd.nextInt(3);
      }
      String row = String.format("row%06d", r);
      int columns = 1 + rnd.nextInt(3);
      for (int q = 0; q < columns; q++) {
        int size = switch (kind) {
          case 0 -> rnd.nextInt(16);
          case 1 -> 100 + rnd.nextInt(200);
          default -> rnd.nextInt(4) == 0 ? rnd.nextInt(16) : 32 * 1024;
        };
        byte[] value = new byte[size];
        rnd.nextBytes(value);
        Cell c = Cells.put(Bytes.of(row), TestCells.FAMILY, Bytes.of("q" + q), 1, value);
        c.setSeqId(1 + rnd.nextInt(1000));
        cells.add(c);
      }
    }
    return cells;
  }

  static SortedFileOptions dynamic(int indexBlockSize) {
    return SortedFileOptions.builder().blockSize(MAX).minBlockSize(MIN).maxEntriesPerBlock(MAX_ENTRIES)
        .indexBlockSize(indexBlockSize).build();
  }

  @Test
  void blocksCloseWhereThePolicySaysAndStayWithinTheBounds(Seed seed) {
    List<Cell> cells = mixedCells(seed.random(), 3000);
    Path p = dir.resolve("dynamic");
    TestCells.write(p, cells, dynamic(64 * 1024));
    BlockBoundaryPolicy policy = BlockBoundaryPolicy.of(dynamic(64 * 1024));
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      List<IndexEntry> blocks = r.dataBlockIndex();
      int next = 0;
      int smallest = Integer.MAX_VALUE;
      int largest = 0;
      boolean closedByCount = false;
      boolean closedBySize = false;
      boolean splitInsideRow = false;
      for (int i = 0; i < blocks.size(); i++) {
        List<Cell> inBlock = cellsOf(r, blocks.get(i));
        assertThat(inBlock).as("%s: block %d", seed, i).isEqualTo(cells.subList(next, next + inBlock.size()));
        next += inBlock.size();
        // Rebuild the block cell by cell: it became full at one cell, then took only the rest of that
        // cell's row, and no more of it once at the row split size.
        DataBlockBuilder rebuilt = new DataBlockBuilder(MAX);
        int fullAt = -1;
        int sizeWhenFull = 0;
        for (int k = 0; k < inBlock.size(); k++) {
          if (fullAt >= 0) {
            assertThat(inBlock.get(k).sameRow(inBlock.get(fullAt))).as("%s: block %d goes on past its row", seed, i)
                .isTrue();
            assertThat((long) rebuilt.currentSize()).as("%s: block %d past the split size", seed, i)
                .isLessThan(policy.rowSplitSize());
          }
          rebuilt.add(inBlock.get(k));
          if (fullAt < 0 && policy.isFull(rebuilt.currentSize(), k + 1)) {
            fullAt = k;
            sizeWhenFull = rebuilt.currentSize();
          }
        }
        int size = rebuilt.currentSize();
        assertThat(r.readDataBlock(blocks.get(i).offset(), blocks.get(i).onDiskSize(), false).payload())
            .hasSize(size);
        if (i < blocks.size() - 1) {
          assertThat(fullAt).as("%s: block %d closed early", seed, i).isGreaterThanOrEqualTo(0);
          assertThat(size).as("%s: block %d", seed, i).isGreaterThanOrEqualTo(MIN);
          boolean endsRow = !cells.get(next).sameRow(inBlock.get(inBlock.size() - 1));
          assertThat(endsRow || size >= policy.rowSplitSize())
              .as("%s: block %d ends inside a row below the split size", seed, i).isTrue();
          splitInsideRow |= !endsRow;
          smallest = Math.min(smallest, size);
          closedBySize |= sizeWhenFull >= MAX;
          closedByCount |= sizeWhenFull < MAX;
        }
        largest = Math.max(largest, size);
      }
      assertThat(r.metadata().rowsWithinBlocks()).as("%s: the file says whether a row was split", seed)
          .isEqualTo(!splitInsideRow);
      assertThat(next).isEqualTo(cells.size());
      assertThat(closedByCount).as("%s: some blocks closed by their count", seed).isTrue();
      assertThat(closedBySize).as("%s: some blocks closed by their size", seed).isTrue();
      assertThat(smallest).as("%s: the smallest blocks are far below the maximum", seed).isLessThan(MAX / 4);
      assertThat(largest).as("%s: a block of 32 KiB cells passes the maximum", seed).isGreaterThan(MAX);
    } finally {
      r.release();
    }
  }

  @Test
  void everyCellIsFoundForwardReversedAndByKey(Seed seed) {
    List<Cell> cells = mixedCells(seed.random(), 2000);
    for (int indexBlockSize : new int[] {64 * 1024, 100}) { // one level, then several
      Path p = dir.resolve("index" + indexBlockSize);
      TestCells.write(p, cells, dynamic(indexBlockSize));
      SortedFileReader r = SortedFileReader.open(p, indexBlockSize);
      try (SortedFileScanner s = r.scanner()) {
        if (indexBlockSize == 100) {
          assertThat(r.trailer().indexLevels()).isGreaterThanOrEqualTo(2);
        }
        assertThat(TestCells.scanAll(r)).as("%s: forward scan", seed).containsExactlyElementsOf(cells);
        for (Cell c : cells) { // a get of every cell: seek to its exact key
          assertThat(s.seek(c)).as("%s: seek %s", seed, c).isTrue();
          assertThat(s.peek()).as("%s: get %s", seed, c).isEqualTo(c);
        }
        List<Cell> reversed = new ArrayList<>();
        for (byte[] row = s.rowBefore(Bytes.EMPTY); row != null; row = s.rowBefore(row)) {
          List<Cell> ofRow = new ArrayList<>();
          assertThat(s.seek(Cells.firstOnRow(row))).isTrue();
          while (s.peek() != null && java.util.Arrays.equals(s.peek().row(), row)) {
            ofRow.add(s.next());
          }
          Collections.reverse(ofRow);
          reversed.addAll(ofRow);
        }
        Collections.reverse(reversed);
        assertThat(reversed).as("%s: reversed walk", seed).containsExactlyElementsOf(cells);
      } finally {
        r.release();
      }
    }
  }

  @Test
  void staticModeIgnoresTheMinimum(Seed seed) throws Exception {
    List<Cell> cells = mixedCells(seed.random(), 500);
    Path plain = dir.resolve("plain");
    Path withMin = dir.resolve("withMin");
    TestCells.write(plain, cells, SortedFileOptions.builder().creationTimeMillis(1).build());
    TestCells.write(withMin, cells, SortedFileOptions.builder().creationTimeMillis(1).minBlockSize(100)
        .maxEntriesPerBlock(0).build());
    assertThat(Files.readAllBytes(withMin)).isEqualTo(Files.readAllBytes(plain));
  }

  private static List<Cell> cellsOf(SortedFileReader r, IndexEntry e) {
    DataBlockCursor c = r.cursor(r.readDataBlock(e.offset(), e.onDiskSize(), false));
    List<Cell> out = new ArrayList<>();
    try {
      for (c.seekToFirst(); c.valid(); c.advance()) {
        out.add(copy(c.current()));
      }
    } catch (MalformedBlockException ex) {
      throw new AssertionError(ex);
    }
    return out;
  }

  private static Cell copy(Cell c) {
    return new Cell(c.toBytes(), 0, c.length(), c.seqId());
  }
}
