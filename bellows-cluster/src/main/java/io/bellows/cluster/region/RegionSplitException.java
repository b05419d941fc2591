package io.bellows.cluster.region;

import io.bellows.util.StorageException;

/**
 * A write reached the log of a region after the region's split: no replica applied it, and its rows
 * now belong to one of the daughters, which the catalog names (the caller asks again there).
 */
public final class RegionSplitException extends StorageException {
  public RegionSplitException(String message) {
    super(message);
  }
}
