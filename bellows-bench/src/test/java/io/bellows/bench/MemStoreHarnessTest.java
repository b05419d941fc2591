package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.config.MemStorePolicy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MemStoreHarnessTest {
  private static final long SEED = 11;
  private static final long FLUSH_SIZE = 512 * 1024;

  /** Inserts {@code puts} rows, checking after each that the budget holds; returns the harness open. */
  private static MemStoreHarness fill(MemStorePolicy policy, KeyChooser keys, int puts) {
    MemStoreHarness h = new MemStoreHarness(new StoreConfig(policy, IndexKind.OBJECT, FLUSH_SIZE, 0.1));
    PaperRows rows = new PaperRows(SEED);
    Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
    for (int i = 1; i <= puts; i++) {
      rows.row(keys.nextRowId(), i, row);
      h.addRow(row);
      assertThat(h.size().footprint()).as("footprint after put %d", i).isLessThan(FLUSH_SIZE);
    }
    h.awaitQuiescent();
    return h;
  }

  @ParameterizedTest
  @EnumSource(MemStorePolicy.class)
  void uniqueKeysLoseNoCellAndFlushWhenTheBudgetIsReached(MemStorePolicy policy) {
    System.out.println("seed " + SEED);
    try (MemStoreHarness h = fill(policy, new UniqueKeys(SEED), 20_000)) {
      assertThat(h.cellsAdded()).isEqualTo(80_000);
      // ~76 data bytes per cell: 80k cells are several budgets' worth.
      assertThat(h.diskFlushes()).isGreaterThanOrEqualTo(80_000L * 76 / FLUSH_SIZE / 2);
      assertThat(h.flushedCells() + h.size().cellCount()).isEqualTo(80_000);
      if (policy != MemStorePolicy.NONE) {
        assertThat(h.metrics().get("memstore.in.memory.flushes").longValue()).isPositive();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = MemStorePolicy.class, names = {"EAGER", "ADAPTIVE"})
  void compactingPoliciesDropOverwrittenVersionsOfHotRows(MemStorePolicy policy) {
    System.out.println("seed " + SEED);
    // Rounds of puts, each followed by a wait for the background thread: a compaction scheduled in
    // a round then runs with no writer (and so no disk flush) racing it, whatever the machine's
    // load, and the result does not depend on how fast that thread is.
    MemStoreHarness h = new MemStoreHarness(new StoreConfig(policy, IndexKind.OBJECT, FLUSH_SIZE, 0.1));
    try (h) {
      KeyChooser keys = new ZipfKeys(50, 0.99, SEED);
      PaperRows rows = new PaperRows(SEED);
      Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
      int put = 0;
      for (int round = 0; round < 100 && h.metrics().get("memstore.cells.eliminated").longValue() == 0; round++) {
        for (int i = 0; i < 200; i++) {
          rows.row(keys.nextRowId(), ++put, row);
          h.addRow(row);
        }
        h.awaitQuiescent();
      }
      assertThat(h.metrics().get("memstore.cells.eliminated").longValue()).isPositive();
      assertThat(h.flushedCells() + h.size().cellCount()).isLessThan(h.cellsAdded());
    }
  }

}
