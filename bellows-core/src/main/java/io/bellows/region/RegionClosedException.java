package io.bellows.region;

import io.bellows.util.StorageException;

/** The region was closed (its table dropped or the engine closed). */
public class RegionClosedException extends StorageException {
  public RegionClosedException(String message) {
    super(message);
  }
}
