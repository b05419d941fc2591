package io.bellows.scan;

import io.bellows.region.OptionsResolver;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.schema.ColumnFamilyDescriptor;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * The store scanner, over random cells spread across several sources (with duplicates), returns
 * exactly what {@link ReferenceReader} says for random queries, family settings, read points and
 * times. jqwik reports the failing seed; the assertion message shows the whole case.
 */
class StoreScannerPropertyTest {

  @Property(tries = 2000)
  void storeScannerMatchesReference(@ForAll long seed) {
    RandomCase rc = new RandomCase(seed);
    List<Cell> cells = rc.cells(30);
    ColumnFamilyDescriptor fam = rc.family();
    long now = rc.now();
    for (int i = 0; i < 4; i++) {
      ScanQuery q = rc.query(rc.readPoint(cells.size()));
      List<ListScanner> sources = new ArrayList<>();
      for (List<Cell> part : rc.split(cells)) {
        sources.add(new ListScanner(part));
      }
      List<Cell> actual = new ArrayList<>();
      try (StoreScanner s = new StoreScanner(sources, q, fam.nameBytes(), OptionsResolver.retention(fam), now)) {
        List<Cell> row = new ArrayList<>();
        while (s.nextRow(row)) {
          assertThat(row).as("a returned row is non-empty and one row").isNotEmpty()
              .allMatch(c -> c.sameRow(row.get(0)));
          actual.addAll(row);
          row.clear();
        }
        assertThat(s.nextRow(row)).isFalse();
        assertThat(row).isEmpty();
      }
      assertThat(sources).allMatch(ListScanner::isClosed);
      List<Cell> expected = ReferenceReader.read(cells, q, fam, now);
      Statistics.label("visible cells").collect(expected.isEmpty() ? "none" : expected.size() < 4 ? "1-3" : "4+");
      assertThat(actual)
          .as("seed %d, %s, family %s, now %d, cells %s", seed, RandomCase.describe(q), fam, now, cells)
          .containsExactlyElementsOf(expected);
    }
  }

  /**
   * Reversed reads give the forward rows in the opposite order: the same rows, each with the same
   * cells (read forwards within the row), for every query shape and read point.
   */
  @Property(tries = 1000)
  void previousRowGivesTheForwardRowsBackwards(@ForAll long seed) {
    RandomCase rc = new RandomCase(seed);
    List<Cell> cells = rc.cells(30);
    ColumnFamilyDescriptor fam = rc.family();
    long now = rc.now();
    for (int i = 0; i < 4; i++) {
      ScanQuery q = rc.query(rc.readPoint(cells.size()));
      List<List<Cell>> parts = rc.split(cells);
      List<List<Cell>> forward = new ArrayList<>();
      List<ListScanner> sources = new ArrayList<>();
      parts.forEach(p -> sources.add(new ListScanner(p)));
      try (StoreScanner s = new StoreScanner(sources, q, fam.nameBytes(), OptionsResolver.retention(fam), now)) {
        List<Cell> row = new ArrayList<>();
        while (s.nextRow(row)) {
          forward.add(new ArrayList<>(row));
          row.clear();
        }
      }
      List<List<Cell>> backward = new ArrayList<>();
      List<ListScanner> again = new ArrayList<>();
      parts.forEach(p -> again.add(new ListScanner(p)));
      try (StoreScanner s = new StoreScanner(again, q, fam.nameBytes(), OptionsResolver.retention(fam), now)) {
        List<Cell> row = new ArrayList<>();
        while (s.previousRow(row)) {
          backward.add(new ArrayList<>(row));
          row.clear();
        }
        assertThat(s.previousRow(row)).isFalse();
      }
      java.util.Collections.reverse(backward);
      assertThat(backward).as("seed %d, %s, cells %s", seed, RandomCase.describe(q), cells).isEqualTo(forward);
    }
  }
}
