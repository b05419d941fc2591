package io.bellows.engine;

import io.bellows.cell.Cell;
import io.bellows.config.Durability;
import java.util.List;

/**
 * The changes to one row that are applied atomically: cells to add (puts and delete markers) or,
 * when {@code wholeRowDeleteTs} &gt;= 0, the deletion of every family of the row up to that
 * timestamp (and {@code cells} is then empty). A timestamp of {@link Long#MAX_VALUE} means "now".
 */
public record RowMutation(byte[] row, List<Cell> cells, long wholeRowDeleteTs, Durability durability) {
  public static RowMutation of(byte[] row, List<Cell> cells, Durability durability) {
    return new RowMutation(row, cells, -1, durability);
  }
}
