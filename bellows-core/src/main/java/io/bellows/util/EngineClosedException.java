package io.bellows.util;

/** The engine was closed; nothing more can be done with it or its tables. */
public class EngineClosedException extends StorageException {
  public EngineClosedException(String message) {
    super(message);
  }
}
