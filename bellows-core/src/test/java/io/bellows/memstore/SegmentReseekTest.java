package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.Cells;
import io.bellows.scan.CellScanner;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reseeks of memory segments step or gallop forward from the current cell before they search
 * (ActiveIndexScanner, ImmutableIndexScanner): checked against a sorted list, with skips of every
 * length from one cell to past the end, over rows with many versions of a column.
 */
@ExtendWith(SeedExtension.class)
class SegmentReseekTest {
  @Test
  void reseeksLandWhereASearchOfTheSortedCellsLands(Seed s) {
    Random rnd = s.random();
    MemStoreAccounting acct = new MemStoreAccounting();
    MutableSegment m = new MutableSegment(1, new SkipListActiveIndex());
    List<Cell> sorted = new ArrayList<>();
    long seq = 1;
    for (int r = 0; r < 200; r++) {
      int versions = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(300) : 1 + rnd.nextInt(3);
      for (int q = 0; q < 1 + rnd.nextInt(4); q++) {
        for (int v = 0; v < versions; v++) {
          Cell c = cell(String.format("row%04d", r * 3), "q" + q, 1000 - v, seq++);
          assertThat(m.tryEnter()).isTrue();
          m.add(c, acct);
          m.exit();
          sorted.add(c);
        }
      }
    }
    sorted.sort(CellComparator.INSTANCE);
    m.seal(null);
    ImmutableSegment flat = new SegmentCompactor(() -> 2, MemStoreFixtures.plainSegments()).flatten(m).output();
    for (Segment segment : List.of(m, flat)) {
      for (int walk = 0; walk < 50; walk++) {
        try (CellScanner sc = segment.tryScanner()) {
          int at = rnd.nextInt(sorted.size());
          assertThat(sc.seek(sorted.get(at))).isTrue();
          while (at < sorted.size()) {
            Cell key = reseekKey(rnd, sorted, at);
            int expected = ceiling(sorted, key);
            assertThat(sc.reseek(key)).as("%s, reseek from %d", segment, at).isEqualTo(expected < sorted.size());
            if (expected == sorted.size()) {
              assertThat(sc.peek()).isNull();
              break;
            }
            assertThat(CellComparator.INSTANCE.compare(sc.peek(), sorted.get(expected)))
                .as("%s, reseek from %d to %s", segment, at, key).isZero();
            at = expected;
            if (rnd.nextBoolean()) {
              sc.next();
              at++;
            }
          }
        }
      }
    }
  }

  /** A key at or after position {@code at}: the end of the current column, a cell a few or many ahead, or past the end. */
  private static Cell reseekKey(Random rnd, List<Cell> sorted, int at) {
    Cell c = sorted.get(at);
    return switch (rnd.nextInt(4)) {
      case 0 -> Cells.lastOnColumn(c);
      case 1 -> sorted.get(Math.min(sorted.size() - 1, at + rnd.nextInt(20)));
      case 2 -> sorted.get(Math.min(sorted.size() - 1, at + rnd.nextInt(2000)));
      default -> rnd.nextInt(20) == 0 ? Cells.firstOnRow(Bytes.of("zzz")) : Cells.lastOnRow(c);
    };
  }

  /** The reference: where a binary search of the sorted cells (no two equal) puts the key. */
  private static int ceiling(List<Cell> sorted, Cell key) {
    int i = Collections.binarySearch(sorted, key, CellComparator.INSTANCE);
    return i >= 0 ? i : -i - 1;
  }
}
