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
      out.add(Arguments.of(p, Form.ALL.get(4), false));
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
}
