package io.bellows.util;

/** A table of that name exists already. */
public class TableExistsException extends StorageException {
  public TableExistsException(String message) {
    super(message);
  }
}
