package io.bellows.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.filter.ByteComparator;
import io.bellows.filter.ColumnPrefixFilter;
import io.bellows.filter.ColumnRangeFilter;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.FamilyFilter;
import io.bellows.filter.Filter;
import io.bellows.filter.FilterList;
import io.bellows.filter.FirstKeyOnlyFilter;
import io.bellows.filter.KeyOnlyFilter;
import io.bellows.filter.MultipleColumnPrefixFilter;
import io.bellows.filter.PageFilter;
import io.bellows.filter.PrefixFilter;
import io.bellows.filter.QualifierFilter;
import io.bellows.filter.RowFilter;
import io.bellows.filter.SingleColumnValueFilter;
import io.bellows.filter.TimestampsFilter;
import io.bellows.filter.ValueFilter;
import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every filter kind, nested in lists, travels with its settings; a query keeps its direction. */
class WireFiltersTest {
  @Test
  void everyFilterKindRoundTrips() {
    Filter all = new FilterList(FilterList.Operator.MUST_PASS_ALL,
        new PrefixFilter(Bytes.of("p")), new PageFilter(7), new FirstKeyOnlyFilter(), new KeyOnlyFilter(true),
        new KeyOnlyFilter(false), new ColumnPrefixFilter(Bytes.of("c")),
        new MultipleColumnPrefixFilter(List.of(Bytes.of("a"), Bytes.of("b"))),
        new RowFilter(CompareOperator.LESS, ByteComparator.binary(Bytes.of("r"))),
        new FamilyFilter(CompareOperator.NOT_EQUAL, ByteComparator.binaryPrefix(Bytes.of("f"))),
        new QualifierFilter(CompareOperator.EQUAL, ByteComparator.regex("^q.*", Pattern.CASE_INSENSITIVE)),
        new ValueFilter(CompareOperator.GREATER_OR_EQUAL, ByteComparator.substring("Sub")),
        new SingleColumnValueFilter(Bytes.of("f"), Bytes.of("q"), CompareOperator.NO_OP, ByteComparator.binary(Bytes.of("v")))
            .setFilterIfMissing(true).setLatestVersionOnly(false),
        new ColumnRangeFilter(null, false, Bytes.of("z"), true), new ColumnRangeFilter(Bytes.of("a"), true, null, false),
        new TimestampsFilter(List.of(3L, 1L)),
        new FilterList(FilterList.Operator.MUST_PASS_ONE, new PageFilter(1)));
    io.bellows.protocol.Filter wire = WireFilters.toWire(all);
    Filter back = WireFilters.fromWire(wire);
    assertThat(WireFilters.toWire(back)).isEqualTo(wire);
    assertThat(back.toString()).isEqualTo(all.toString());
    QualifierFilter q = (QualifierFilter) ((FilterList) back).filters().get(9);
    assertThat(q.comparator().flags()).isEqualTo(Pattern.CASE_INSENSITIVE);
  }

  @Test
  void aQueryKeepsItsFilterAndDirection() {
    ScanQuery q = ScanQuery.builder().reversed(true).filter(new PrefixFilter(Bytes.of("x"))).build();
    ScanQuery back = Wire.fromWire(Wire.toWire(q));
    assertThat(back.reversed()).isTrue();
    assertThat(back.filter()).isInstanceOf(PrefixFilter.class);
    assertThat(Wire.fromWire(Wire.toWire(ScanQuery.builder().build())).filter()).isNull();
  }
}
