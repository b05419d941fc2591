package io.bellows.wire;

import com.google.protobuf.ByteString;
import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.engine.RowOperation;
import io.bellows.protocol.MutateRowRequest;
import io.bellows.protocol.MutateRowResponse;
import io.bellows.protocol.TableId;
import java.util.ArrayList;
import java.util.List;

/**
 * Atomic row operations ({@link RowOperation}: a {@link Condition}, {@link ColumnUpdate}s, the
 * {@link Outcome}) to and from their wire form ({@code MutateRowRequest}, {@code
 * MutateRowResponse}). Malformed input is an {@link IllegalArgumentException}.
 */
public final class WireAtomic {
  private WireAtomic() {}

  public static MutateRowRequest toWire(TableId table, RowOperation op) {
    MutateRowRequest.Builder b = MutateRowRequest.newBuilder().setTable(table).setMutation(Wire.toWire(op.mutation()))
        .setReturnValues(op.returnValues());
    if (op.condition() != null) {
      b.setCondition(toWire(op.condition()));
    }
    for (ColumnUpdate u : op.updates()) {
      b.addUpdates(toWire(u));
    }
    return b.build();
  }

  public static RowOperation fromWire(MutateRowRequest r) {
    List<ColumnUpdate> updates = new ArrayList<>(r.getUpdatesCount());
    for (io.bellows.protocol.ColumnUpdate u : r.getUpdatesList()) {
      updates.add(fromWire(u));
    }
    return new RowOperation(Wire.fromWire(r.getMutation()), r.hasCondition() ? fromWire(r.getCondition()) : null,
        updates, r.getReturnValues());
  }

  public static io.bellows.protocol.Condition toWire(Condition c) {
    io.bellows.protocol.Condition.Builder b = io.bellows.protocol.Condition.newBuilder()
        .setMinTimestamp(c.minTimestamp());
    if (c.maxTimestamp() != Long.MAX_VALUE) {
      b.setMaxTimestamp(c.maxTimestamp());
    }
    if (c.isFilter()) {
      return b.setFilter(WireFilters.toWire(c.filter())).build();
    }
    return b.setFamily(Wire.bytes(c.family())).setQualifier(Wire.bytes(c.qualifier()))
        .setOp(WireFilters.toWire(c.operator())).setExpected(Wire.bytes(c.expected())).build();
  }

  public static Condition fromWire(io.bellows.protocol.Condition c) {
    Condition out = c.hasFilter() ? Condition.ifRowPasses(WireFilters.fromWire(c.getFilter()))
        : Condition.column(c.getFamily().toByteArray(), c.getQualifier().toByteArray(), WireFilters.fromWire(c.getOp()),
            c.getExpected().toByteArray());
    long max = c.hasMaxTimestamp() ? c.getMaxTimestamp() : Long.MAX_VALUE;
    return c.getMinTimestamp() == 0 && max == Long.MAX_VALUE ? out : out.timeRange(c.getMinTimestamp(), max);
  }

  public static io.bellows.protocol.ColumnUpdate toWire(ColumnUpdate u) {
    io.bellows.protocol.ColumnUpdate.Builder b = io.bellows.protocol.ColumnUpdate.newBuilder()
        .setFamily(Wire.bytes(u.family())).setQualifier(Wire.bytes(u.qualifier())).setMinTimestamp(u.minTimestamp());
    if (u.maxTimestamp() != Long.MAX_VALUE) {
      b.setMaxTimestamp(u.maxTimestamp());
    }
    return switch (u.kind()) {
      case INCREMENT -> b.setIncrement(u.amount()).build();
      case APPEND -> b.setAppend(ByteString.copyFrom(u.operand())).build();
    };
  }

  public static ColumnUpdate fromWire(io.bellows.protocol.ColumnUpdate u) {
    byte[] family = u.getFamily().toByteArray();
    byte[] qualifier = u.getQualifier().toByteArray();
    ColumnUpdate out = switch (u.getKindCase()) {
      case INCREMENT -> ColumnUpdate.increment(family, qualifier, u.getIncrement());
      case APPEND -> ColumnUpdate.append(family, qualifier, u.getAppend().toByteArray());
      default -> throw new IllegalArgumentException("a column update of no known kind");
    };
    long max = u.hasMaxTimestamp() ? u.getMaxTimestamp() : Long.MAX_VALUE;
    return u.getMinTimestamp() == 0 && max == Long.MAX_VALUE ? out : out.timeRange(u.getMinTimestamp(), max);
  }

  public static MutateRowResponse toWire(Outcome o) {
    MutateRowResponse.Builder b = MutateRowResponse.newBuilder().setApplied(o.applied());
    if (!o.values().isEmpty()) {
      b.setValues(Wire.toWireRow(o.values()));
    }
    return b.build();
  }

  public static Outcome fromWire(MutateRowResponse r) {
    return new Outcome(r.getApplied(), r.hasValues() ? Wire.fromWire(r.getValues()) : List.of());
  }
}
