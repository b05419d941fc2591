package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.scan.CellScanner;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A flat segment's row positions: a get's seek lands where the binary search would, or says absent. */
@ExtendWith(SeedExtension.class)
class RowPositionsTest {

  @Test
  void everyRowStartsWhereTheSearchFindsItAndAbsentRowsAreNotFound(Seed s) {
    Random rnd = new Random(s.value());
    TreeSet<String> rows = new TreeSet<>();
    while (rows.size() < 5_000) {
      rows.add("user" + rnd.nextInt(1_000_000_000));
    }
    List<Cell> cells = new ArrayList<>();
    long seq = 1;
    for (String row : rows) {
      int columns = 1 + rnd.nextInt(4);
      for (int q = 0; q < columns; q++) {
        for (int v = 1 + rnd.nextInt(3); v > 0; v--) { // versions, newest first
          cells.add(cell(row, "q" + q, v, seq++));
        }
      }
    }
    cells.sort(CellComparator.INSTANCE);
    CellArrayIndex index = new CellArrayIndex(cells.toArray(new Cell[0]), cells.size());
    SegmentRowFilter.Builder b = new SegmentRowFilter.Builder();
    for (int i = 0; i < cells.size(); i++) {
      Cell c = cells.get(i);
      b.addRow(c.array(), c.rowOffset(), c.rowLength(), i);
    }
    SegmentRowFilter f = b.build();
    for (String row : rows) {
      byte[] r = Bytes.of(row);
      assertThat(f.firstPosition(r, SegmentRowFilter.hash(r, 0, r.length), index)).as(row).isEqualTo(index.ceiling(CellScanner.rowStart(r), 0));
    }
    for (int i = 0; i < 5_000; i++) {
      String row = "user" + rnd.nextInt(1_000_000_000);
      if (!rows.contains(row)) {
        assertThat(f.firstPosition(Bytes.of(row), SegmentRowFilter.hash(Bytes.of(row), 0, row.length()), index)).as(row).isEqualTo(-1);
      }
    }
    assertThat(f.heapBytes()).isEqualTo(SegmentRowFilter.heapBytesFor(rows.size()));
  }

  /** Rows whose hashes share a slot are told apart by their bytes (linear probing past the others). */
  @Test
  void rowsSharingASlotAreToldApartByTheirBytes() {
    List<Cell> cells = List.of(cell("a", "q", 1, 1), cell("a", "r", 1, 2), cell("b", "q", 1, 3), cell("c", "q", 1, 4));
    CellArrayIndex index = new CellArrayIndex(cells.toArray(new Cell[0]), cells.size());
    long same = 0x1234_5678_0000_0000L; // one slot for every row
    RowPositions p = new RowPositions(new long[] {same, same, same}, new int[] {0, 2, 3}, 3);
    assertThat(p.first(Bytes.of("a"), same, index)).isEqualTo(0);
    assertThat(p.first(Bytes.of("b"), same, index)).isEqualTo(2);
    assertThat(p.first(Bytes.of("c"), same, index)).isEqualTo(3);
    assertThat(p.first(Bytes.of("d"), same, index)).isEqualTo(-1);
  }

  /** Through the scanner: a get's seek lands on the row's first cell, and an unknown row falls back to a search. */
  @Test
  void theScannersRowSeekMatchesItsSeek() {
    List<Cell> cells = new ArrayList<>();
    for (int r = 0; r < 100; r += 2) {
      cells.add(cell(String.format("row%03d", r), "q", 2, 2L * r + 2));
      cells.add(cell(String.format("row%03d", r), "q", 1, 2L * r + 1));
    }
    CellArrayIndex index = new CellArrayIndex(cells.toArray(new Cell[0]), cells.size());
    SegmentRowFilter.Builder b = new SegmentRowFilter.Builder();
    for (int i = 0; i < cells.size(); i++) {
      b.addRow(cells.get(i).array(), cells.get(i).rowOffset(), cells.get(i).rowLength(), i);
    }
    ImmutableIndexScanner byRow = new ImmutableIndexScanner(index, b.build());
    ImmutableIndexScanner bySearch = new ImmutableIndexScanner(index);
    for (int r = 0; r <= 100; r++) {
      byte[] row = Bytes.of(String.format("row%03d", r));
      assertThat(byRow.seekRow(row, SegmentRowFilter.hash(row, 0, row.length))).isEqualTo(bySearch.seek(CellScanner.rowStart(row)));
      assertThat(byRow.peek()).as("row %d", r).isSameAs(bySearch.peek());
      if (byRow.peek() != null) {
        byRow.next();
        bySearch.next();
        assertThat(byRow.peek()).isSameAs(bySearch.peek());
      }
    }
  }
}
