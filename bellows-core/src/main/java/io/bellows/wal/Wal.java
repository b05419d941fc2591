package io.bellows.wal;

import io.bellows.config.Durability;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.fs.WritableFile;
import io.bellows.record.WriteRecord;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's single write-ahead log, shared by all regions: a directory of numbered files, each
 * a header followed by checksummed records of {@link WriteRecord}s.
 *
 * <p><b>Life cycle.</b> {@link #open} lists the files already in the directory ("pre-existing"
 * files). {@link #replay} reads them once, repairing a torn tail of the last one. The first {@link
 * #append} creates a new file numbered after every pre-existing one; appends go to it until it
 * reaches the roll size, then to the next. {@link #close} writes and forces everything.
 *
 * <p><b>Transaction ids.</b> {@link #append} returns the log's running count of record bytes
 * appended since open, taken just after the edit: the edit is durable once everything up to that
 * count is. {@link #sync} waits until the written (or forced) count has reached it.
 *
 * <p><b>Threads and locks.</b> Thread-safe. Three locks, always taken in this order:
 * <ol>
 *   <li>{@code recoveryLock}: replay and the torn-tail repair of the last pre-existing file;
 *   <li>{@code ioLock}: whoever writes to or forces the current file, creates or rolls files. A
 *       syncing thread takes every record appended so far (group commit); threads queued behind
 *       it find their txid covered and return without I/O;
 *   <li>{@code appendLock}: the pending buffer, the running counts, the file table, {@code closed}.
 *       Held only briefly (never across I/O, except while rolling to a new file).
 * </ol>
 * A background {@link PeriodicSyncer} thread writes and forces every {@code asyncSyncPeriodMs}.
 *
 * <p><b>Invariants.</b> {@code forcedTxid <= writtenTxid <= appendedTxid}; records reach the file
 * in the order they entered the pending buffer, which for one thread is call order; a file other
 * than the current one is complete, forced and closed; once an I/O error occurred the log refuses
 * further appends and syncs (the engine must reopen and replay).
 */
public final class Wal implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Wal.class);
  /** The format version of the log files this build writes (it reads this one and version 2). */
  public static final int FORMAT_VERSION = WalFormat.VERSION;
  /**
   * An append that leaves this much unwritten data writes it out, bounding the buffer (each of the
   * two pending buffers then stays at most {@link PendingBuffer#KEEP_MAX} and is reused).
   */
  static final int PENDING_WRITE_THRESHOLD = 4 * 1024 * 1024;
  /**
   * Most bytes written but not forced that the log keeps copies of: a write-out that would pass it
   * forces the file instead, so the copies (kept to rewrite them if the file fails) stay bounded
   * when writes outpace the background sync. A sixteenth of the heap, at most 64 MiB: above the
   * bytes a second of heavy SYNC_WAL writing appends (the background sync forces every second by
   * default), so the bound rarely adds a force to the write path.
   */
  static final long UNFORCED_MAX = Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16);
  /** After a failed roll, how many more bytes (at most the roll size) the current file takes before the next attempt. */
  static final long ROLL_RETRY_BYTES = 1024 * 1024;

  /** One file of the log and what is known about its edits. Fields guarded by {@code appendLock}. */
  private static final class WalFile {
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

  private final FileSystem fs;
  private final Path dir;
  private final WalOptions options;
  private final List<WalFile> preexisting;

  private final ReentrantLock recoveryLock = new ReentrantLock();
  private final ReentrantLock ioLock = new ReentrantLock();
  private final Condition forcedAdvanced = ioLock.newCondition();
  private final ReentrantLock appendLock = new ReentrantLock();

  // ---- guarded by recoveryLock
  private boolean replayed;
  private volatile boolean tailRepaired;

  // ---- guarded by appendLock (current and channel change only with ioLock held too)
  private final TreeMap<Long, WalFile> files = new TreeMap<>();
  private long nextFileNumber;
  private WalFile current;
  private WritableFile channel;
  private long currentSize;
  /** The size at which the current file rolls: the roll size, or later after a failed roll (see there). */
  private long rollAt;
  private PendingBuffer pending = new PendingBuffer();
  private boolean closed;
  private volatile long appendedTxid;

  // ---- guarded by ioLock
  private PendingBuffer spare = new PendingBuffer();
  /**
   * Copies of the records written to the current file but not yet forced (txids forcedTxid to
   * writtenTxid, in order): what a failed file loses, rewritten to the next one (see {@link #heal}).
   */
  private final UnforcedCopies unforced = new UnforcedCopies();
  /** A file this log created that a failed step left behind and could not delete: nothing may follow it. */
  private Path leftover;
  private volatile long writtenTxid;
  private volatile long forcedTxid;

  private volatile Throwable failure;
  private final PeriodicSyncer syncer;

  private final LongAdder bytesAppended = new LongAdder();
  private final LongAdder recordsAppended = new LongAdder();
  private final AtomicLong syncs = new AtomicLong();
  private final AtomicLong forces = new AtomicLong();
  private final AtomicLong filesRolled = new AtomicLong();
  private final AtomicLong filesFenced = new AtomicLong();
  private final AtomicLong filesDeleted = new AtomicLong();

  private Wal(FileSystem fs, Path dir, WalOptions options, List<WalFile> preexisting) {
    this.fs = fs;
    this.dir = dir;
    this.options = options;
    this.preexisting = List.copyOf(preexisting);
    for (WalFile f : preexisting) {
      files.put(f.number, f);
    }
    this.nextFileNumber = preexisting.isEmpty() ? 1 : preexisting.get(preexisting.size() - 1).number + 1;
    this.syncer = new PeriodicSyncer("bellows-wal-sync", options.asyncSyncPeriodMs(), this::backgroundSync);
  }

  /**
   * Opens the log in {@code dir} (created if missing) and starts its background sync thread. Files
   * whose names are not WAL file names are ignored. No file is written until the first append.
   */
  public static Wal open(Path dir, WalOptions options) {
    return open(LocalFileSystem.INSTANCE, dir, options);
  }

  /** Opens the log in {@code dir} of {@code fs}: see {@link #open(Path, WalOptions)}. */
  public static Wal open(FileSystem fs, Path dir, WalOptions options) {
    Objects.requireNonNull(options, "options");
    List<WalFile> found = new ArrayList<>();
    try {
      AtomicFiles.createDirectories(fs, dir);
      for (Path p : fs.list(dir)) {
        long n = WalFormat.parseFileNumber(p);
        if (n >= 0 && fs.isFile(p)) {
          found.add(new WalFile(n, p));
        }
      }
    } catch (IOException e) {
      throw new StorageException("cannot open WAL directory " + dir, e);
    }
    found.sort((a, b) -> Long.compare(a.number, b.number));
    Wal wal = new Wal(fs, dir, options, found);
    wal.syncer.start();
    return wal;
  }

  // ------------------------------------------------------------------ recovery

  /**
   * Reads every pre-existing file in order and hands each edit to {@code sink}. May be called once,
   * and should be called before appends are relied on. Edits of one file arrive in file order; the
   * cells are stamped with the edit's sequence id.
   *
   * <p><b>Torn tail rule.</b> A bad spot (a checksum that fails, a header that is incomplete, a
   * record that runs past the end of the file) is an interrupted append, and the file is cut at its
   * start (all earlier records are kept), only when it is in the <em>last</em> pre-existing file and
   * no valid record (header and payload checksums matching) follows it anywhere in the file: then no
   * intact record can be lost by the cut. A last file whose own header is incomplete or zero is
   * deleted on the same condition. Anything else throws {@link CorruptionException} naming the file
   * and the byte offset (the edits before it have already been handed to the sink; nothing is
   * modified): records that pass their checksums but are malformed, a bad spot followed by valid
   * records, and any bad spot in an older file. A file of another format version throws {@link
   * StorageException}.
   *
   * @throws IllegalStateException if called a second time
   */
  public void replay(Consumer<WriteRecord> sink) {
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
        WalFileReader.Outcome o = readFile(f, (off, len, edit) -> {
          if (fencedAt < 0 || off < fencedAt) {
            sink.accept(edit);
          }
        });
        settle(f, o, last, fencedAt);
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
  private void repairTailIfNeeded() {
    if (tailRepaired) {
      return;
    }
    recoveryLock.lock();
    try {
      if (!tailRepaired && !preexisting.isEmpty()) {
        WalFile last = preexisting.get(preexisting.size() - 1);
        settle(last, readFile(last, (off, len, edit) -> { }), true, -1);
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
   * Throws on corruption, cuts a torn tail, and records what the file holds. A bad spot at or after
   * {@code fencedAt} (&gt;= 0: the file was fenced there) is no damage. recoveryLock held.
   */
  private void settle(WalFile f, WalFileReader.Outcome o, boolean last, long fencedAt) {
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
            files.remove(f.number);
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

  // ------------------------------------------------------------------ writing

  /**
   * Appends an edit to the log's buffer and returns its transaction id for {@link #sync}. Nothing
   * is written to the file yet (except when rolling or when the buffer is large). Appends by one
   * thread reach the file in call order.
   *
   * @throws IllegalStateException if the log is closed
   * @throws StorageException if an earlier write failed or a new file cannot be created
   */
  public long append(WriteRecord edit) {
    byte[] record = WalFormat.encode(Objects.requireNonNull(edit, "edit"));
    long txid;
    boolean writeOut;
    for (;;) {
      appendLock.lock();
      try {
        checkUsable();
        if (current != null && currentSize < rollAt) {
          pending.append(record);
          currentSize += record.length;
          txid = appendedTxid + record.length;
          appendedTxid = txid;
          if (edit.seqId() > current.maxSeqId) {
            current.maxSeqId = edit.seqId();
          }
          writeOut = pending.size() >= PENDING_WRITE_THRESHOLD;
          break;
        }
      } finally {
        appendLock.unlock();
      }
      startNewFile();
    }
    bytesAppended.add(record.length);
    recordsAppended.increment();
    if (writeOut) {
      try {
        syncUpTo(txid, false);
      } catch (StorageException e) {
        // The edit is in the log's buffer: whoever syncs it learns of the failure (and after a
        // recovery of the log it is rewritten with the rest), so this caller gets its txid.
        LOG.debug("writing out the WAL buffer failed; the edit's sync will report it", e);
      }
    }
    return txid;
  }

  /**
   * Makes the edits up to {@code txid} as durable as {@code durability} asks. SKIP_WAL and ASYNC_WAL
   * return at once; SYNC_WAL returns once every byte up to {@code txid} was written to the operating
   * system; FSYNC_WAL once it was also forced to stable storage. Concurrent callers share one write
   * and force.
   *
   * @throws IllegalArgumentException for USE_DEFAULT (the caller resolves it) or a txid never issued
   * @throws StorageException if writing failed
   */
  public void sync(long txid, Durability durability) {
    switch (Objects.requireNonNull(durability, "durability")) {
      case SKIP_WAL:
      case ASYNC_WAL:
        return;
      case SYNC_WAL:
        syncUpTo(txid, false);
        return;
      case FSYNC_WAL:
        syncUpTo(txid, true);
        return;
      default:
        throw new IllegalArgumentException("resolve " + durability + " before syncing the WAL");
    }
  }

  /**
   * Forces every record appended so far. A flush calls it before it writes sorted files: a file
   * makes its edits durable, so every edit logged before them (of any region) must be durable first,
   * or a power loss could keep a later ASYNC_WAL edit and lose an earlier one. Does nothing after a
   * failure of the log (its tail is unknown until a reopen settles it).
   */
  public void forceAppended() {
    if (failure == null) {
      syncUpTo(appendedTxid, true);
    }
  }

  private boolean covered(long txid, boolean force) {
    return (force ? forcedTxid : writtenTxid) >= txid;
  }

  private void syncUpTo(long txid, boolean force) {
    if (covered(txid, force)) {
      return;
    }
    if (txid > appendedTxid) {
      throw new IllegalArgumentException("txid " + txid + " was never issued (appended up to " + appendedTxid + ")");
    }
    ioLock.lock();
    try {
      // Group commit: while we queued, a previous holder may have taken our bytes along.
      if (covered(txid, force)) {
        return;
      }
      Throwable f = failure;
      if (f != null) {
        throw failedEarlier(f);
      }
      // The caller's interrupt is set aside during the I/O: it would close the file's channel (for
      // every writer); it is the caller's, to see after this returns.
      boolean interrupted = Thread.interrupted();
      try {
        writeOut(force);
      } catch (IOException e) {
        heal(e); // everything appended is forced in a new file once this returns
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    } finally {
      ioLock.unlock();
    }
  }

  /**
   * Takes everything appended so far, writes it to the current file and, if asked (or if the
   * unforced copies would grow past {@link #UNFORCED_MAX}), forces the file. ioLock held; appendLock
   * is taken only to swap the buffer (it may already be held, when rolling). Bytes written without a
   * force are copied to {@link #unforced}, and so are the bytes of a write-out that fails, so a failed
   * write or force loses none of them.
   */
  private void writeOut(boolean forceAsked) throws IOException {
    boolean force = forceAsked;
    PendingBuffer toWrite;
    long target;
    WritableFile ch;
    appendLock.lock();
    try {
      toWrite = pending;
      pending = spare;
      target = appendedTxid;
      ch = channel;
    } finally {
      appendLock.unlock();
    }
    spare = null;
    boolean copied = false;
    try {
      boolean io = false;
      force |= unforced.size() + toWrite.size() > UNFORCED_MAX;
      if (toWrite.size() > 0) {
        if (!force) {
          unforced.append(toWrite.contents()); // kept until a later force
          copied = true;
        }
        ch.append(toWrite.contents());
        io = true;
      }
      if (target > writtenTxid) {
        writtenTxid = target;
      }
      if (force && forcedTxid < target) {
        ch.syncData();
        forcedTxid = target;
        unforced.clear();
        forces.incrementAndGet();
        forcedAdvanced.signalAll();
        io = true;
      }
      if (io) {
        syncs.incrementAndGet();
      }
    } catch (IOException e) {
      if (!copied) {
        unforced.append(toWrite.contents()); // the heal rewrites them
      }
      throw e;
    } finally {
      toWrite.reset();
      spare = toWrite;
    }
  }

  /**
   * Recovers from a failed write or force of the current file, ioLock held: the file is
   * <em>fenced</em> (closed, never written again, left as it is), and every record after its last
   * forced byte (the unforced copies and the buffer) is written to a new file and forced there; the
   * new file's header names that byte, so replay stops reading the fenced file there and takes
   * damage after it for what it is, a failed write.
   * When this returns, everything appended so far is durable. If a step fails, the log fails: it
   * refuses appends and syncs until {@link #recover} works.
   *
   * <p>A write that was interrupted heals the same way; the interrupt is set aside while this runs
   * and restored after, and an attempt that another interrupt cuts short is made again (at most
   * {@link #INTERRUPTED_ATTEMPTS} times): an interrupt is the caller's, never the log's failure.
   *
   * @throws StorageException if the log could not be healed
   */
  private void heal(IOException cause) {
    boolean interrupted = Thread.interrupted();
    try {
      appendLock.lock();
      try {
        if (closed && channel == null) {
          throw fail(cause);
        }
        for (int attempt = 1; ; attempt++) {
          try {
            fenceAndRewrite(cause);
            return;
          } catch (IOException e) {
            if (!byInterrupt(e) || attempt == INTERRUPTED_ATTEMPTS) {
              throw e;
            }
            interrupted |= Thread.interrupted();
          }
        }
      } finally {
        appendLock.unlock();
      }
    } catch (IOException e) {
      e.addSuppressed(cause);
      throw fail(e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** How often a new file is tried when its creation fails for another reason than an interrupt. */
  static final int CREATE_ATTEMPTS = 2;

  /** How often a heal or a file creation cut short by an interrupt is tried again. */
  static final int INTERRUPTED_ATTEMPTS = 8;

  /** Whether an I/O failure is an interrupt of the calling thread rather than of the disk. */
  static boolean byInterrupt(IOException e) {
    return e instanceof java.io.InterruptedIOException || e instanceof java.nio.channels.ClosedByInterruptException;
  }

  /** ioLock and appendLock held. */
  private void fenceAndRewrite(IOException cause) throws IOException {
    WalFile failed = current;
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException suppressed) {
        cause.addSuppressed(suppressed);
      }
      channel = null;
    }
    // Where the failed file's last forced record ends: what follows may be torn, garbage or lost
    // (after a failed fsync the kernel may drop the pages), and it is all rewritten to the new file,
    // whose header says so. The failed file itself is left as it is, never written again: should the
    // rewrite fail, it still holds what it held for a restart to read.
    long fencedLength = failed == null ? -1 : WalFormat.HEADER_SIZE + (forcedTxid - failed.baseTxid);
    if (failed != null && !failed.fenced) {
      LOG.warn("WAL file {} failed ({}); fencing it at its last forced byte {} and rewriting the {} bytes after it"
          + " to a new file", failed.path, cause.toString(), fencedLength, unforced.size() + pending.size());
      failed.fenced = true;
      filesFenced.incrementAndGet();
    }
    long base = forcedTxid;
    WritableFile ch = createFile(fencedLength);
    WalFile f = created;
    try {
      unforced.writeTo(ch);
      long target = appendedTxid;
      long size = WalFormat.HEADER_SIZE + unforced.size() + pending.size();
      if (pending.size() > 0) {
        ch.append(pending.contents());
      }
      ch.syncData();
      // Only now is the new file the log's: every record in it is forced.
      f.baseTxid = base;
      f.maxSeqId = failed == null ? Long.MIN_VALUE : failed.maxSeqId; // covers every rewritten edit
      files.put(f.number, f);
      current = f;
      channel = ch;
      currentSize = size;
      rollAt = options.rollSize();
      pending.reset();
      unforced.clear();
      writtenTxid = target;
      forcedTxid = target;
      forces.incrementAndGet();
      forcedAdvanced.signalAll();
    } catch (IOException e) {
      discard(ch, f.path, e);
      throw e;
    }
  }

  /**
   * Creates the next file with its header, forced, and its name made durable; returns its channel
   * and leaves the file's entry in {@link #current}'s place for the caller to install (the caller
   * sets {@code current} back if it does not). ioLock and appendLock held.
   */
  private WritableFile createFile(long fencedLength) throws IOException {
    boolean interrupted = false;
    int failures = 0;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          return createFileOnce(fencedLength);
        } catch (IOException e) {
          // An interrupt is the caller's, kept for it, never the file's failure; another error may
          // be a passing one, so a new file is tried once more before the caller is told.
          if (byInterrupt(e) ? attempt >= INTERRUPTED_ATTEMPTS : ++failures >= CREATE_ATTEMPTS) {
            throw e;
          }
          interrupted |= Thread.interrupted();
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private WritableFile createFileOnce(long fencedLength) throws IOException {
    clearLeftover();
    long number = nextFileNumber++;
    Path path = dir.resolve(WalFormat.fileName(number));
    WritableFile ch = fs.create(path);
    try {
      ch.append(ByteBuffer.wrap(WalFormat.header(number, fencedLength)));
      ch.sync();
      // The new name must be durable before any record in the file is acknowledged: a failed
      // directory sync fails this file, never ignored.
      fs.syncDirectory(dir);
    } catch (IOException e) {
      discard(ch, path, e);
      throw e;
    }
    WalFile f = new WalFile(number, path);
    f.seqKnown = true;
    created = f;
    return ch;
  }

  /** The entry of the file {@link #createFile} made last (appendLock held). */
  private WalFile created;

  /** Closes and deletes a file this log just created and could not finish; remembers it if the delete fails. */
  private void discard(WritableFile ch, Path path, IOException cause) {
    try {
      ch.close();
    } catch (IOException suppressed) {
      cause.addSuppressed(suppressed);
    }
    try {
      fs.delete(path);
    } catch (IOException suppressed) {
      cause.addSuppressed(suppressed);
      leftover = path;
    }
  }

  /** A file left by a failed step must go before another is created after it (replay would meet it). */
  private void clearLeftover() throws IOException {
    if (leftover != null) {
      fs.delete(leftover);
      fs.syncDirectory(dir);
      leftover = null;
    }
  }

  /**
   * Makes a failed log usable again, as {@link #heal} would have: fences the failed file, rewrites
   * every record appended since its last forced byte to a new file and forces it. Called by the
   * engine's {@code resume()}. Returns normally when the log works (at once if it had not failed).
   *
   * @throws StorageException if it fails again
   * @throws IllegalStateException if the log is closed
   */
  public void recover() {
    ioLock.lock();
    try {
      appendLock.lock();
      try {
        if (closed) {
          throw new IllegalStateException("the WAL in " + dir + " is closed");
        }
        Throwable f = failure;
        if (f == null) {
          return;
        }
        boolean interrupted = Thread.interrupted();
        try {
          fenceAndRewrite(f instanceof IOException io ? io : new IOException(f));
          failure = null;
          LOG.info("the WAL in {} works again: its unforced records were rewritten to {}", dir, current.path);
        } catch (IOException e) {
          throw new StorageException("the WAL in " + dir + " still fails", e);
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
      } finally {
        appendLock.unlock();
      }
    } finally {
      ioLock.unlock();
    }
  }

  /**
   * Closes the full current file (after writing and forcing it) and creates the next one. Called by
   * an append that found no room; another thread may have done it meanwhile. If the next file cannot
   * be created (no space, no file descriptor left), appends go on to the current file, which is
   * sound, and the roll is tried again {@link #ROLL_RETRY_BYTES} (or the roll size) later; only when there is no
   * current file does the append fail (and the next one tries again).
   */
  private void startNewFile() {
    repairTailIfNeeded();
    boolean interrupted = Thread.interrupted(); // set aside during the I/O, as in syncUpTo
    ioLock.lock();
    try {
      appendLock.lock();
      try {
        checkUsable();
        if (current != null && currentSize < rollAt) {
          return;
        }
        if (current != null) {
          try {
            writeOut(true);
          } catch (IOException e) {
            heal(e); // the healed log has a new current file: the roll is done
            return;
          }
        }
        long base = appendedTxid;
        WritableFile ch;
        try {
          ch = createFile(-1);
        } catch (IOException e) {
          if (current == null) {
            throw new StorageException("cannot create a WAL file in " + dir, e);
          }
          rollAt = currentSize + Math.min(ROLL_RETRY_BYTES, options.rollSize());
          LOG.warn("cannot start a new WAL file in {}; appending to {} (now {} bytes) and trying again later",
              dir, current.path, currentSize, e);
          return;
        }
        if (channel != null) {
          try {
            channel.close();
          } catch (IOException e) {
            LOG.warn("cannot close WAL file {} (it was forced)", current.path, e);
          }
          filesRolled.incrementAndGet();
        }
        WalFile f = created;
        f.baseTxid = base;
        files.put(f.number, f);
        current = f;
        channel = ch;
        currentSize = WalFormat.HEADER_SIZE;
        rollAt = options.rollSize();
      } finally {
        appendLock.unlock();
      }
    } finally {
      ioLock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }


  /** appendLock held. */
  private void checkUsable() {
    if (closed) {
      throw new IllegalStateException("the WAL in " + dir + " is closed");
    }
    Throwable f = failure;
    if (f != null) {
      throw failedEarlier(f);
    }
  }

  private StorageException failedEarlier(Throwable f) {
    return new StorageException("the WAL in " + dir + " failed earlier and could not be healed (" + f
        + "); Bellows.resume() tries again, or close and reopen the engine", f);
  }

  private StorageException fail(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return new StorageException("WAL write failed in " + dir + " and the log could not be healed (" + e
        + "); writes are refused until Bellows.resume() succeeds or the engine is reopened", e);
  }

  private void backgroundSync() {
    try {
      if (failure == null && forcedTxid < appendedTxid) {
        syncUpTo(appendedTxid, true);
      }
    } catch (RuntimeException e) {
      LOG.error("Background sync of the WAL in {} failed", dir, e);
    }
  }

  // ------------------------------------------------------------------ deletion

  /**
   * Deletes every file other than the current one whose highest sequence id is below {@code
   * oldestUnflushedSeqId}: the smallest sequence id, over all stores, of an edit that is still only
   * in memory. Pre-existing files are deleted only once replay (or the tail repair) has learnt their
   * highest sequence id. Returns the number of files deleted.
   */
  public int deleteObsolete(long oldestUnflushedSeqId) {
    return deleteBelow(oldestUnflushedSeqId, false);
  }

  /**
   * Deletes the files (the current one only if {@code includeCurrent}) whose edits are all below
   * the threshold; returns how many.
   */
  private int deleteBelow(long oldestUnflushedSeqId, boolean includeCurrent) {
    List<WalFile> victims = new ArrayList<>();
    appendLock.lock();
    try {
      for (WalFile f : files.values()) {
        if ((includeCurrent || f != current) && f.seqKnown && f.maxSeqId < oldestUnflushedSeqId) {
          victims.add(f);
        }
      }
      for (WalFile f : victims) {
        files.remove(f.number);
      }
    } finally {
      appendLock.unlock();
    }
    for (WalFile f : victims) {
      try {
        fs.delete(f.path);
      } catch (IOException e) {
        throw new StorageException("cannot delete WAL file " + f.path, e);
      }
      filesDeleted.incrementAndGet();
    }
    return victims.size();
  }

  // ------------------------------------------------------------------ closing

  /**
   * Writes and forces everything appended, stops the background thread and closes the file.
   * Idempotent. Appends after close throw {@link IllegalStateException}.
   */
  @Override
  public void close() {
    appendLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      appendLock.unlock();
    }
    syncer.stop();
    ioLock.lock();
    try {
      if (failure == null && channel != null) {
        try {
          writeOut(true);
        } catch (IOException e) {
          heal(e);
        }
      }
    } finally {
      try {
        if (channel != null) {
          channel.close();
        }
      } catch (IOException e) {
        LOG.warn("cannot close WAL file {}", current.path, e);
      }
      ioLock.unlock();
    }
  }

  /**
   * Closes the log as {@link #close()} does, then deletes every file whose edits all have sequence
   * ids below {@code oldestUnflushedSeqId} - <em>including the current file</em>, which {@link
   * #deleteObsolete} always keeps. For the engine's clean close: once every store is flushed (the
   * threshold is above every edit) the log is left empty, so the next open reads nothing. Returns
   * the number of files deleted.
   *
   * <p>Crash-safe for the same reason as {@link #deleteObsolete}: a file is deleted only after
   * everything appended was written and forced and the log refuses appends, and only if none of its
   * edits is at or above the threshold (those are still only in memory). A crash part way leaves
   * some files whose edits replay skips. The directory is forced afterwards so that deleted files
   * cannot reappear after a power loss next to the files of a later run (whose numbers start again
   * above the highest file left).
   *
   * <p>After an earlier I/O failure of the log nothing is deleted (and 0 returned).
   *
   * @throws StorageException if writing out the last appends fails; then nothing is deleted
   */
  public int closeAndDeleteObsolete(long oldestUnflushedSeqId) {
    close();
    if (failure != null) {
      return 0; // some appended bytes may never have reached the files: keep everything
    }
    int deleted = deleteBelow(oldestUnflushedSeqId, true);
    if (deleted > 0) {
      try {
        fs.syncDirectory(dir);
      } catch (IOException e) {
        // Every edit is in sorted files: deleted files that come back are replayed and skipped.
        LOG.warn("cannot sync WAL directory {} after deleting {} flushed files", dir, deleted, e);
      }
    }
    return deleted;
  }

  // ------------------------------------------------------------------ accessors

  public Path dir() {
    return dir;
  }

  /** Record bytes (headers included) appended since open. */
  public long bytesAppended() {
    return bytesAppended.sum();
  }

  public long recordsAppended() {
    return recordsAppended.sum();
  }

  /** Sync operations that wrote and/or forced (shared by every caller they covered). */
  public long syncs() {
    return syncs.get();
  }

  /** Syncs of appended data to stable storage. */
  public long forces() {
    return forces.get();
  }

  /** Files closed because they reached the roll size. */
  public long filesRolled() {
    return filesRolled.get();
  }

  /** Files that failed a write or force and were fenced (their unforced records rewritten to a new file). */
  public long filesFenced() {
    return filesFenced.get();
  }

  /** Whether the log failed and could not heal: it refuses appends until {@link #recover} works. */
  public boolean failed() {
    return failure != null;
  }

  public long filesDeleted() {
    return filesDeleted.get();
  }

  /** Files the log holds now: pre-existing ones not deleted plus those created since open. */
  public int fileCount() {
    appendLock.lock();
    try {
      return files.size();
    } finally {
      appendLock.unlock();
    }
  }

  /** Paths of the files the log holds, in order. */
  public List<Path> files() {
    appendLock.lock();
    try {
      List<Path> out = new ArrayList<>(files.size());
      files.values().forEach(f -> out.add(f.path));
      return out;
    } finally {
      appendLock.unlock();
    }
  }

  /** The txid of the last append. */
  public long appendedTxid() {
    return appendedTxid;
  }

  /** Every byte up to this txid has been written to the operating system. */
  public long writtenTxid() {
    return writtenTxid;
  }

  /** Every byte up to this txid has been forced to stable storage. */
  public long forcedTxid() {
    return forcedTxid;
  }

  /** For tests: waits (without polling) until {@code txid} is forced; false on timeout. */
  boolean awaitForced(long txid, long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    ioLock.lock();
    try {
      while (forcedTxid < txid) {
        if (nanos <= 0) {
          return false;
        }
        nanos = forcedAdvanced.awaitNanos(nanos);
      }
      return true;
    } finally {
      ioLock.unlock();
    }
  }

  /** For tests: whether the background sync thread is running. */
  boolean syncThreadAlive() {
    return syncer.isAlive();
  }
}
