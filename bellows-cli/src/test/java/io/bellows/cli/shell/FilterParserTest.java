package io.bellows.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.filter.ByteComparator;
import io.bellows.filter.ColumnPrefixFilter;
import io.bellows.filter.ColumnRangeFilter;
import io.bellows.filter.CompareFilter;
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
import io.bellows.util.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HBase's filter language read into Bellows' filters, and its errors. */
class FilterParserTest {
  private static Filter parse(String text) {
    return FilterParser.parse(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void eachFilterWithItsArguments() {
    assertThat(((PrefixFilter) parse("PrefixFilter('r1')")).prefix()).isEqualTo(Bytes.of("r1"));
    assertThat(((ColumnPrefixFilter) parse("ColumnPrefixFilter ( 'q' )")).prefix()).isEqualTo(Bytes.of("q"));
    assertThat(((MultipleColumnPrefixFilter) parse("MultipleColumnPrefixFilter('a', 'b')")).prefixes())
        .containsExactly(Bytes.of("a"), Bytes.of("b"));
    assertThat(parse("FirstKeyOnlyFilter()")).isInstanceOf(FirstKeyOnlyFilter.class);
    assertThat(((KeyOnlyFilter) parse("KeyOnlyFilter()")).lengthAsValue()).isFalse();
    assertThat(((KeyOnlyFilter) parse("KeyOnlyFilter(true)")).lengthAsValue()).isTrue();
    assertThat(((PageFilter) parse("PageFilter(3)")).pageSize()).isEqualTo(3);
    assertThat(((TimestampsFilter) parse("TimestampsFilter(5, 7)")).timestamps()).containsExactly(5L, 7L);
    ColumnRangeFilter r = (ColumnRangeFilter) parse("ColumnRangeFilter('a', true, '', false)");
    assertThat(r.min()).isEqualTo(Bytes.of("a"));
    assertThat(r.minInclusive()).isTrue();
    assertThat(r.max()).isNull();
    SingleColumnValueFilter s = (SingleColumnValueFilter) parse("SingleColumnValueFilter('f', 'q', >=, 'binary:5', true, false)");
    assertThat(s.family()).isEqualTo(Bytes.of("f"));
    assertThat(s.qualifier()).isEqualTo(Bytes.of("q"));
    assertThat(s.operator()).isEqualTo(CompareOperator.GREATER_OR_EQUAL);
    assertThat(s.filterIfMissing()).isTrue();
    assertThat(s.latestVersionOnly()).isFalse();
    SingleColumnValueFilter d = (SingleColumnValueFilter) parse("SingleColumnValueFilter('f', 'q', =, 'binary:5')");
    assertThat(d.filterIfMissing()).isFalse();
    assertThat(d.latestVersionOnly()).isTrue();
  }

  @Test
  void compareFiltersTakeEveryOperatorAndComparator() {
    assertCompare(parse("RowFilter(=, 'binary:r1')"), RowFilter.class, CompareOperator.EQUAL, ByteComparator.Kind.BINARY, "r1");
    assertCompare(parse("FamilyFilter(!=, 'binaryprefix:f')"), FamilyFilter.class, CompareOperator.NOT_EQUAL,
        ByteComparator.Kind.BINARY_PREFIX, "f");
    assertCompare(parse("QualifierFilter(<=, 'binary:q')"), QualifierFilter.class, CompareOperator.LESS_OR_EQUAL,
        ByteComparator.Kind.BINARY, "q");
    assertCompare(parse("ValueFilter(=, 'regexstring:a.*b')"), ValueFilter.class, CompareOperator.EQUAL,
        ByteComparator.Kind.REGEX, "a.*b");
    assertCompare(parse("ValueFilter(!=, 'substring:x:y')"), ValueFilter.class, CompareOperator.NOT_EQUAL,
        ByteComparator.Kind.SUBSTRING, "x:y");
    assertCompare(parse("RowFilter(<, 'binary:b')"), RowFilter.class, CompareOperator.LESS, ByteComparator.Kind.BINARY, "b");
    assertCompare(parse("RowFilter(>, 'binary:b')"), RowFilter.class, CompareOperator.GREATER, ByteComparator.Kind.BINARY, "b");
    assertCompare(parse("RowFilter(>=, 'BINARY:b')"), RowFilter.class, CompareOperator.GREATER_OR_EQUAL,
        ByteComparator.Kind.BINARY, "b");
  }

  private static void assertCompare(Filter f, Class<?> type, CompareOperator op, ByteComparator.Kind kind, String operand) {
    assertThat(f).isInstanceOf(type);
    CompareFilter c = (CompareFilter) f;
    assertThat(c.operator()).isEqualTo(op);
    assertThat(c.comparator().kind()).isEqualTo(kind);
    assertThat(c.comparator().operand()).isEqualTo(Bytes.of(operand));
  }

  @Test
  void andBindsTighterThanOrAndParenthesesGroup() {
    FilterList or = (FilterList) parse("PrefixFilter('a') AND KeyOnlyFilter() OR PrefixFilter('b')");
    assertThat(or.operator()).isEqualTo(FilterList.Operator.MUST_PASS_ONE);
    assertThat(or.filters()).hasSize(2);
    FilterList and = (FilterList) or.filters().get(0);
    assertThat(and.operator()).isEqualTo(FilterList.Operator.MUST_PASS_ALL);
    assertThat(and.filters().get(1)).isInstanceOf(KeyOnlyFilter.class);
    assertThat(or.filters().get(1)).isInstanceOf(PrefixFilter.class);

    FilterList grouped = (FilterList) parse("PrefixFilter('a') AND (PrefixFilter('b') OR PrefixFilter('c'))");
    assertThat(grouped.operator()).isEqualTo(FilterList.Operator.MUST_PASS_ALL);
    assertThat(((FilterList) grouped.filters().get(1)).operator()).isEqualTo(FilterList.Operator.MUST_PASS_ONE);
    // a chain of one operator is one list
    assertThat(((FilterList) parse("PageFilter(1) AND PageFilter(2) AND PageFilter(3)")).filters()).hasSize(3);
  }

  @Test
  void quotedArgumentsKeepTheirExactBytes() {
    assertThat(((PrefixFilter) parse("PrefixFilter('it''s')")).prefix()).isEqualTo(Bytes.of("it's"));
    assertThat(((PrefixFilter) FilterParser.parse(new byte[] {'P', 'r', 'e', 'f', 'i', 'x', 'F', 'i', 'l', 't', 'e', 'r',
        '(', '\'', 0, (byte) 0xff, '\'', ')'})).prefix()).containsExactly(0, 0xff);
  }

  @Test
  void errorsNameTheColumnAndTheProblem() {
    assertThatThrownBy(() -> parse("")).hasMessage("the filter is empty");
    assertThatThrownBy(() -> parse("PrefixFilter('a'")).hasMessage("bad filter at column 17: missing ')'");
    assertThatThrownBy(() -> parse("PrefixFilter('a)")).hasMessage("bad filter at column 14: unclosed quote");
    assertThatThrownBy(() -> parse("PrefixFilter('a') XOR PrefixFilter('b')"))
        .hasMessage("bad filter at column 19: unexpected 'X' after the filter");
    assertThatThrownBy(() -> parse("PrefixFilter")).hasMessage("bad filter at column 13: expected '(' after PrefixFilter");
    assertThatThrownBy(() -> parse("PrefixFilter('a') AND")).hasMessage("bad filter at column 22: a filter name is missing at the end");
    assertThatThrownBy(() -> parse("PrefixFilter(1)"))
        .hasMessage("bad filter at column 1: PrefixFilter: the row prefix must be a quoted string, not 1");
    assertThatThrownBy(() -> parse("PageFilter()"))
        .hasMessage("bad filter at column 1: PageFilter: takes 1 argument(s) (page size), not 0");
    assertThatThrownBy(() -> parse("RowFilter('binary:a', =)"))
        .hasMessageContaining("expected a compare operator (=, !=, <, <=, >, >=), not 'binary:a'");
    assertThatThrownBy(() -> parse("RowFilter(<, 'substring:a')")).hasMessageContaining("use = or !=");
    assertThatThrownBy(() -> parse("RowFilter(=, 'exact:a')")).hasMessageContaining("must be 'binary:...'");
    assertThatThrownBy(() -> parse("ValueFilter(=, 'regexstring:(')")).hasMessageContaining("bad regular expression '('");
    assertThatThrownBy(() -> parse("SingleColumnValueFilter('f', 'q', =)")).hasMessageContaining("takes 4 or 6 arguments");
    assertThatThrownBy(() -> parse("TimestampsFilter(-1)")).hasMessageContaining("must not be negative");
  }

  @Test
  void filtersBellowsLacksAreRefusedByName() {
    assertThatThrownBy(() -> parse("SKIP ValueFilter(=, 'binary:0')"))
        .hasMessage("bad filter at column 1: SKIP is not supported by Bellows (it has no SkipFilter or WhileMatchFilter)");
    assertThatThrownBy(() -> parse("PrefixFilter('a') AND WHILE RowFilter(=, 'binary:a')"))
        .hasMessageStartingWith("bad filter at column 23: WHILE is not supported by Bellows");
    assertThatThrownBy(() -> parse("InclusiveStopFilter('r')"))
        .hasMessageStartingWith("bad filter at column 1: InclusiveStopFilter: this filter of HBase is not supported by Bellows"
            + " (supported: KeyOnlyFilter,");
    assertThatThrownBy(() -> parse("ColumnPaginationFilter(1, 2)")).hasMessageContaining("not supported by Bellows");
    assertThatThrownBy(() -> parse("NoSuchFilter()")).hasMessageStartingWith("bad filter at column 1: NoSuchFilter: unknown filter");
    assertThat(List.of(FilterParser.SUPPORTED.split(", "))).hasSize(13);
  }
}
