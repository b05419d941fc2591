package io.bellows.client;

import io.bellows.util.StorageException;

/** The named table does not exist. */
public class TableNotFoundException extends StorageException {
  public TableNotFoundException(String message) {
    super(message);
  }
}
