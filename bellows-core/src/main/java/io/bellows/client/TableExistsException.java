package io.bellows.client;

import io.bellows.util.StorageException;

/** A table of that name exists already. */
public class TableExistsException extends StorageException {
  public TableExistsException(String message) {
    super(message);
  }
}
