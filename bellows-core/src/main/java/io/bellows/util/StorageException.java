package io.bellows.util;

/**
 * Base of Bellows' exceptions. Unchecked: an I/O failure surfaces as one of these with the {@link
 * java.io.IOException} as its cause.
 */
public class StorageException extends RuntimeException {
  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
