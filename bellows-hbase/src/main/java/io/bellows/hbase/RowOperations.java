package io.bellows.hbase;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.filter.CompareOperator;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.io.TimeRange;

/**
 * HBase's atomic row operations as the engine's {@link RowOperation}: the conditions of {@code
 * checkAndMutate} (any {@code CompareOperator}, a time range, a filter) as a {@link Condition},
 * {@code Increment} and {@code Append} as {@link ColumnUpdate}s of one operation, and {@code
 * RowMutations} (puts, deletes, increments and appends of one row) as one operation.
 */
final class RowOperations {
  private RowOperations() {}

  /** A column condition: HBase's {@code ifMatches(op, value)} means the same in the engine. */
  static Condition condition(byte[] family, byte[] qualifier, org.apache.hadoop.hbase.CompareOperator op, byte[] value,
      TimeRange timeRange) {
    return timeRange(Condition.column(family, qualifier, CompareOperator.valueOf(op.name()), value), timeRange);
  }

  static Condition condition(Filter filter, TimeRange timeRange) {
    return timeRange(Condition.ifRowPasses(Convert.filter(filter)), timeRange);
  }

  static Condition condition(CheckAndMutate cam) {
    return cam.hasFilter() ? condition(cam.getFilter(), cam.getTimeRange())
        : condition(cam.getFamily(), cam.getQualifier(), cam.getCompareOp(), cam.getValue(), cam.getTimeRange());
  }

  private static Condition timeRange(Condition c, TimeRange tr) {
    return tr == null || tr.isAllTime() ? c : c.timeRange(tr.getMin(), tr.getMax());
  }

  /**
   * The action of a checkAndMutate, a batch or {@code mutateRow} as one operation under {@code
   * condition} (null: none): a put, a delete, an increment, an append or a {@code RowMutations}.
   * {@code table} gives a whole-row delete inside a {@code RowMutations} its families.
   */
  static RowOperation operation(Row action, Condition condition, TableDescriptor table) {
    if (action instanceof Put || action instanceof Delete) {
      return RowOperation.conditional(condition, Convert.mutation((Mutation) action));
    }
    if (action instanceof Increment inc) {
      return new RowOperation(RowMutation.of(inc.getRow(), List.of(), Convert.durability(inc.getDurability())), condition,
          updates(inc), inc.isReturnResults());
    }
    if (action instanceof Append app) {
      return new RowOperation(RowMutation.of(app.getRow(), List.of(), Convert.durability(app.getDurability())), condition,
          updates(app), app.isReturnResults());
    }
    if (action instanceof RowMutations rm) {
      return operation(rm, condition, table);
    }
    throw new UnsupportedOperationException(action.getClass().getSimpleName()
        + " as an atomic row operation is not supported by Bellows");
  }

  /** Every mutation of a RowMutations in one operation; increments and appends return their values. */
  private static RowOperation operation(RowMutations rm, Condition condition, TableDescriptor table) {
    List<io.bellows.cell.Cell> cells = new ArrayList<>();
    List<ColumnUpdate> updates = new ArrayList<>();
    Durability durability = Durability.USE_DEFAULT;
    for (Mutation m : rm.getMutations()) {
      if (m instanceof Increment inc) {
        updates.addAll(updates(inc));
      } else if (m instanceof Append app) {
        updates.addAll(updates(app));
      } else if (m instanceof Delete d && d.getFamilyCellMap().isEmpty()) {
        for (ColumnFamilyDescriptor f : table.families()) { // the whole row: every family
          cells.add(Cells.create(d.getRow(), f.nameBytes(), new byte[0], d.getTimestamp(), CellType.DELETE_FAMILY,
              new byte[0]));
        }
      } else if (m instanceof Put || m instanceof Delete) {
        cells.addAll(Convert.mutation(m).cells());
      } else {
        throw new UnsupportedOperationException(m.getClass().getSimpleName() + " inside RowMutations is not supported by Bellows");
      }
      durability = Durability.stronger(durability, Convert.durability(m.getDurability()));
    }
    return new RowOperation(RowMutation.of(rm.getRow(), cells, durability), condition, updates, !updates.isEmpty());
  }

  static List<ColumnUpdate> updates(Increment inc) {
    List<ColumnUpdate> out = new ArrayList<>();
    for (List<Cell> cs : inc.getFamilyCellMap().values()) {
      for (Cell c : cs) {
        if (c.getValueLength() != 8) {
          throw new IllegalArgumentException("an increment amount is 8 bytes, not " + c.getValueLength());
        }
        out.add(timeRange(ColumnUpdate.increment(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c),
            org.apache.hadoop.hbase.util.Bytes.toLong(CellUtil.cloneValue(c))), inc.getTimeRange()));
      }
    }
    return out;
  }

  static List<ColumnUpdate> updates(Append app) {
    List<ColumnUpdate> out = new ArrayList<>();
    for (List<Cell> cs : app.getFamilyCellMap().values()) {
      for (Cell c : cs) {
        out.add(timeRange(ColumnUpdate.append(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), CellUtil.cloneValue(c)),
            app.getTimeRange()));
      }
    }
    return out;
  }

  private static ColumnUpdate timeRange(ColumnUpdate u, TimeRange tr) {
    return tr == null || tr.isAllTime() ? u : u.timeRange(tr.getMin(), tr.getMax());
  }
}
