package io.bellows.engine;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.config.Durability;
import java.util.List;

/**
 * One row's atomic read-modify-write ({@link Engine#mutateRow}): if {@code condition} holds (null:
 * no condition), the {@code mutation}'s cells (or whole-row delete) and the new values of {@code
 * updates} (increments and appends of columns the mutation does not touch) are written together,
 * under one row lock, in one WAL record, with the mutation's durability. {@code returnValues}
 * asks for the cells the updates wrote (HBase's {@code Increment.setReturnResults}).
 */
public record RowOperation(RowMutation mutation, Condition condition, List<ColumnUpdate> updates, boolean returnValues) {
  public RowOperation {
    if (mutation == null || mutation.row() == null || mutation.row().length == 0) {
      throw new IllegalArgumentException("row key must not be null or empty");
    }
    updates = List.copyOf(updates);
  }

  /** Applies {@code mutation} if {@code condition} holds. */
  public static RowOperation conditional(Condition condition, RowMutation mutation) {
    return new RowOperation(mutation, condition, List.of(), false);
  }

  /** Applies the updates of one row, unconditionally. */
  public static RowOperation updates(byte[] row, List<ColumnUpdate> updates, Durability durability, boolean returnValues) {
    return new RowOperation(RowMutation.of(row, List.of(), durability), null, updates, returnValues);
  }

  public byte[] row() {
    return mutation.row();
  }
}
