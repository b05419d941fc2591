package io.bellows.region;

import io.bellows.util.StorageException;

/** A mutation or read named a family the region does not have. */
public class NoSuchFamilyException extends StorageException {
  public NoSuchFamilyException(String message) {
    super(message);
  }
}
