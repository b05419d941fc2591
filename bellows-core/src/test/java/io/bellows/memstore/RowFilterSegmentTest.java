package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static io.bellows.memstore.MemStoreFixtures.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.config.Knobs;
import io.bellows.memstore.MemStoreFixtures.Form;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.MemStorePolicy;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The per-segment row filter inside a memory store: built by flatten, merge (array and chunk index)
 * and compaction; gets of absent rows skip the flat segments, gets of present rows still find every
 * cell, scans never consult it, and with the knob off no filter exists.
 */
class RowFilterSegmentTest {
  static List<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (MemStorePolicy p : List.of(MemStorePolicy.BASIC, MemStorePolicy.EAGER)) {
      for (Form form : Form.ALL) {
        out.add(Arguments.of(p, form, true));
      }
      out.add(Arguments.of(p, Form.ALL.get(6), false)); // mslab, chunk skiplist, chunk index
    }
    return out;
  }

  private static String row(int i) {
    return String.format("row%04d", i);
  }

  @ParameterizedTest(name = "{0} {1} filter={2}")
  @MethodSource("cases")
  void getsOfAbsentRowsSkipFlatSegments(MemStorePolicy policy, Form form, boolean filterOn) {
    ChunkAllocator chunks = form.allocator();
    ColumnFamilyDescriptor fam = MemStoreFixtures.family(policy, 0.05, 2, 0.2, form).toBuilder()
        .set(Knobs.SEGMENT_ROW_FILTER, filterOn).build();
    MemStoreFixtures.ManualExecutor bg = new MemStoreFixtures.ManualExecutor();
    MemStoreContext ctx = MemStoreFixtures.context(fam, 100_000, bg, MemStoreFixtures::keepAll,
        MemStoreContext.Listener.NONE, chunks);
    CompactingMemStore ms = new CompactingMemStore(ctx, () -> 0.0);
    long seq = 1;
    for (int i = 0; i < 400; i += 2) { // even rows present, two columns each
      ms.add(cell(row(i), "a", 1, seq++));
      ms.add(cell(row(i), "b", 1, seq++));
      if (i % 40 == 0) {
        bg.runAll();
      }
    }
    bg.runAll();
    String reduced = policy == MemStorePolicy.EAGER ? "memstore.compactions" : "memstore.merges";
    assertThat(ms.metrics().get(reduced).longValue()).as(reduced).isPositive();

    int flatUsed = 0;
    int flatInRange = 0;
    int flatSegments = 0;
    for (int i = 1; i < 400; i += 2) { // odd rows: absent, but inside the segments' row ranges
      ScanQuery get = ScanQuery.builder().singleRow(Bytes.of(row(i))).build();
      ScanQuery scan = ScanQuery.builder().startRow(Bytes.of(row(i)), true).stopRow(Bytes.of(row(i) + "~"), false)
          .build();
      List<CellScanner> scanners = ms.scanners();
      flatSegments = 0;
      for (CellScanner sc : scanners) {
        Segment seg = ((SegmentScanner) sc).segment();
        if (!(seg instanceof ImmutableSegment flat)) {
          continue;
        }
        flatSegments++;
        assertThat(flat.rowFilter() != null).as("filter present").isEqualTo(filterOn);
        boolean inRange = seg.stats().mayMatch(get);
        flatInRange += inRange ? 1 : 0;
        flatUsed += sc.shouldUse(get) ? 1 : 0;
        assertThat(sc.shouldUse(scan)).as("scans ignore the filter").isEqualTo(inRange);
      }
      scanners.forEach(CellScanner::close);
    }
    assertThat(flatSegments).isPositive();
    assertThat(flatInRange).as("absent rows lie inside the flat segments' ranges").isGreaterThan(150);
    if (filterOn) {
      assertThat(flatUsed).as("false positives of %d checks", flatInRange).isLessThanOrEqualTo(flatInRange / 20);
    } else {
      assertThat(flatUsed).isEqualTo(flatInRange);
    }

    for (int i = 0; i < 400; i += 2) { // present rows: every cell found through the used scanners
      ScanQuery get = ScanQuery.builder().singleRow(Bytes.of(row(i))).build();
      List<CellScanner> used = new ArrayList<>();
      for (CellScanner sc : ms.scanners()) {
        if (sc.shouldUse(get)) {
          used.add(sc);
        } else {
          sc.close();
        }
      }
      NavigableSet<Cell> all = readAll(used);
      String want = row(i);
      assertThat(all.stream().filter(c -> Bytes.toStringBinary(c.row()).equals(want)).count())
          .as(want).isEqualTo(2);
    }
    ms.releaseSnapshot(ms.snapshot());
    assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
    ms.close();
    chunks.checkNoChunksInUse();
  }

  /**
   * A compaction that drops the first column of every row records each row at its first kept
   * cell: a get's row probe lands there and reads the rest of the row, and rows dropped whole are
   * not in the filter at all.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void compactionRecordsEachRowAtItsFirstKeptCell(Form form) {
    ChunkAllocator chunks = form.allocator();
    ColumnFamilyDescriptor fam = MemStoreFixtures.family(MemStorePolicy.EAGER, 0.05, 2, 0.2, form);
    MemStoreFixtures.ManualExecutor bg = new MemStoreFixtures.ManualExecutor();
    // Drops column "a" of every row, and every cell of the rows whose number is a multiple of 7.
    java.util.function.Supplier<io.bellows.scan.RetentionFilter> dropA = () -> c -> {
      String q = Bytes.toStringBinary(c.qualifier());
      return !q.equals("a") && Integer.parseInt(Bytes.toStringBinary(c.row()).substring(3)) % 7 != 0;
    };
    MemStoreContext ctx = MemStoreFixtures.context(fam, 100_000, bg, dropA, MemStoreContext.Listener.NONE, chunks);
    CompactingMemStore ms = new CompactingMemStore(ctx, () -> 0.0);
    long seq = 1;
    for (int i = 0; i < 300; i++) {
      for (String q : List.of("a", "b", "c")) {
        ms.add(cell(row(i), q, 1, seq++));
      }
      if (i % 30 == 0) {
        bg.runAll();
      }
    }
    bg.runAll();
    assertThat(ms.metrics().get("memstore.compactions").longValue()).isPositive();
    for (int i = 0; i < 300; i++) {
      byte[] row = Bytes.of(row(i));
      ScanQuery get = ScanQuery.builder().singleRow(row).build();
      List<String> flat = new ArrayList<>(); // through the flat segments' filters and row probes
      java.util.Set<String> all = new java.util.TreeSet<>(); // and the active segment's cells
      for (CellScanner sc : ms.scanners()) {
        try (sc) {
          boolean isFlat = ((SegmentScanner) sc).segment() instanceof ImmutableSegment;
          if (!sc.shouldUse(get) || !(isFlat ? sc.seekRow(row, get.rowHash()) : sc.seek(CellScanner.rowStart(row)))) {
            continue;
          }
          for (Cell c = sc.next(); c != null && c.isRow(row); c = sc.next()) {
            String q = Bytes.toStringBinary(c.qualifier());
            all.add(q);
            if (isFlat) {
              flat.add(q);
            }
          }
        }
      }
      assertThat(flat).as(row(i)).isSubsetOf("b", "c");
      if (i % 7 == 0) {
        assertThat(flat).as(row(i)).isEmpty();
      } else {
        assertThat(all).as(row(i)).contains("b", "c");
      }
    }
    int compactedRows = 0;
    for (CellScanner sc : ms.scanners()) {
      try (sc) {
        if (((SegmentScanner) sc).segment() instanceof ImmutableSegment flat && flat.rowFilter() != null
            && flat.stats().cellCount() > 0) {
          for (int i = 0; i < 300; i += 7) {
            byte[] row = Bytes.of(row(i));
            compactedRows += flat.rowFilter().firstPosition(row, SegmentRowFilter.hash(row, 0, row.length),
                flat.index()) >= 0 ? 1 : 0;
          }
        }
      }
    }
    assertThat(compactedRows).as("rows dropped whole have no position").isZero();
    ms.releaseSnapshot(ms.snapshot());
    ms.close();
    chunks.checkNoChunksInUse();
  }

  static List<Form> forms() {
    return Form.ALL;
  }
}
