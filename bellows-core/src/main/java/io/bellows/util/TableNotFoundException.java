package io.bellows.util;

/** The named table does not exist. */
public class TableNotFoundException extends StorageException {
  public TableNotFoundException(String message) {
    super(message);
  }
}
