package io.bellows.scan;

import io.bellows.region.OptionsResolver;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.schema.ColumnFamilyDescriptor;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * The retention invariant: a FLUSH or MINOR rewrite of part A of a store's cells (B the rest) never
 * changes what a reader with read point &gt;= the smallest read point and time &gt;= the rewrite's
 * time sees; a MAJOR rewrite of all cells writes exactly {@link ReferenceReader#majorCompact}.
 */
class RetentionFilterPropertyTest {

  @Property(tries = 2000)
  void flushAndMinorRewritesAreInvisibleToReaders(@ForAll long seed) {
    RandomCase rc = new RandomCase(seed);
    List<Cell> cells = rc.cells(30);
    ColumnFamilyDescriptor fam = rc.family();
    long now = rc.now();
    long smallestReadPoint = rc.random().nextInt(cells.size() + 2);
    RetentionFilter.Mode mode = rc.random().nextBoolean() ? RetentionFilter.Mode.FLUSH : RetentionFilter.Mode.MINOR;
    List<Cell> a = new ArrayList<>();
    List<Cell> b = new ArrayList<>();
    for (Cell c : cells) {
      (rc.random().nextInt(3) > 0 ? a : b).add(c);
    }
    List<Cell> kept = filter(a, fam, mode, smallestReadPoint, now);
    Statistics.label("dropped").collect(a.size() == kept.size() ? "none" : "some");
    List<Cell> rewritten = new ArrayList<>(kept);
    rewritten.addAll(b);
    for (int i = 0; i < 6; i++) {
      long rp = i == 0 ? Long.MAX_VALUE : smallestReadPoint + rc.random().nextInt(cells.size() + 2);
      ScanQuery q = rc.query(rp);
      long readerNow = now + (i % 2 == 0 ? 0 : rc.random().nextInt(5000));
      assertThat(ReferenceReader.read(rewritten, q, fam, readerNow))
          .as("seed %d, %s, sRP %d, %s, family %s, now %d/%d, A %s, B %s, kept %s", seed, mode, smallestReadPoint,
              RandomCase.describe(q), fam, now, readerNow, a, b, kept)
          .containsExactlyElementsOf(ReferenceReader.read(cells, q, fam, readerNow));
    }
  }

  @Property(tries = 2000)
  void majorRewriteMatchesReferenceMajorCompaction(@ForAll long seed) {
    RandomCase rc = new RandomCase(seed);
    List<Cell> cells = rc.cells(30);
    ColumnFamilyDescriptor fam = rc.family();
    long now = rc.now();
    long smallestReadPoint = rc.random().nextInt(cells.size() + 2);
    List<Cell> kept = filter(cells, fam, RetentionFilter.Mode.MAJOR, smallestReadPoint, now);
    List<Cell> model = ReferenceReader.majorCompact(cells, fam, smallestReadPoint, now);
    Statistics.label("dropped").collect(cells.size() == kept.size() ? "none" : "some");
    assertThat(kept)
        .as("seed %d, sRP %d, family %s, now %d, cells %s", seed, smallestReadPoint, fam, now, cells)
        .containsExactlyElementsOf(model);
    for (int i = 0; i < 3; i++) {
      ScanQuery q = rc.query(smallestReadPoint + rc.random().nextInt(cells.size() + 2));
      assertThat(ReferenceReader.read(kept, q, fam, now)).isEqualTo(ReferenceReader.read(model, q, fam, now));
    }
  }

  static List<Cell> filter(List<Cell> input, ColumnFamilyDescriptor fam, RetentionFilter.Mode mode, long sRP, long now) {
    List<Cell> sorted = new ArrayList<>(input);
    sorted.sort(CellComparator.INSTANCE);
    RetentionFilter f = RetentionFilters.create(OptionsResolver.retention(fam), mode, sRP, now);
    List<Cell> kept = new ArrayList<>();
    for (Cell c : sorted) {
      if (f.keep(c)) {
        kept.add(c);
      }
    }
    return kept;
  }
}
