package io.bellows.wal;

import io.bellows.fs.FileSystem;
import io.bellows.record.WriteRecord;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the files a log found at open ("pre-existing" files) once, in order, applying the torn tail
 * rule to the last one, and records each file's highest sequence id in the log's file table; or,
 * if the log is written before it is replayed, repairs the last file's tail alone.
 *
 * <p>Holds the log's {@code recoveryLock}, first in the log's lock order: replay and the tail repair
 * take it, then {@code appendLock} briefly to record what they learnt.
 */
final class WalReplay {
  private static final Logger LOG = LoggerFactory.getLogger(Wal.class); // the log's messages, under its name

  private final FileSystem fs;
  private final Path dir;
  private final List<WalFile> preexisting;
  private final ReentrantLock appendLock;
  private final WalFiles files;
  private final ReentrantLock recoveryLock = new ReentrantLock();
  private boolean replayed; // guarded by recoveryLock
  private volatile boolean tailRepaired;

  WalReplay(FileSystem fs, Path dir, List<WalFile> preexisting, ReentrantLock appendLock, WalFiles files) {
    this.fs = fs;
    this.dir = dir;
    this.preexisting = List.copyOf(preexisting);
    this.appendLock = appendLock;
    this.files = files;
  }

  /** See {@link Wal#replay}. */
  void replay(Consumer<WriteRecord> sink) {
    Objects.requireNonNull(sink, "sink");
    recoveryLock.lock();
    try {
      if (replayed) {
        throw new IllegalStateException("the WAL in " + dir + " was already replayed");
      }
      replayed = true;
      for (int i = 0; i < preexisting.size(); i++) {
        WalFile f = preexisting.get(i);
        boolean last = i == preexisting.size() - 1;
        // A file that failed was fenced: the next file's header says where its forced part ends, and
        // holds what came after, rewritten. Its records from there on are not read (they would be
        // read twice), and damage from there on is no damage.
        long fencedAt = last ? -1 : WalFileReader.fencedLength(fs, preexisting.get(i + 1).path);
        java.util.Map<Integer, Long> regions = new java.util.HashMap<>();
        WalFileReader.Outcome o = readFile(f, (off, len, edit) -> {
          regions.merge(edit.regionId(), edit.seqId(), Math::max);
          if (fencedAt < 0 || off < fencedAt) {
            sink.accept(edit);
          }
        });
        settle(f, o, last, fencedAt, regions);
        if (fencedAt >= 0) {
          appendLock.lock();
          try {
            f.fenced = true; // it and the next file are deleted together (WalFiles#removeObsolete)
          } finally {
            appendLock.unlock();
          }
        }
      }
      tailRepaired = true;
    } finally {
      recoveryLock.unlock();
    }
  }

  /**
   * Applies the torn tail rule to the last pre-existing file if replay has not: before a new file
   * is created, so that a torn record never ends up in a file that is no longer the last.
   */
  void repairTailIfNeeded() {
    if (tailRepaired) {
      return;
    }
    recoveryLock.lock();
    try {
      if (!tailRepaired && !preexisting.isEmpty()) {
        WalFile last = preexisting.get(preexisting.size() - 1);
        java.util.Map<Integer, Long> regions = new java.util.HashMap<>();
        settle(last, readFile(last, (off, len, edit) -> regions.merge(edit.regionId(), edit.seqId(), Math::max)),
            true, -1, regions);
      }
      tailRepaired = true;
    } finally {
      recoveryLock.unlock();
    }
  }

  private WalFileReader.Outcome readFile(WalFile f, WalFileReader.RecordVisitor visitor) {
    try {
      return WalFileReader.read(fs, f.path, f.number, visitor);
    } catch (IOException e) {
      throw new StorageException("cannot read WAL file " + f.path, e);
    }
  }

  /**
   * Throws on corruption, cuts a torn tail, and records what the file holds ({@code regions}: each
   * region's highest sequence id in it). A bad spot at or after {@code fencedAt} (&gt;= 0: the file
   * was fenced there) is no damage. recoveryLock held.
   */
  private void settle(WalFile f, WalFileReader.Outcome o, boolean last, long fencedAt,
      java.util.Map<Integer, Long> regions) {
    WalFileReader.Problem p = o.problem();
    if (p != null && fencedAt >= 0 && p.offset() >= fencedAt && p.kind() != WalFileReader.Kind.UNSUPPORTED) {
      LOG.info("WAL file {} was fenced at byte offset {} after a failure; what follows there ({}) was rewritten to"
          + " the next file", f.path, fencedAt, p.reason());
      p = null;
    }
    if (p != null) {
      if (p.kind() == WalFileReader.Kind.UNSUPPORTED) {
        throw new StorageException("WAL file " + f.path + " cannot be read: " + p.reason() + ". Open the data"
            + " directory once with the Bellows build that wrote it and close it cleanly (which flushes every"
            + " edit); the file can then be removed");
      }
      if (!last || !p.tornTailCandidate()) {
        throw new CorruptionException(corruptionMessage(f.path, p));
      }
      try {
        if (p.offset() == 0) {
          LOG.warn("Deleting WAL file {} with a torn header: {}", f.path, p.reason());
          fs.delete(f.path);
          appendLock.lock();
          try {
            files.remove(f);
          } finally {
            appendLock.unlock();
          }
          return;
        }
        LOG.warn("Cutting torn tail of WAL file {} at byte offset {} ({} bytes dropped): {}",
            f.path, p.offset(), o.fileSize() - p.offset(), p.reason());
        fs.truncate(f.path, p.offset());
      } catch (IOException e) {
        throw new StorageException("cannot cut the torn tail of WAL file " + f.path, e);
      }
    } else if (last) {
      // The last file may hold records the previous run wrote but never forced (it was killed, or
      // its force failed): they are about to become visible, so they must be durable first. The cut
      // at the file's own length changes nothing but forces it.
      try {
        fs.truncate(f.path, o.fileSize());
      } catch (IOException e) {
        throw new StorageException("cannot force WAL file " + f.path + " before replaying it", e);
      }
    }
    appendLock.lock();
    try {
      f.maxSeqId = o.maxSeqId();
      f.regionMaxSeqIds.putAll(regions);
      f.seqKnown = true;
    } finally {
      appendLock.unlock();
    }
  }

  /**
   * Says where the damage is and how to proceed: look at it with {@code bellows wal-dump}, and if
   * the loss is acceptable cut the file there with {@code wal-dump --truncate} (docs/design/wal.md).
   */
  static String corruptionMessage(Path file, WalFileReader.Problem p) {
    String next = p.resumeAt() >= 0 ? "; a valid record follows at byte offset " + p.resumeAt() : "";
    return "WAL file " + file + " is corrupt at byte offset " + p.offset() + ": " + p.reason() + next
        + ". Run 'bellows wal-dump " + file + "' to see the damage; to accept losing the records from that offset"
        + " on in this file, stop the engine and run 'bellows wal-dump --truncate " + file + "'";
  }
}
