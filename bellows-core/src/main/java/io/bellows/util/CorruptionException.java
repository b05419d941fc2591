package io.bellows.util;

/** Stored data failed a check (checksum, magic, length, order): names the file and offset. */
public class CorruptionException extends StorageException {
  public CorruptionException(String message) {
    super(message);
  }

  public CorruptionException(String message, Throwable cause) {
    super(message, cause);
  }
}
