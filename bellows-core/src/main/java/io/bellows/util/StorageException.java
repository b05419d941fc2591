package io.bellows.util;

/**
 * Base of Bellows' exceptions. Unchecked: an I/O failure surfaces as one of these with the {@link
 * java.io.IOException} as its cause.
 */
public class StorageException extends RuntimeException {
  /**
   * Why an I/O operation failed, in words for a user and without Java class names: "no such file",
   * "permission denied", or the operating system's reason.
   */
  public static String reason(java.io.IOException e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    return e.getMessage() != null ? e.getMessage() : "I/O error";
  }

  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
