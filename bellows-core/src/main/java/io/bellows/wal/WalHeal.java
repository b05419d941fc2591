package io.bellows.wal;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O of a heal (docs/design/wal.md, "Failure: fence, rewrite, heal"): <em>fences</em> the file
 * whose write or force failed — never written again, left as it is, its forced part ending at its
 * fenced length — and rewrites every record after that point (the unforced copies, then the pending
 * buffer) to a new file whose header names the fenced length, forced there. Installing the new file
 * as the log's current one is the log's part.
 *
 * <p>Not thread-safe: called with the log's {@code ioLock} and {@code appendLock} held.
 */
final class WalHeal {
  private static final Logger LOG = LoggerFactory.getLogger(Wal.class); // the log's messages, under its name

  private final WalFileCreator creator;
  private final AtomicLong filesFenced = new AtomicLong();

  WalHeal(WalFileCreator creator) {
    this.creator = creator;
  }

  /**
   * Where the failed file's last forced record ends, given the log's forced txid: what follows may
   * be torn, garbage or lost (after a failed fsync the kernel may drop the pages). -1 without a file.
   */
  static long fencedLength(WalFile failed, long forcedTxid) {
    return failed == null ? -1 : WalFormat.HEADER_SIZE + (forcedTxid - failed.baseTxid);
  }

  /**
   * Fences {@code failed} (the current file, or null if there is none) and writes {@code unforced}
   * then {@code pending} (every record after the forced txid, in order) to a new file, forced. The
   * new file's txids start at {@code forcedTxid}; its highest sequence id is the failed file's,
   * which covers every rewritten edit. Neither buffer is changed. On failure the new file is
   * discarded; the failed one stays as it is, for a restart to read.
   *
   * <p>The I/O runs on a thread of its own, which no caller knows and so none can interrupt: an
   * interrupt closes a file's channel, and a caller interrupted again and again (as a heal after an
   * interrupt invites) could otherwise fail the heal, and with it the log, for every writer. The
   * caller waits for it; an interrupt meanwhile is kept for the caller.
   */
  WalFileCreator.Created rewrite(WalFile failed, long forcedTxid, UnforcedCopies unforced, PendingBuffer pending,
      IOException cause) throws IOException {
    Object[] outcome = new Object[1]; // the new file or what was thrown; read after join
    Thread io = new Thread(() -> {
      try {
        outcome[0] = rewriteHere(failed, forcedTxid, unforced, pending, cause);
      } catch (Throwable e) {
        outcome[0] = e;
      }
    }, "bellows-wal-heal");
    io.setDaemon(true);
    io.start();
    boolean interrupted = false;
    for (;;) {
      try {
        io.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the caller's, given back below; the heal goes on
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    Object o = outcome[0];
    if (o instanceof WalFileCreator.Created created) {
      return created;
    }
    if (o instanceof IOException e) {
      throw e;
    }
    if (o instanceof RuntimeException e) {
      throw e;
    }
    throw (Error) o;
  }

  private WalFileCreator.Created rewriteHere(WalFile failed, long forcedTxid, UnforcedCopies unforced,
      PendingBuffer pending, IOException cause) throws IOException {
    long fencedLength = fencedLength(failed, forcedTxid);
    if (failed != null && !failed.fenced) {
      LOG.warn("WAL file {} failed ({}); fencing it at its last forced byte {} and rewriting the {} bytes after it"
          + " to a new file", failed.path, cause.toString(), fencedLength, unforced.size() + pending.size());
      failed.fenced = true;
      filesFenced.incrementAndGet();
    }
    WalFileCreator.Created created = creator.create(fencedLength);
    try {
      unforced.writeTo(created.channel());
      if (pending.size() > 0) {
        created.channel().append(pending.contents());
      }
      created.channel().syncData();
    } catch (IOException e) {
      creator.discard(created.channel(), created.file().path, e);
      throw e;
    }
    WalFile f = created.file();
    f.baseTxid = forcedTxid;
    if (failed != null) { // the rewritten edits are the failed file's
      f.maxSeqId = failed.maxSeqId;
      f.regionMaxSeqIds.putAll(failed.regionMaxSeqIds);
    } else {
      f.maxSeqId = Long.MIN_VALUE;
    }
    return created;
  }

  /** Files that failed a write or force and were fenced. */
  long filesFenced() {
    return filesFenced.get();
  }
}
