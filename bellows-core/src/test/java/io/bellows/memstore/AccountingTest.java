package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static io.bellows.memstore.MemStoreFixtures.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import io.bellows.schema.ColumnFamilyDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Memory accounting, sequence ids beyond int range, and the oldest unflushed sequence id. */
class AccountingTest {
  private final MemStoreFixtures.ManualExecutor bg = new MemStoreFixtures.ManualExecutor();
  private final MemStoreContext.Listener listener = MemStoreContext.Listener.NONE;

  private CompactingMemStore store(MemStorePolicy policy, int maxSegments) {
    return new CompactingMemStore(MemStoreFixtures.context(MemStoreFixtures.family(policy, 0.05, maxSegments, 0.2),
        20_000, bg, MemStoreFixtures::newestOnly, listener), () -> 0.0);
  }

  @Test
  void cellChargesFollowTheDocumentedLayout() {
    CompactingMemStore ms = store(MemStorePolicy.BASIC, 4);
    Cell c = cell("row", "q", 1, 1);
    ms.add(c);
    long objects = MemoryLayout.CELL_OBJECT + MemoryLayout.align(16L + c.length()) - c.length();
    // The active segment's row filter is charged with its first cell: one block of 8 words at this size.
    long filter = ms.activeRowFilterBytes();
    assertThat(filter).isEqualTo(16 + 8 * 8 + 32);
    assertThat(ms.size()).isEqualTo(
        new MemStoreSize(c.length(), objects + MemoryLayout.SKIPLIST_ENTRY + filter, 0, 1));
    Cell d = cell("row", "r", 1, 2); // as long as c: the same overhead, and the filter charged once
    ms.add(d);
    assertThat(ms.size().overheadBytes()).isEqualTo(2 * (objects + MemoryLayout.SKIPLIST_ENTRY) + filter);
    assertThat(MemoryLayout.CELL_OBJECT).isEqualTo(40);
    assertThat(MemoryLayout.SKIPLIST_ENTRY).isEqualTo(36);
  }

  @Test
  void flatteningShrinksOverheadAndEverythingReturnsToZero() {
    CompactingMemStore ms = store(MemStorePolicy.BASIC, 4);
    long seq = 3_000_000_000L; // beyond 2^31
    while (ms.metrics().get("memstore.in.memory.flushes").longValue() == 0) {
      ms.add(cell("row" + seq, "q", 1, seq++));
    }
    long before = ms.size().overheadBytes();
    long data = ms.size().dataBytes();
    bg.runAll();
    assertThat(ms.metrics().get("memstore.flattens").longValue()).isEqualTo(1);
    assertThat(ms.size().overheadBytes()).isLessThan(before);
    assertThat(ms.size().dataBytes()).isEqualTo(data);
    assertThat(ms.metrics().get("memstore.footprint.array").longValue()).isPositive();
    assertThat(ms.oldestUnflushedSeqId()).isEqualTo(3_000_000_000L);

    FlushSnapshot snap = ms.snapshot();
    assertThat(snap.minSeqId()).isEqualTo(3_000_000_000L);
    assertThat(snap.maxSeqId()).isEqualTo(seq - 1);
    assertThatThrownBy(ms::snapshot).isInstanceOf(IllegalStateException.class);
    assertThat(ms.oldestUnflushedSeqId()).isEqualTo(3_000_000_000L); // the snapshot is still in memory
    ms.releaseSnapshot(snap);
    assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
    assertThat(ms.oldestUnflushedSeqId()).isEqualTo(Long.MAX_VALUE);
    FlushSnapshot empty = ms.snapshot();
    assertThat(empty.cellCount()).isZero();
    ms.releaseSnapshot(empty);
    ms.close();
  }

  @Test
  void eagerCompactionRaisesOldestUnflushedAndReturnsIt() {
    CompactingMemStore ms = store(MemStorePolicy.EAGER, 4);
    long seq = (1L << 32);
    // The same column over and over: compaction keeps only the newest version.
    while (ms.metrics().get("memstore.in.memory.flushes").longValue() == 0) {
      ms.add(cell("row", "q", 1, seq++));
    }
    assertThat(ms.oldestUnflushedSeqId()).isEqualTo(1L << 32);
    bg.runAll();
    assertThat(ms.metrics().get("memstore.compactions").longValue()).isEqualTo(1);
    List<Cell> left = new ArrayList<>(readAll(ms.scanners()));
    assertThat(left).hasSize(1);
    assertThat(left.get(0).seqId()).isEqualTo(seq - 1);
    assertThat(ms.oldestUnflushedSeqId()).isEqualTo(seq - 1);
    assertThat(bg.results()).as("what the in-memory work returned to its runner")
        .filteredOn(r -> r != InMemoryWork.UNCHANGED).containsExactly(seq - 1);
    assertThat(ms.size().cellCount()).isEqualTo(1);
    ms.releaseSnapshot(ms.snapshot());
    assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
  }

  @Test
  void defaultMemStoreSnapshotsAndReturnsToZero() {
    DefaultMemStore ms = new DefaultMemStore(MemStoreFixtures.context(
        MemStoreFixtures.family(MemStorePolicy.NONE, 0.05, 4, 0.2), 20_000, bg, MemStoreFixtures::keepAll, listener));
    for (long s = 1; s <= 100; s++) {
      ms.add(cell("r" + (s % 7), "q" + s, s, s + (1L << 40)));
    }
    assertThat(ms.size().cellCount()).isEqualTo(100);
    FlushSnapshot snap = ms.snapshot();
    ms.add(cell("new", "q", 1, 5));
    assertThat(ms.oldestUnflushedSeqId()).isEqualTo(5);
    assertThat(readAll(ms.scanners())).hasSize(101);
    assertThat(MemStoreFixtures.countAll(snap.scanner())).isEqualTo(100);
    ms.releaseSnapshot(snap);
    assertThat(ms.size().cellCount()).isEqualTo(1);
    ms.releaseSnapshot(ms.snapshot());
    assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
    assertThat(MemStores.create(MemStoreFixtures.context(MemStoreFixtures.family(MemStorePolicy.NONE, 0.05, 4, 0.2),
        20_000, bg, MemStoreFixtures::keepAll, listener))).isInstanceOf(DefaultMemStore.class);
    assertThat(MemStores.create(MemStoreFixtures.context(MemStoreFixtures.family(MemStorePolicy.ADAPTIVE, 0.05, 4,
        0.2), 20_000, bg, MemStoreFixtures::keepAll, listener))).isInstanceOf(CompactingMemStore.class);
  }

  @Test
  void addingABatchChargesAndHoldsWhatAddingEachCellDoes() {
    for (MemStorePolicy policy : MemStorePolicy.values()) {
      // Without row filters: cell by cell, the tiny active segments fill (and each charges its row
      // filter) at other points than slice by slice.
      ColumnFamilyDescriptor family = MemStoreFixtures.family(policy, 0.05, 4, 0.2).toBuilder()
          .set(Knobs.SEGMENT_ROW_FILTER, false).build();
      MemStore one = MemStores.create(MemStoreFixtures.context(family, 20_000, bg, MemStoreFixtures::keepAll, listener));
      MemStore batched = MemStores.create(MemStoreFixtures.context(family, 20_000, bg, MemStoreFixtures::keepAll,
          listener));
      List<Cell> cells = new ArrayList<>();
      for (int i = 0; i < 300; i++) { // more than one slice; rows repeat, and one write repeats exactly
        cells.add(cell("row" + (i % 97), "q" + (i % 3), 1, 7 + i / 100));
      }
      cells.add(cells.get(5));
      for (Cell c : cells) {
        one.add(c);
      }
      batched.addAll(cells);
      assertThat(batched.size()).as("%s", policy).isEqualTo(one.size());
      assertThat(readAll(batched.scanners())).as("%s", policy).isEqualTo(readAll(one.scanners()));
      assertThat(batched.oldestUnflushedSeqId()).isEqualTo(7);
      one.close();
      batched.close();
    }
  }
}
