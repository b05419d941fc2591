package io.bellows.compaction;

/**
 * What the compaction policy knows of one sorted file of a store: its id (the file number) and its
 * size in bytes. Immutable.
 */
public record CompactionCandidate(long id, long sizeBytes) {
  public CompactionCandidate {
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("negative file size " + sizeBytes + " of file " + id);
    }
  }
}
