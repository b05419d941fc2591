package io.bellows.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One case per filter, through {@link RowFilterRun} as a region applies it: rows of cells in, the
 * cells HBase's documentation says come out. Cells are written "row/family:qualifier@ts=value".
 */
class FilterTest {
  private static Cell c(String row, String fam, String qual, long ts, String value) {
    return Cells.put(Bytes.of(row), Bytes.of(fam), Bytes.of(qual), ts, Bytes.of(value));
  }

  private static final List<List<Cell>> ROWS = List.of(
      List.of(c("a1", "f", "q1", 2, "x"), c("a1", "f", "q2", 2, "yy"), c("a1", "g", "q1", 2, "z")),
      List.of(c("a2", "f", "q1", 3, "match"), c("a2", "f", "q1", 1, "old"), c("a2", "f", "r1", 1, "w")),
      List.of(c("b1", "f", "p1", 5, "y"), c("b1", "f", "q1", 4, "Hello World")),
      List.of(c("c1", "g", "q3", 7, "v")));

  /** The rows a filter lets through, each as "row: fam:qual@ts=value ..." */
  private static List<String> run(Filter f) {
    return run(f, ROWS, false);
  }

  private static List<String> run(Filter f, List<List<Cell>> rows, boolean reversed) {
    RowFilterRun r = new RowFilterRun(f, reversed);
    List<String> out = new ArrayList<>();
    for (List<Cell> row : rows) {
      List<Cell> cells = new ArrayList<>(row);
      if (r.apply(cells)) {
        StringBuilder sb = new StringBuilder(Bytes.str(cells.get(0).row())).append(':');
        for (Cell x : cells) {
          sb.append(' ').append(Bytes.str(x.family())).append(':').append(Bytes.str(x.qualifier())).append('@')
              .append(x.timestamp()).append('=').append(Bytes.toStringBinary(x.value()));
        }
        out.add(sb.toString());
      }
      if (r.done()) {
        break;
      }
    }
    return out;
  }

  private static List<String> rowKeys(List<String> rows) {
    return rows.stream().map(s -> s.substring(0, s.indexOf(':'))).toList();
  }

  @Test
  void prefixFilterKeepsMatchingRowsAndEndsTheScanPastThem() {
    PrefixFilter f = new PrefixFilter(Bytes.of("a"));
    assertThat(rowKeys(run(f))).containsExactly("a1", "a2");
    RowFilterRun r = new RowFilterRun(f, false);
    List<Cell> b1 = new ArrayList<>(ROWS.get(2));
    assertThat(r.apply(b1)).isFalse();
    assertThat(r.done()).as("past the prefix, the region's scan may end").isTrue();
    // Reversed: rows come high to low; "a" is passed only below it.
    List<List<Cell>> down = new ArrayList<>(ROWS);
    java.util.Collections.reverse(down);
    assertThat(rowKeys(run(new PrefixFilter(Bytes.of("b")), down, true))).containsExactly("b1");
  }

  @Test
  void pageFilterCountsOnlyReturnedRows() {
    assertThat(rowKeys(run(new PageFilter(2)))).containsExactly("a1", "a2");
    // A row emptied by another filter does not use a page slot.
    Filter f = new FilterList(FilterList.Operator.MUST_PASS_ALL,
        new ValueFilter(CompareOperator.NOT_EQUAL, ByteComparator.binary(Bytes.of("x"))), new PageFilter(2));
    assertThat(rowKeys(run(f))).containsExactly("a1", "a2");
    Filter g = new FilterList(FilterList.Operator.MUST_PASS_ALL, new PrefixFilter(Bytes.of("b")), new PageFilter(1));
    assertThat(rowKeys(run(g))).containsExactly("b1");
    assertThat(run(new PageFilter(0))).isEmpty();
  }

  @Test
  void firstKeyOnlyAndKeyOnly() {
    assertThat(run(new FirstKeyOnlyFilter())).containsExactly("a1: f:q1@2=x", "a2: f:q1@3=match", "b1: f:p1@5=y",
        "c1: g:q3@7=v");
    assertThat(run(new KeyOnlyFilter()).get(0)).isEqualTo("a1: f:q1@2= f:q2@2= g:q1@2=");
    assertThat(run(new KeyOnlyFilter(true)).get(0)).isEqualTo("a1: f:q1@2=\\x00\\x00\\x00\\x01 f:q2@2=\\x00\\x00\\x00\\x02 g:q1@2=\\x00\\x00\\x00\\x01");
  }

  @Test
  void columnPrefixFilters() {
    assertThat(run(new ColumnPrefixFilter(Bytes.of("q1")))).containsExactly("a1: f:q1@2=x g:q1@2=z",
        "a2: f:q1@3=match f:q1@1=old", "b1: f:q1@4=Hello World");
    assertThat(run(new MultipleColumnPrefixFilter(List.of(Bytes.of("r"), Bytes.of("p"), Bytes.of("q3")))))
        .containsExactly("a2: f:r1@1=w", "b1: f:p1@5=y", "c1: g:q3@7=v");
  }

  @Test
  void columnRangeFilterBounds() {
    assertThat(run(new ColumnRangeFilter(Bytes.of("q1"), false, Bytes.of("q3"), true)))
        .containsExactly("a1: f:q2@2=yy", "c1: g:q3@7=v");
    assertThat(run(new ColumnRangeFilter(null, true, Bytes.of("q1"), false))).containsExactly("b1: f:p1@5=y");
  }

  @Test
  void compareFiltersWithEachComparator() {
    assertThat(rowKeys(run(new RowFilter(CompareOperator.GREATER_OR_EQUAL, ByteComparator.binary(Bytes.of("a2"))))))
        .containsExactly("a2", "b1", "c1");
    assertThat(rowKeys(run(new RowFilter(CompareOperator.LESS, ByteComparator.binary(Bytes.of("a2"))))))
        .containsExactly("a1");
    assertThat(rowKeys(run(new RowFilter(CompareOperator.EQUAL, ByteComparator.binaryPrefix(Bytes.of("a"))))))
        .containsExactly("a1", "a2");
    assertThat(run(new FamilyFilter(CompareOperator.EQUAL, ByteComparator.binary(Bytes.of("g")))))
        .containsExactly("a1: g:q1@2=z", "c1: g:q3@7=v");
    assertThat(run(new QualifierFilter(CompareOperator.NOT_EQUAL, ByteComparator.regex("^q")))).containsExactly(
        "a2: f:r1@1=w", "b1: f:p1@5=y");
    assertThat(run(new ValueFilter(CompareOperator.EQUAL, ByteComparator.substring("WORLD"))))
        .containsExactly("b1: f:q1@4=Hello World");
    assertThat(run(new ValueFilter(CompareOperator.EQUAL, ByteComparator.regex("^h.*d$", Pattern.CASE_INSENSITIVE))))
        .containsExactly("b1: f:q1@4=Hello World");
    assertThat(run(new ValueFilter(CompareOperator.GREATER, ByteComparator.binary(Bytes.of("x")))))
        .containsExactly("a1: f:q2@2=yy g:q1@2=z", "b1: f:p1@5=y");
    assertThat(run(new ValueFilter(CompareOperator.LESS_OR_EQUAL, ByteComparator.binary(Bytes.of("old")))))
        .containsExactly("a2: f:q1@3=match f:q1@1=old", "b1: f:q1@4=Hello World");
    assertThat(run(new ValueFilter(CompareOperator.NO_OP, ByteComparator.binary(Bytes.of("x"))))).isEmpty();
  }

  @Test
  void singleColumnValueFilter() {
    Filter f = new SingleColumnValueFilter(Bytes.of("f"), Bytes.of("q1"), CompareOperator.EQUAL,
        ByteComparator.binary(Bytes.of("old")));
    assertThat(run(f)).as("latest version only: a2's newest q1 is 'match'; c1 lacks the column").containsExactly(
        "c1: g:q3@7=v");
    ((SingleColumnValueFilter) f).setLatestVersionOnly(false).setFilterIfMissing(true);
    assertThat(run(f)).containsExactly("a2: f:q1@3=match f:q1@1=old f:r1@1=w");
  }

  @Test
  void timestampsFilter() {
    assertThat(run(new TimestampsFilter(List.of(1L, 5L)))).containsExactly("a2: f:q1@1=old f:r1@1=w",
        "b1: f:p1@5=y");
  }

  @Test
  void filterListsNest() {
    Filter valueX = new ValueFilter(CompareOperator.EQUAL, ByteComparator.binary(Bytes.of("x")));
    Filter qualR = new QualifierFilter(CompareOperator.EQUAL, ByteComparator.binaryPrefix(Bytes.of("r")));
    Filter rowC = new RowFilter(CompareOperator.EQUAL, ByteComparator.binary(Bytes.of("c1")));
    Filter one = new FilterList(FilterList.Operator.MUST_PASS_ONE, valueX, qualR, rowC);
    assertThat(run(one)).containsExactly("a1: f:q1@2=x", "a2: f:r1@1=w", "c1: g:q3@7=v");
    Filter all = new FilterList(FilterList.Operator.MUST_PASS_ALL, new PrefixFilter(Bytes.of("a")),
        new FilterList(FilterList.Operator.MUST_PASS_ONE, valueX, qualR));
    assertThat(run(all)).containsExactly("a1: f:q1@2=x", "a2: f:r1@1=w");
    assertThat(run(new FilterList(FilterList.Operator.MUST_PASS_ALL))).hasSize(4);
  }

  @Test
  void freshCopiesDoNotShareState() {
    PageFilter p = new PageFilter(1);
    assertThat(run(p)).hasSize(1);
    assertThat(run(p)).as("each region scan starts its own page").hasSize(1);
  }
}
