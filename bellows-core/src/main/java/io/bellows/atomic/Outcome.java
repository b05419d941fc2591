package io.bellows.atomic;

import io.bellows.cell.Cell;
import java.util.List;

/**
 * What an atomic row operation did: whether it was applied (its condition held, or it had none)
 * and, when the caller asked for them, the new cells its column updates wrote, in cell order (their
 * timestamps as written). Empty {@code values} when nothing was applied or nothing was asked.
 */
public record Outcome(boolean applied, List<Cell> values) {
  public static final Outcome NOT_APPLIED = new Outcome(false, List.of());

  public Outcome {
    values = List.copyOf(values);
  }
}
