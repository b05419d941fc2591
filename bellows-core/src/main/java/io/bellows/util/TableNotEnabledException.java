package io.bellows.util;

/** The table is disabled (as in HBase: disable before drop); enable it to use it. */
public class TableNotEnabledException extends StorageException {
  public TableNotEnabledException(String message) {
    super(message);
  }
}
