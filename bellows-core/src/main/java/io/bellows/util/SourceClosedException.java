package io.bellows.util;

/**
 * A memory store or store was closed while a read was opening its scanners (a split, a disable or
 * the engine's close got there first). The region turns it into its own closed exception, so the
 * engine re-routes the read to the daughters of a split or fails it as the API says.
 */
public class SourceClosedException extends StorageException {
  public SourceClosedException(String message) {
    super(message);
  }
}
