package io.bellows.client;

import io.bellows.util.StorageException;

/** A mutation or read named a family the table does not have. */
public class NoSuchColumnFamilyException extends StorageException {
  public NoSuchColumnFamilyException(String message) {
    super(message);
  }
}
