package io.bellows.wire;

import com.google.protobuf.ByteString;
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
import io.bellows.protocol.ComparatorKind;
import io.bellows.protocol.CompareOp;
import java.util.ArrayList;
import java.util.List;

/** Filters ({@code io.bellows.filter}) to and from their wire form ({@code bellows.v1.Filter}). */
public final class WireFilters {
  private WireFilters() {}

  public static io.bellows.protocol.Filter toWire(Filter f) {
    io.bellows.protocol.Filter.Builder b = io.bellows.protocol.Filter.newBuilder();
    if (f instanceof FilterList l) {
      io.bellows.protocol.FilterList.Builder lb = io.bellows.protocol.FilterList.newBuilder()
          .setMustPassOne(l.operator() == FilterList.Operator.MUST_PASS_ONE);
      l.filters().forEach(x -> lb.addFilters(toWire(x)));
      return b.setList(lb).build();
    }
    if (f instanceof PrefixFilter p) {
      return b.setPrefix(ByteString.copyFrom(p.prefix())).build();
    }
    if (f instanceof PageFilter p) {
      return b.setPage(p.pageSize()).build();
    }
    if (f instanceof FirstKeyOnlyFilter) {
      return b.setFirstKeyOnly(true).build();
    }
    if (f instanceof KeyOnlyFilter k) {
      return k.lengthAsValue() ? b.setKeyOnlyLengthAsValue(true).build() : b.setKeyOnly(true).build();
    }
    if (f instanceof ColumnPrefixFilter c) {
      return b.setColumnPrefix(ByteString.copyFrom(c.prefix())).build();
    }
    if (f instanceof MultipleColumnPrefixFilter m) {
      io.bellows.protocol.ColumnPrefixes.Builder pb = io.bellows.protocol.ColumnPrefixes.newBuilder();
      m.prefixes().forEach(p -> pb.addPrefixes(ByteString.copyFrom(p)));
      return b.setColumnPrefixes(pb).build();
    }
    if (f instanceof RowFilter c) {
      return b.setRow(compare(c.operator(), c.comparator())).build();
    }
    if (f instanceof FamilyFilter c) {
      return b.setFamily(compare(c.operator(), c.comparator())).build();
    }
    if (f instanceof QualifierFilter c) {
      return b.setQualifier(compare(c.operator(), c.comparator())).build();
    }
    if (f instanceof ValueFilter c) {
      return b.setValue(compare(c.operator(), c.comparator())).build();
    }
    if (f instanceof SingleColumnValueFilter s) {
      return b.setSingleColumnValue(io.bellows.protocol.SingleColumnValueFilter.newBuilder()
          .setFamily(ByteString.copyFrom(s.family())).setQualifier(ByteString.copyFrom(s.qualifier()))
          .setCompare(compare(s.operator(), s.comparator())).setFilterIfMissing(s.filterIfMissing())
          .setAnyVersion(!s.latestVersionOnly())).build();
    }
    if (f instanceof ColumnRangeFilter r) {
      io.bellows.protocol.ColumnRangeFilter.Builder rb = io.bellows.protocol.ColumnRangeFilter.newBuilder()
          .setMinInclusive(r.minInclusive()).setMaxInclusive(r.maxInclusive());
      if (r.min() != null) {
        rb.setHasMin(true).setMin(ByteString.copyFrom(r.min()));
      }
      if (r.max() != null) {
        rb.setHasMax(true).setMax(ByteString.copyFrom(r.max()));
      }
      return b.setColumnRange(rb).build();
    }
    if (f instanceof TimestampsFilter t) {
      return b.setTimestamps(io.bellows.protocol.Timestamps.newBuilder().addAllTimestamps(t.timestamps())).build();
    }
    throw new IllegalArgumentException("filter " + f + " has no wire form");
  }

  private static io.bellows.protocol.CompareFilter compare(CompareOperator op, ByteComparator c) {
    return io.bellows.protocol.CompareFilter.newBuilder().setOp(toWire(op))
        .setComparator(ComparatorKind.valueOf(c.kind().name())).setOperand(ByteString.copyFrom(c.operand()))
        .setRegexFlags(c.flags()).build();
  }

  public static Filter fromWire(io.bellows.protocol.Filter f) {
    switch (f.getKindCase()) {
      case LIST: {
        List<Filter> parts = new ArrayList<>();
        f.getList().getFiltersList().forEach(x -> parts.add(fromWire(x)));
        return new FilterList(f.getList().getMustPassOne() ? FilterList.Operator.MUST_PASS_ONE
            : FilterList.Operator.MUST_PASS_ALL, parts);
      }
      case PREFIX: return new PrefixFilter(f.getPrefix().toByteArray());
      case PAGE: return new PageFilter(f.getPage());
      case FIRST_KEY_ONLY: return new FirstKeyOnlyFilter();
      case KEY_ONLY: return new KeyOnlyFilter(false);
      case KEY_ONLY_LENGTH_AS_VALUE: return new KeyOnlyFilter(true);
      case COLUMN_PREFIX: return new ColumnPrefixFilter(f.getColumnPrefix().toByteArray());
      case COLUMN_PREFIXES: {
        List<byte[]> ps = new ArrayList<>();
        f.getColumnPrefixes().getPrefixesList().forEach(p -> ps.add(p.toByteArray()));
        return new MultipleColumnPrefixFilter(ps);
      }
      case ROW: return new RowFilter(op(f.getRow()), comparator(f.getRow()));
      case FAMILY: return new FamilyFilter(op(f.getFamily()), comparator(f.getFamily()));
      case QUALIFIER: return new QualifierFilter(op(f.getQualifier()), comparator(f.getQualifier()));
      case VALUE: return new ValueFilter(op(f.getValue()), comparator(f.getValue()));
      case SINGLE_COLUMN_VALUE: {
        io.bellows.protocol.SingleColumnValueFilter s = f.getSingleColumnValue();
        return new SingleColumnValueFilter(s.getFamily().toByteArray(), s.getQualifier().toByteArray(),
            op(s.getCompare()), comparator(s.getCompare())).setFilterIfMissing(s.getFilterIfMissing())
            .setLatestVersionOnly(!s.getAnyVersion());
      }
      case COLUMN_RANGE: {
        io.bellows.protocol.ColumnRangeFilter r = f.getColumnRange();
        return new ColumnRangeFilter(r.getHasMin() ? r.getMin().toByteArray() : null, r.getMinInclusive(),
            r.getHasMax() ? r.getMax().toByteArray() : null, r.getMaxInclusive());
      }
      case TIMESTAMPS: return new TimestampsFilter(f.getTimestamps().getTimestampsList());
      default: throw new IllegalArgumentException("a filter of no known kind");
    }
  }

  private static CompareOperator op(io.bellows.protocol.CompareFilter c) {
    if (c.getOp() == CompareOp.UNRECOGNIZED) {
      throw new IllegalArgumentException("unknown compare operator " + c.getOpValue());
    }
    return fromWire(c.getOp());
  }

  static CompareOp toWire(CompareOperator op) {
    return CompareOp.valueOf(op.name());
  }

  static CompareOperator fromWire(CompareOp op) {
    if (op == CompareOp.UNRECOGNIZED) {
      throw new IllegalArgumentException("unknown compare operator");
    }
    return CompareOperator.valueOf(op.name());
  }

  private static ByteComparator comparator(io.bellows.protocol.CompareFilter c) {
    if (c.getComparator() == ComparatorKind.UNRECOGNIZED) {
      throw new IllegalArgumentException("unknown comparator kind " + c.getComparatorValue());
    }
    return ByteComparator.of(ByteComparator.Kind.valueOf(c.getComparator().name()), c.getOperand().toByteArray(),
        c.getRegexFlags());
  }
}
