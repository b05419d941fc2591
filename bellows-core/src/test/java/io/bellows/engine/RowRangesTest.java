package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Routing rows to a table's regions by their ranges alone (a cluster's members and clients do it):
 * the region of a row, the regions a scan reads in its order, and the scan narrowed to each, against
 * a model that asks every row; and a chain of scanners within one limit.
 */
@ExtendWith(SeedExtension.class)
class RowRangesTest {
  @Test
  void rowsAndScansGoToTheRegionsThatHoldThemInScanOrder(Seed seed) {
    Random rnd = seed.random();
    for (int round = 0; round < 300; round++) {
      TreeSet<String> keys = new TreeSet<>();
      int splits = rnd.nextInt(5);
      while (keys.size() < splits) {
        keys.add(key(rnd));
      }
      List<byte[]> splitKeys = keys.stream().map(Bytes::of).toList();
      RowRanges ranges = RowRanges.ofSplitKeys(splitKeys);
      assertThat(ranges.size()).isEqualTo(splits + 1);
      List<String> rows = new ArrayList<>(new TreeSet<>(List.of(key(rnd), key(rnd), key(rnd), key(rnd), key(rnd),
          key(rnd), key(rnd), key(rnd))));
      rows.addAll(keys); // rows at the region boundaries
      rows.add("");
      rows = new ArrayList<>(new TreeSet<>(rows));
      for (String row : rows) {
        int i = ranges.indexOf(Bytes.of(row));
        assertThat(inRegion(ranges, i, row)).as("row '%s' in region %d of %s", row, i, keys).isTrue();
      }
      ScanQuery q = query(rnd);
      // The model: the rows the query wants, in its order, and each one's region.
      List<String> expected = new ArrayList<>();
      for (String row : rows) {
        if (q.rowInRange(Bytes.of(row), 0, row.length())) {
          expected.add(row);
        }
      }
      if (q.reversed()) {
        java.util.Collections.reverse(expected);
      }
      List<String> routed = new ArrayList<>();
      List<Integer> wanted = ranges.wanted(q);
      assertThat(wanted).as("at least one region answers %s", describe(q)).isNotEmpty();
      for (int i : wanted) {
        ScanQuery part = ranges.within(q, i);
        if (part == null) {
          assertThat(wanted).as("only an empty query's one region wants nothing").hasSize(1);
          continue;
        }
        assertThat(part.reversed()).isEqualTo(q.reversed());
        List<String> mine = new ArrayList<>();
        for (String row : rows) {
          if (part.rowInRange(Bytes.of(row), 0, row.length())) {
            assertThat(inRegion(ranges, i, row)).as("part %d of %s reads row '%s' outside its region", i, describe(q), row)
                .isTrue();
            mine.add(row);
          }
        }
        if (q.reversed()) {
          java.util.Collections.reverse(mine);
        }
        routed.addAll(mine);
      }
      assertThat(routed).as("seed %s round %d: %s over %s", seed, round, describe(q), keys).isEqualTo(expected);
    }
  }

  @Test
  void aGetGoesToTheRegionOfItsRow() {
    RowRanges ranges = RowRanges.ofSplitKeys(List.of(Bytes.of("g"), Bytes.of("p")));
    ScanQuery get = ScanQuery.builder().singleRow(Bytes.of("h")).build();
    assertThat(ranges.wanted(get)).containsExactly(1);
    assertThat(ranges.within(get, 1)).isSameAs(get);
    assertThat(ranges.within(get, 0)).isNull();
    assertThat(ranges.start(1)).isEqualTo(Bytes.of("g"));
    assertThat(ranges.end(1)).isEqualTo(Bytes.of("p"));
    assertThat(ranges.end(2)).isEmpty();
  }

  @Test
  void startKeysOutOfOrderOrAFirstRegionNotAtTheStartAreRefused() {
    assertThatThrownBy(() -> RowRanges.ofStarts(List.of(Bytes.EMPTY, Bytes.of("b"), Bytes.of("a"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strictly increasing: 'a' after 'b'");
    assertThatThrownBy(() -> RowRanges.ofStarts(List.of(Bytes.of("a"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("first region starts at the empty key");
  }

  @Test
  void aChainReadsItsPartsInTurnWithinOneLimit() {
    List<String> opened = new ArrayList<>();
    ChainedScanner.Parts parts = (i, left) -> {
      if (i >= 3) {
        return null;
      }
      opened.add(i + ":" + left);
      return rows(i + "a", i + "b");
    };
    List<String> read = new ArrayList<>();
    try (ChainedScanner s = new ChainedScanner(parts, 5)) {
      List<Cell> out = new ArrayList<>();
      while (s.nextRow(out)) {
        read.add(Bytes.str(out.get(0).row()));
        out.clear();
      }
    }
    assertThat(read).containsExactly("0a", "0b", "1a", "1b", "2a");
    assertThat(opened).as("each part asked for the rows still allowed").containsExactly("0:5", "1:3", "2:1");
  }

  private static RowScanner rows(String... rows) {
    return new RowScanner() {
      int next;

      @Override
      public boolean nextRow(List<Cell> out) {
        if (next >= rows.length) {
          return false;
        }
        out.add(io.bellows.cell.Cells.create(Bytes.of(rows[next++]), Bytes.of("f"), Bytes.of("q"), 1, io.bellows.cell.CellType.PUT, Bytes.of("v")));
        return true;
      }

      @Override
      public void close() {}
    };
  }

  private static boolean inRegion(RowRanges ranges, int i, String row) {
    byte[] r = Bytes.of(row);
    return Bytes.compare(r, ranges.start(i)) >= 0 && (ranges.end(i).length == 0 || Bytes.compare(r, ranges.end(i)) < 0);
  }

  /** Keys of one to three letters of a to e: short enough to meet boundaries often. */
  private static String key(Random rnd) {
    StringBuilder sb = new StringBuilder();
    int n = 1 + rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      sb.append((char) ('a' + rnd.nextInt(5)));
    }
    return sb.toString();
  }

  private static ScanQuery query(Random rnd) {
    if (rnd.nextInt(6) == 0) {
      return ScanQuery.builder().singleRow(Bytes.of(key(rnd))).build();
    }
    ScanQuery.Builder b = ScanQuery.builder().reversed(rnd.nextBoolean());
    if (rnd.nextInt(4) > 0) {
      b.startRow(Bytes.of(key(rnd)), rnd.nextBoolean());
    }
    if (rnd.nextInt(4) > 0) {
      b.stopRow(Bytes.of(key(rnd)), rnd.nextBoolean());
    }
    return b.build();
  }

  private static String describe(ScanQuery q) {
    return (q.isSingleRow() ? "get " : "scan ") + (q.startInclusive() ? "[" : "(") + Bytes.str(q.startRow()) + ", "
        + Bytes.str(q.stopRow()) + (q.stopInclusive() ? "]" : ")") + (q.reversed() ? " reversed" : "");
  }
}
