package io.bellows.util;

/** A mutation or read named a family the table does not have. */
public class NoSuchColumnFamilyException extends StorageException {
  public NoSuchColumnFamilyException(String message) {
    super(message);
  }
}
