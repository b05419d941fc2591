package io.bellows.client;

import io.bellows.util.StorageException;

/** The table is disabled (as in HBase: disable before drop); enable it to use it. */
public class TableNotEnabledException extends StorageException {
  public TableNotEnabledException(String message) {
    super(message);
  }
}
