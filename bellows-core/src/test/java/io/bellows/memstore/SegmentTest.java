package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Segment state machine, flat index search, shouldUse and the retain/release hook. */
class SegmentTest {
  private final MemStoreAccounting acct = new MemStoreAccounting();

  private MutableSegment filled() {
    MutableSegment m = new MutableSegment(1, new SkipListActiveIndex());
    for (int r = 10; r < 20; r++) {
      for (int ts = 100; ts < 103; ts++) {
        assertThat(m.tryEnter()).isTrue();
        m.add(cell("row" + r, "q", ts, r * 10L + ts), acct);
        m.exit();
      }
    }
    return m;
  }

  @Test
  void sealWaitsForWritersInsideAndRunsCallbackOnce() {
    MutableSegment m = filled();
    int[] calls = {0};
    assertThat(m.tryEnter()).isTrue();
    m.seal(() -> calls[0]++);
    assertThat(m.state()).isEqualTo(MutableSegment.State.SEALING);
    assertThat(m.tryEnter()).isFalse();
    assertThat(calls[0]).isZero();
    m.exit();
    assertThat(m.state()).isEqualTo(MutableSegment.State.SEALED);
    assertThat(calls[0]).isEqualTo(1);
    m.seal(() -> calls[0]++);
    assertThat(calls[0]).isEqualTo(1);
  }

  @Test
  void flattenedSegmentSeeksLikeTheSkiplist() {
    MutableSegment m = filled();
    m.seal(null);
    SegmentCompactor.Result r = new SegmentCompactor(() -> 2, MemStoreFixtures.plainSegments()).flatten(m);
    ImmutableSegment flat = r.output();
    assertThat(r.uniqueness()).isEqualTo(10.0 / 30.0);
    assertThat(flat.stats().cellCount()).isEqualTo(30);
    assertThat(flat.stats().overheadBytes()).isLessThan(m.stats().overheadBytes());
    assertThat(flat.stats().dataBytes()).isEqualTo(m.stats().dataBytes());
    for (Segment s : List.of(m, flat)) {
      try (CellScanner sc = s.tryScanner()) {
        assertThat(sc.seek(Cells.firstOnRow(Bytes.of("row15")))).isTrue();
        assertThat(Bytes.str(sc.peek().row())).isEqualTo("row15");
        assertThat(sc.next().timestamp()).isEqualTo(102);
        Cell at = Cells.firstOnColumnAt(Bytes.of("row17"), MemStoreFixtures.FAMILY, Bytes.of("q"), 100);
        assertThat(sc.reseek(at)).isTrue();
        assertThat(sc.peek().timestamp()).isEqualTo(100);
        assertThat(Bytes.str(sc.peek().row())).isEqualTo("row17");
        assertThat(sc.seek(Cells.firstOnRow(Bytes.of("row3")))).isFalse();
        assertThat(sc.peek()).isNull();
      }
    }
  }

  @Test
  void shouldUseChecksKeyRangeTimeRangeAndReadPoint() {
    MutableSegment m = filled();
    try (CellScanner sc = m.tryScanner()) {
      assertThat(sc.shouldUse(ScanQuery.builder().build())).isTrue();
      assertThat(sc.shouldUse(ScanQuery.builder().singleRow(Bytes.of("row12")).build())).isTrue();
      assertThat(sc.shouldUse(ScanQuery.builder().singleRow(Bytes.of("row2")).build())).isFalse();
      assertThat(sc.shouldUse(ScanQuery.builder().startRow(Bytes.of("row19"), false).build())).isFalse();
      assertThat(sc.shouldUse(ScanQuery.builder().startRow(Bytes.of("row19"), true).build())).isTrue();
      assertThat(sc.shouldUse(ScanQuery.builder().stopRow(Bytes.of("row10"), false).build())).isFalse();
      assertThat(sc.shouldUse(ScanQuery.builder().timeRange(103, 200).build())).isFalse();
      // Only newer cells: never skipped (they take version slots, see docs/design/scan.md).
      assertThat(sc.shouldUse(ScanQuery.builder().timeRange(0, 100).build())).isTrue();
      assertThat(sc.shouldUse(ScanQuery.builder().timeRange(102, 103).build())).isTrue();
      assertThat(sc.shouldUse(ScanQuery.builder().readPoint(50).build())).isFalse();
    }
    MutableSegment empty = new MutableSegment(3, new SkipListActiveIndex());
    try (CellScanner sc = empty.tryScanner()) {
      assertThat(sc.shouldUse(ScanQuery.builder().build())).isFalse();
    }
  }

  @Test
  void scannerKeepsSegmentAliveUntilClosed() {
    ImmutableSegment seg = new ImmutableSegment(5, new CellArrayIndex(new Cell[0], 0), SegmentStats.EMPTY);
    CellScanner sc = seg.tryScanner();
    seg.release(); // the owner lets go
    assertThat(seg.refCount()).isEqualTo(1);
    sc.close();
    sc.close(); // idempotent
    assertThat(seg.refCount()).isZero();
    assertThat(seg.tryScanner()).isNull();
    assertThatThrownBy(seg::retain).isInstanceOf(IllegalStateException.class);
  }
}
