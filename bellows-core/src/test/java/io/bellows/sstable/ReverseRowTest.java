package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SortedFileScanner#rowBefore}, which reversed reads use, against the obvious answer over
 * the file's cells: for every row of the file and for keys between, before and after them, with
 * rows of several cells crossing block boundaries, tiny blocks and a multi-level index (so the
 * answer often lies in the block before the one holding the key, under another index block).
 */
class ReverseRowTest {
  @TempDir Path dir;

  @Test
  void rowBeforeMatchesTheCellsInEveryLayout() {
    long seed = Long.getLong("bellows.test.seed", System.nanoTime());
    System.out.println("ReverseRowTest seed " + seed);
    Random rnd = new Random(seed);
    for (int round = 0; round < 6; round++) {
      TreeSet<String> rows = new TreeSet<>();
      List<Cell> cells = new ArrayList<>();
      TreeSet<Cell> sorted = new TreeSet<>(io.bellows.cell.CellComparator.INSTANCE);
      for (int i = 0; i < 300 + rnd.nextInt(300); i++) {
        String row = String.format("r%04d", rnd.nextInt(2000) * 2); // even numbers: odd ones lie between
        rows.add(row);
        for (int q = rnd.nextInt(4); q >= 0; q--) {
          sorted.add(TestCells.put(row, "q" + q, 1 + rnd.nextInt(3), 1 + rnd.nextInt(100)));
        }
      }
      cells.addAll(sorted);
      Path p = dir.resolve("f" + round);
      int block = round % 2 == 0 ? 100 : 4096;
      TestCells.write(p, cells, SortedFileOptions.builder().blockSize(block).indexBlockSize(round < 4 ? 60 : 64 * 1024).build());
      SortedFileReader r = SortedFileReader.open(p, round);
      try (SortedFileScanner s = r.scanner()) {
        List<String> probes = new ArrayList<>(rows);
        for (int i = 0; i <= 4001; i += 1 + rnd.nextInt(7)) {
          probes.add(String.format("r%04d", i));
        }
        probes.add("a");
        probes.add("z");
        probes.add("r0000\u0000");
        for (String probe : probes) {
          String want = rows.lower(probe);
          byte[] got = s.rowBefore(Bytes.of(probe));
          assertThat(got == null ? null : Bytes.str(got)).as("seed %d round %d: row before %s", seed, round, probe)
              .isEqualTo(want);
        }
        assertThat(Bytes.str(s.rowBefore(Bytes.EMPTY))).isEqualTo(rows.last());
        // The scanner seeks normally afterwards.
        assertThat(s.seek(io.bellows.cell.Cells.firstOnRow(Bytes.of(rows.first())))).isTrue();
        assertThat(s.peek()).isEqualTo(cells.get(0));
      } finally {
        r.release();
      }
      if (round < 4) {
        SortedFileReader again = SortedFileReader.open(p, 99);
        try {
          assertThat(again.trailer().indexLevels()).as("a multi-level index").isGreaterThanOrEqualTo(2);
        } finally {
          again.release();
        }
      }
    }
  }
}
