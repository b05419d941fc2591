package io.bellows.scan;

import io.bellows.region.OptionsResolver;
import static io.bellows.scan.RandomCase.FAMILY;
import static io.bellows.scan.RandomCase.cell;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One crafted case per rule of "What a reader sees". Each read goes through {@link StoreScanner}
 * (cells spread over two sources) and is checked against {@link ReferenceReader} too.
 */
class ReadSemanticsTest {
  private static final ColumnFamilyDescriptor ONE = ColumnFamilyDescriptor.of("f");
  private static final ColumnFamilyDescriptor THREE = ColumnFamilyDescriptor.builder("f").maxVersions(3).build();
  private static final ScanQuery ALL_VERSIONS = ScanQuery.builder().maxVersions(100).build();

  private static Cell put(String row, String q, long ts, long seq) {
    return cell(row, q, ts, CellType.PUT, seq);
  }

  /** Reads with the store scanner; returns "row/q/ts/seq" strings; checks the reference agrees. */
  private static List<String> read(List<Cell> cells, ColumnFamilyDescriptor fam, ScanQuery q, long now) {
    List<Cell> even = new ArrayList<>();
    List<Cell> odd = new ArrayList<>();
    for (int i = 0; i < cells.size(); i++) {
      (i % 2 == 0 ? even : odd).add(cells.get(i));
    }
    List<Cell> out = new ArrayList<>();
    try (StoreScanner s = new StoreScanner(List.of(new ListScanner(even), new ListScanner(odd)), q, fam.nameBytes(),
        OptionsResolver.retention(fam), now)) {
      while (s.nextRow(out)) {
        // collect all rows
      }
    }
    assertThat(out).containsExactlyElementsOf(ReferenceReader.read(cells, q, fam, now));
    List<String> shown = new ArrayList<>();
    for (Cell c : out) {
      shown.add(Bytes.str(c.row()) + "/" + Bytes.str(c.qualifier()) + "/" + c.timestamp() + "/" + c.seqId());
    }
    return shown;
  }

  @Test
  void familyDeleteMasksAPutWrittenLaterWithAnOlderTimestamp() {
    List<Cell> cells = List.of(
        cell("r", "", 10, CellType.DELETE_FAMILY, 1),
        put("r", "x", 5, 2), // written after the tombstone, but older: masked
        put("r", "y", 10, 3), // same timestamp as the tombstone: masked
        put("r", "y", 11, 4), // newer: visible
        put("s", "x", 5, 5)); // another row: untouched
    assertThat(read(cells, THREE, ALL_VERSIONS, 0)).containsExactly("r/y/11/4", "s/x/5/5");
  }

  @Test
  void columnDeleteMasksOnlyItsColumnUpToItsTimestamp() {
    List<Cell> cells = List.of(
        cell("r", "x", 3, CellType.DELETE_COLUMN, 9),
        put("r", "x", 4, 1), put("r", "x", 3, 2), put("r", "x", 2, 3), put("r", "y", 2, 4));
    assertThat(read(cells, THREE, ALL_VERSIONS, 0)).containsExactly("r/x/4/1", "r/y/2/4");
  }

  @Test
  void deletingAVersionDoesNotResurrectOneBeyondVersions() {
    ColumnFamilyDescriptor two = ColumnFamilyDescriptor.builder("f").maxVersions(2).build();
    List<Cell> cells = List.of(
        put("r", "x", 3, 1), put("r", "x", 2, 2), put("r", "x", 1, 3),
        cell("r", "x", 3, CellType.DELETE, 4));
    assertThat(read(cells, two, ALL_VERSIONS, 0)).containsExactly("r/x/2/2");
    // A version delete also hides a put of its timestamp written after it.
    List<Cell> later = List.of(cell("r", "x", 3, CellType.DELETE, 1), put("r", "x", 3, 2));
    assertThat(read(later, two, ALL_VERSIONS, 0)).isEmpty();
  }

  @Test
  void sameTimestampPutOverwritesAndOnlyTheLatestVisibleWriteIsReturned() {
    List<Cell> cells = List.of(put("r", "x", 5, 1), put("r", "x", 5, 2), put("r", "x", 4, 3));
    assertThat(read(cells, THREE, ALL_VERSIONS, 0)).containsExactly("r/x/5/2", "r/x/4/3");
    ScanQuery atOne = ScanQuery.builder().maxVersions(100).readPoint(1).build();
    assertThat(read(cells, THREE, atOne, 0)).containsExactly("r/x/5/1");
  }

  @Test
  void readPointHidesLaterWritesIncludingTombstones() {
    List<Cell> cells = List.of(put("r", "x", 5, 2), cell("r", "", 9, CellType.DELETE_FAMILY, 5));
    assertThat(read(cells, ONE, ScanQuery.builder().readPoint(4).build(), 0)).containsExactly("r/x/5/2");
    assertThat(read(cells, ONE, ScanQuery.builder().readPoint(5).build(), 0)).isEmpty();
    assertThat(read(cells, ONE, ScanQuery.builder().readPoint(1).build(), 0)).isEmpty();
  }

  @Test
  void ttlExpiresVersionsButKeepsMinVersions() {
    ColumnFamilyDescriptor ttl = ColumnFamilyDescriptor.builder("f").maxVersions(3).minVersions(1).ttlSeconds(1).build();
    List<Cell> cells = List.of(put("r", "x", 1000, 1), put("r", "x", 2000, 2), put("r", "x", 3000, 3));
    assertThat(read(cells, ttl, ALL_VERSIONS, 2500)).containsExactly("r/x/3000/3", "r/x/2000/2");
    assertThat(read(cells, ttl, ALL_VERSIONS, 10_000)).containsExactly("r/x/3000/3");
    ColumnFamilyDescriptor noMin = ttl.toBuilder().minVersions(0).build();
    assertThat(read(cells, noMin, ALL_VERSIONS, 10_000)).isEmpty();
    // A deleted newest version still holds rank 0, so the expired next one is not kept by MIN_VERSIONS.
    List<Cell> deletedNewest = List.of(put("r", "x", 3000, 1), put("r", "x", 2000, 2), cell("r", "x", 3000, CellType.DELETE, 3));
    assertThat(read(deletedNewest, ttl, ALL_VERSIONS, 10_000)).isEmpty();
  }

  @Test
  void timeRangeAppliesAfterFamilyVersionsThenQueryVersions() {
    List<Cell> cells = new ArrayList<>();
    for (int ts = 1; ts <= 5; ts++) {
      cells.add(put("r", "x", ts, ts));
    }
    // VERSIONS = 3 keeps 5, 4, 3; the range [2, 5) leaves 4, 3 (2 is beyond VERSIONS).
    ScanQuery range = ScanQuery.builder().timeRange(2, 5).maxVersions(10).build();
    assertThat(read(cells, THREE, range, 0)).containsExactly("r/x/4/4", "r/x/3/3");
    ScanQuery rangeOne = ScanQuery.builder().timeRange(2, 5).maxVersions(1).build();
    assertThat(read(cells, THREE, rangeOne, 0)).containsExactly("r/x/4/4");
  }

  @Test
  void emptyQualifierColumnInterleavesWithFamilyDeletes() {
    List<Cell> cells = List.of(
        put("r", "", 5, 1), cell("r", "", 4, CellType.DELETE_FAMILY, 2), put("r", "", 3, 3), put("r", "x", 4, 4),
        put("r", "x", 6, 5));
    assertThat(read(cells, THREE, ALL_VERSIONS, 0)).containsExactly("r//5/1", "r/x/6/5");
    // Asking only for x still applies the family delete, which lives in the empty-qualifier group.
    ScanQuery onlyX = ScanQuery.builder().addColumn(FAMILY, Bytes.of("x")).maxVersions(10).build();
    assertThat(read(cells, THREE, onlyX, 0)).containsExactly("r/x/6/5");
  }

  @Test
  void rowRangesHonourInclusiveFlagsAndGets() {
    List<Cell> cells = List.of(put("a", "x", 1, 1), put("b", "x", 1, 2), put("c", "x", 1, 3), put("d", "x", 1, 4));
    ScanQuery openOpen = ScanQuery.builder().startRow(Bytes.of("a"), false).stopRow(Bytes.of("d"), false).build();
    assertThat(read(cells, ONE, openOpen, 0)).containsExactly("b/x/1/2", "c/x/1/3");
    ScanQuery closedClosed = ScanQuery.builder().startRow(Bytes.of("b"), true).stopRow(Bytes.of("c"), true).build();
    assertThat(read(cells, ONE, closedClosed, 0)).containsExactly("b/x/1/2", "c/x/1/3");
    assertThat(read(cells, ONE, ScanQuery.builder().singleRow(Bytes.of("c")).build(), 0)).containsExactly("c/x/1/3");
    assertThat(read(cells, ONE, ScanQuery.builder().singleRow(Bytes.of("bb")).build(), 0)).isEmpty();
    ScanQuery otherFamily = ScanQuery.builder().addFamily(Bytes.of("g")).build();
    assertThat(read(cells, ONE, otherFamily, 0)).isEmpty();
  }

  @Test
  void seekHintsAvoidReadingOldVersionsAndUnwantedColumns() {
    List<Cell> cells = new ArrayList<>();
    long seq = 1;
    for (String q : new String[] {"a", "b", "c"}) {
      for (int ts = 1; ts <= 200; ts++) {
        cells.add(put("r", q, ts, seq++));
      }
    }
    ListScanner source = new ListScanner(cells);
    ScanQuery onlyB = ScanQuery.builder().addColumn(FAMILY, Bytes.of("b")).build();
    List<Cell> out = new ArrayList<>();
    try (StoreScanner s = new StoreScanner(List.of(source), onlyB, ONE.nameBytes(), Retention.DEFAULT, 0)) {
      assertThat(s.nextRow(out)).isTrue();
      assertThat(s.nextRow(out)).isFalse();
    }
    assertThat(out).hasSize(1);
    assertThat(out.get(0).timestamp()).isEqualTo(200);
    // The newest version, one to learn the column's version limit is reached, a few steps over
    // older versions, then a seek past the other 197.
    assertThat(source.cellsRead()).isLessThanOrEqualTo(2 + StoreScanner.SKIP_STEPS);
  }

  @Test
  void sourcesThatCannotMatchAreClosedAndNotRead() {
    ListScanner used = new ListScanner(List.of(put("r", "x", 1, 1)));
    ListScanner skipped = new ListScanner(List.of(put("r", "x", 2, 2))) ;
    CellScanner refusing = new CellScanner() {
      @Override public Cell peek() { return skipped.peek(); }
      @Override public Cell next() { return skipped.next(); }
      @Override public boolean seek(Cell key) { return skipped.seek(key); }
      @Override public boolean shouldUse(ScanQuery q) { return false; }
      @Override public void close() { skipped.close(); }
    };
    List<Cell> out = new ArrayList<>();
    try (StoreScanner s = new StoreScanner(List.of(used, refusing), ScanQuery.builder().build(), ONE.nameBytes(),
        Retention.DEFAULT, 0)) {
      assertThat(skipped.isClosed()).isTrue();
      assertThat(s.nextRow(out)).isTrue();
    }
    assertThat(out).extracting(Cell::timestamp).containsExactly(1L);
    assertThat(skipped.cellsRead()).isZero();
    assertThat(used.isClosed()).isTrue();
  }
}
