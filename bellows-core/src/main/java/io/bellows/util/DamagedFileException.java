package io.bellows.util;

import java.nio.file.Path;

/**
 * A sorted file of a store found damaged by background work (a compaction reading it): names the
 * file, the offset of the damaged block (-1 when the damage is in the file's trailer, metadata or
 * index, which the message then names) and the store. The engine's corruption policy turns it into
 * a {@link BackgroundError.Kind#CORRUPTION} error, never a retry.
 */
public class DamagedFileException extends CorruptionException {
  private final transient Path file;
  private final long offset;
  private final String table;
  private final String family;

  public DamagedFileException(String message, Path file, long offset, String table, String family,
      Throwable cause) {
    super(message, cause);
    this.file = file;
    this.offset = offset;
    this.table = table;
    this.family = family;
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** The offset of the damaged block, or -1 when not a data block (the message says where). */
  public long offset() {
    return offset;
  }

  public String table() {
    return table;
  }

  public String family() {
    return family;
  }
}
