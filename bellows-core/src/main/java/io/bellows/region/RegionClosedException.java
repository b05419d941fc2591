package io.bellows.region;

import io.bellows.util.StorageException;

/** The region was closed (its table dropped, the engine closed, or the region split). */
public class RegionClosedException extends StorageException {
  private final int rowsApplied;

  public RegionClosedException(String message) {
    this(message, 0);
  }

  /** The region closed during a batch, after its first {@code rowsApplied} rows were applied. */
  public RegionClosedException(String message, int rowsApplied) {
    super(message);
    this.rowsApplied = rowsApplied;
  }

  /** How many rows of a batch, from its start, were applied before the region closed (0: none). */
  public int rowsApplied() {
    return rowsApplied;
  }
}
