package io.bellows.wal;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** One file of the log and what is known about its edits. Fields guarded by the log's {@code appendLock}. */
final class WalFile {
  final long number;
  final Path path;
  /** Highest sequence id in the file; {@link Long#MIN_VALUE} when it holds no edit. */
  long maxSeqId = Long.MIN_VALUE;
  /** Whether {@link #maxSeqId} is known: always for files of this run, after reading for older ones. */
  boolean seqKnown;
  /** For files of this run: the log's txid just before the file's first record (its bytes start there). */
  long baseTxid;
  /**
   * Whether the file failed: it is never written again, and the next file's header says where its
   * forced part ends (for a file found at open: the next file's header names a fence). The two are
   * deleted together.
   */
  boolean fenced;
  /**
   * Per region, the highest sequence id of its edits in the file: the file may go once every region
   * in it has flushed past its own entry, whatever other regions' ids are (so retention does not
   * depend on sequence ids being comparable across regions).
   */
  final Map<Integer, Long> regionMaxSeqIds = new HashMap<>();

  WalFile(long number, Path path) {
    this.number = number;
    this.path = path;
  }

  void noteEdit(int regionId, long seqId) {
    if (seqId > maxSeqId) {
      maxSeqId = seqId;
    }
    regionMaxSeqIds.merge(regionId, seqId, Math::max);
  }

  /** Whether some region still needs an edit of this file (always, while its contents are not known). */
  boolean needed(OldestNeeded oldestNeeded) {
    if (!seqKnown) {
      return true;
    }
    for (Map.Entry<Integer, Long> e : regionMaxSeqIds.entrySet()) {
      if (e.getValue() >= oldestNeeded.of(e.getKey())) {
        return true;
      }
    }
    return false;
  }
}
