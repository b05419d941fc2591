package io.bellows.wal;

import java.nio.file.Path;

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
  /** Whether the file failed: it is never written again, and the next file's header says where its forced part ends. */
  boolean fenced;

  WalFile(long number, Path path) {
    this.number = number;
    this.path = path;
  }
}
