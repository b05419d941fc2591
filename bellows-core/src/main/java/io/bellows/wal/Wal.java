package io.bellows.wal;

import io.bellows.config.Durability;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.fs.WritableFile;
import io.bellows.record.WriteRecord;
import io.bellows.util.StorageException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
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
 * <p><b>Threads and locks.</b> Thread-safe. Four locks, always taken in this order:
 * <ol>
 *   <li>{@code recoveryLock} (in {@link WalReplay}): replay and the torn-tail repair of the last pre-existing file;
 *   <li>{@code forceLock}: one force of the current file at a time, made outside {@code ioLock}
 *       ({@link #forceUpTo}: SYNC_WAL callers write on meanwhile); a roll, close or recovery takes
 *       it too, so no file is closed under a force;
 *   <li>{@code ioLock}: whoever writes to the current file, creates or rolls files (a roll or a
 *       close forces under it; other forces only note what to force under it). A
 *       syncing thread takes every record appended so far (group commit); syncing threads that
 *       find it held wait beside it, not in its queue, and are all woken when it is let go: those
 *       its I/O covered return at once, without I/O and without taking the lock in turn;
 *   <li>{@code appendLock}: the pending buffer, the running counts, the file table, {@code closed}.
 *       Held only briefly (never across I/O, except while rolling to a new file).
 * </ol>
 * A background {@link PeriodicSyncer} thread writes and forces every {@code asyncSyncPeriodMs}.
 *
 * <p><b>Parts.</b> This class appends, syncs (group commit), rolls, deletes and closes; {@link
 * WalReplay} reads the files found at open, {@link WalFileCreator} makes new files, {@link WalHeal}
 * fences a failed file and rewrites what it had not forced, {@link WalFiles} is the file table.
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
  /**
   * How many times a caller that finds the I/O lock held looks again, spinning ({@link
   * Thread#onSpinWait}) between looks, before it parks ({@link #awaitIo}): a few microseconds, as
   * RocksDB's writers spin before they block. Not {@link Thread#yield}: on a machine with more
   * runnable threads than cores, yielding between looks halved the YCSB load's throughput (2026-11-27).
   */
  static final int IO_SPINS = 256;

  private final FileSystem fs;
  private final Path dir;
  private final WalOptions options;
  private final WalReplay replay;
  private final WalFileCreator creator;
  private final WalHeal healer;

  /**
   * Held by whoever forces the current file outside {@code ioLock} ({@link #forceUpTo}), and by
   * whatever closes or replaces that file in the ordinary course (a roll, {@link #close}, {@link
   * #recover}), so a force in flight never meets a file closed under it.
   */
  private final ReentrantLock forceLock = new ReentrantLock();
  private final ReentrantLock ioLock = new ReentrantLock();
  /** Syncing threads waiting for the holder of {@code ioLock} to finish ({@link #awaitIo}). */
  private final ConcurrentLinkedQueue<Thread> ioWaiters = new ConcurrentLinkedQueue<>();
  /** For tests: run before each look of a caller waiting in {@link #awaitIo} without parking. */
  private volatile Runnable spinHook = () -> { };
  /** Signalled when forcedTxid advances (for {@link #awaitForced}); never held across I/O. */
  private final ReentrantLock forcedLock = new ReentrantLock();
  private final Condition forcedAdvanced = forcedLock.newCondition();
  private final ReentrantLock appendLock = new ReentrantLock();

  // ---- guarded by appendLock (current and channel change only with ioLock held too)
  private final WalFiles files = new WalFiles();
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
  private final UnforcedCopies unforced = new UnforcedCopies(UNFORCED_MAX);
  private volatile long writtenTxid;
  private volatile long forcedTxid;

  private volatile Throwable failure;
  private final PeriodicSyncer syncer;

  private final LongAdder bytesAppended = new LongAdder();
  private final LongAdder recordsAppended = new LongAdder();
  private final AtomicLong syncs = new AtomicLong();
  private final LongAdder syncWaitsParked = new LongAdder();
  private final AtomicLong forces = new AtomicLong();
  private final AtomicLong filesRolled = new AtomicLong();
  private final AtomicLong filesDeleted = new AtomicLong();

  private Wal(FileSystem fs, Path dir, WalOptions options, List<WalFile> preexisting) {
    this.fs = fs;
    this.dir = dir;
    this.options = options;
    for (WalFile f : preexisting) {
      files.add(f);
    }
    this.replay = new WalReplay(fs, dir, preexisting, appendLock, files);
    this.creator = new WalFileCreator(fs, dir,
        preexisting.isEmpty() ? 1 : preexisting.get(preexisting.size() - 1).number + 1);
    this.healer = new WalHeal(creator);
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
    replay.replay(sink);
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
          current.noteEdit(edit.regionId(), edit.seqId());
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
        forceUpTo(txid);
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
      forceUpTo(appendedTxid);
    }
  }

  /**
   * Whether the edits up to {@code txid} are already as durable as {@code durability} asks (what
   * {@link #sync} would return at once for), without waiting or I/O.
   */
  public boolean synced(long txid, Durability durability) {
    return switch (Objects.requireNonNull(durability, "durability")) {
      case SKIP_WAL, ASYNC_WAL -> true;
      case SYNC_WAL -> covered(txid, false);
      case FSYNC_WAL -> covered(txid, true);
      default -> false;
    };
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
    while (!ioLock.tryLock()) {
      // Group commit: the holder may be taking our bytes along. Wait for it without queueing on
      // the lock, where a waiter its I/O covered would still have to take the lock in turn, one
      // after the other, and could land behind the next leader's I/O.
      if (awaitIo(txid, force)) {
        return;
      }
    }
    try {
      // While we were getting the lock, a previous holder may have taken our bytes along.
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
      unlockIo();
    }
  }

  /**
   * Forces every record up to {@code txid} (and all appended before it) without holding {@code
   * ioLock} through the force, so that SYNC_WAL callers keep writing to the operating system
   * meanwhile, as RocksDB's {@code SyncWAL} lets its writers go on. Under the lock, the records
   * appended so far are written out and the point to force noted (the written txid, the current
   * file); the file is forced outside it; under the lock again the forced txid moves there and the
   * unforced copies up to it are dropped, keeping those written since. A failed force heals the
   * log as a failed write does ({@link #heal}: every unforced copy, these included, is rewritten
   * and forced in a new file). One force at a time ({@code forceLock}); a roll, close or recovery
   * waits for it, so the file is never closed under a force.
   */
  private void forceUpTo(long txid) {
    if (covered(txid, true)) {
      return;
    }
    if (txid > appendedTxid) {
      throw new IllegalArgumentException("txid " + txid + " was never issued (appended up to " + appendedTxid + ")");
    }
    while (!forceLock.tryLock()) {
      if (awaitForce(txid)) {
        return; // the force in progress took our bytes along
      }
    }
    try {
      if (covered(txid, true)) {
        return; // the force before took our bytes along
      }
      long base;
      long target;
      boolean wrote;
      WritableFile ch;
      while (!ioLock.tryLock()) {
        if (awaitIo(txid, true)) {
          return;
        }
      }
      try {
        if (covered(txid, true)) {
          return;
        }
        Throwable f = failure;
        if (f != null) {
          throw failedEarlier(f);
        }
        wrote = writtenTxid < appendedTxid;
        boolean interrupted = Thread.interrupted(); // as in syncUpTo: the I/O is everyone's
        try {
          if (wrote) {
            writeOut(false);
          }
        } catch (IOException e) {
          heal(e); // everything appended is forced in a new file once this returns
          return;
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
        if (covered(txid, true)) {
          return; // the write-out forced (its copies would have passed their bound)
        }
        base = forcedTxid;
        target = writtenTxid; // the unforced copies hold exactly base..target
        ch = channel;
      } finally {
        unlockIo();
      }
      IOException failed = null;
      boolean interrupted = Thread.interrupted();
      try {
        ch.syncData();
      } catch (IOException e) {
        failed = e;
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      ioLock.lock();
      try {
        if (channel != ch) {
          // A heal replaced the file meanwhile: it rewrote every unforced copy (ours among them,
          // since the forced txid had not moved) to a new file and forced it.
        } else if (failure != null) {
          throw failedEarlier(failure);
        } else if (failed != null) {
          heal(failed);
        } else if (forcedTxid == base) { // else a write-out forced past target meanwhile
          unforced.dropFirst(target - base);
          forcedTxid = target;
          forces.incrementAndGet();
          if (!wrote) {
            syncs.incrementAndGet(); // else the write-out counted this sync
          }
          signalForced();
        }
      } finally {
        unlockIo();
      }
      if (!covered(txid, true)) {
        Throwable f = failure;
        throw f != null ? failedEarlier(f) : new IllegalStateException("txid " + txid + " not forced after a force to " + target);
      }
    } finally {
      unlockForce();
    }
  }

  /**
   * Waits, without queueing on {@code forceLock}, until {@code txid} is forced (true) or the lock is
   * free to try again (false), as {@link #awaitIo} does beside {@code ioLock}: callers the force in
   * progress covers all return when it ends, not one after the other. Uninterruptible, as the lock is.
   */
  private boolean awaitForce(long txid) {
    forcedLock.lock();
    try {
      while (forcedTxid < txid && forceLock.isLocked()) {
        forcedAdvanced.awaitUninterruptibly(); // signalled when forcedTxid moves and when forceLock is let go
      }
      return forcedTxid >= txid;
    } finally {
      forcedLock.unlock();
    }
  }

  /** Lets {@code forceLock} go and wakes the callers waiting beside it ({@link #awaitForce}). */
  private void unlockForce() {
    forceLock.unlock();
    signalForced();
  }

  /**
   * Waits, without queueing on {@code ioLock}, until {@code txid} is covered (true) or the lock is
   * free to try again (false). Every holder wakes all such waiters when it lets the lock go ({@link
   * #unlockIo}), so those its I/O covered return at once and in parallel. An interrupt does not end
   * the wait (as {@code ioLock.lock()} would not); it is kept for the caller.
   */
  private boolean awaitIo(long txid, boolean force) {
    // A holder writing to the operating system lets go within microseconds, while a parked caller
    // is woken only when the scheduler runs it again (a time slice or more when threads outnumber
    // cores): look again for a few microseconds first.
    for (int i = 0; i < IO_SPINS; i++) {
      if (covered(txid, force)) {
        return true;
      }
      if (!ioLock.isLocked()) {
        return false;
      }
      spinHook.run();
      Thread.onSpinWait();
    }
    syncWaitsParked.increment();
    Thread me = Thread.currentThread();
    boolean interrupted = false;
    ioWaiters.add(me);
    try {
      // Registered before looking at the lock: a holder that lets it go after this look unparks us.
      while (!covered(txid, force) && ioLock.isLocked()) {
        LockSupport.park(this);
        interrupted |= Thread.interrupted();
      }
      return covered(txid, force);
    } finally {
      ioWaiters.remove(me);
      if (interrupted) {
        me.interrupt();
      }
    }
  }

  /** Lets {@code ioLock} go and wakes every thread waiting in {@link #awaitIo} to look again. */
  private void unlockIo() {
    ioLock.unlock();
    for (Thread t : ioWaiters) {
      LockSupport.unpark(t);
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
        signalForced();
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
   * and restored after, and the heal's I/O runs where no interrupt reaches it ({@link WalHeal#rewrite}):
   * an interrupt is the caller's, never the log's failure.
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
        fenceAndRewrite(cause);
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

  /** Fences the current file and installs the file {@link WalHeal} rewrote its unforced records to. ioLock and appendLock held. */
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
    long target = appendedTxid;
    long size = WalFormat.HEADER_SIZE + unforced.size() + pending.size();
    WalFileCreator.Created healed = healer.rewrite(failed, forcedTxid, unforced, pending, cause);
    // Only now is the new file the log's: every record in it is forced.
    install(healed, size);
    pending.reset();
    unforced.clear();
    writtenTxid = target;
    forcedTxid = target;
    forces.incrementAndGet();
    signalForced();
  }

  /** Makes a new file the current one, {@code size} bytes long. ioLock and appendLock held. */
  private void install(WalFileCreator.Created created, long size) {
    files.add(created.file());
    current = created.file();
    channel = created.channel();
    currentSize = size;
    rollAt = options.rollSize();
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
    forceLock.lock();
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
      unlockIo();
      unlockForce();
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
    replay.repairTailIfNeeded();
    boolean interrupted = Thread.interrupted(); // set aside during the I/O, as in syncUpTo
    forceLock.lock();
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
        WalFileCreator.Created next;
        try {
          next = creator.create(-1);
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
        next.file().baseTxid = base;
        install(next, WalFormat.HEADER_SIZE);
      } finally {
        appendLock.unlock();
      }
    } finally {
      unlockIo();
      unlockForce();
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
        forceUpTo(appendedTxid);
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
    return deleteObsolete(region -> oldestUnflushedSeqId);
  }

  /**
   * Deletes every file other than the current one that no region needs any more: each region's
   * edits in it are below what {@code oldestNeeded} says that region needs. Pre-existing files are
   * deleted only once replay (or the tail repair) has read which regions' edits they hold. Returns
   * the number of files deleted.
   */
  public int deleteObsolete(OldestNeeded oldestNeeded) {
    return deleteUnneeded(oldestNeeded, false);
  }

  /** The regions still needing the oldest file but the current one (flushing them lets it go); empty if none. */
  public java.util.Set<Integer> regionsPinningOldestFile(OldestNeeded oldestNeeded) {
    appendLock.lock();
    try {
      return files.regionsPinningOldest(oldestNeeded, current);
    } finally {
      appendLock.unlock();
    }
  }

  /** Deletes the files (the current one only if {@code includeCurrent}) no region needs; returns how many. */
  private int deleteUnneeded(OldestNeeded oldestNeeded, boolean includeCurrent) {
    List<WalFile> victims;
    appendLock.lock();
    try {
      victims = files.removeObsolete(oldestNeeded, includeCurrent ? null : current);
    } finally {
      appendLock.unlock();
    }
    WalFiles.delete(fs, victims);
    filesDeleted.addAndGet(victims.size());
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
    forceLock.lock();
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
      unlockIo();
      unlockForce();
    }
  }

  /**
   * Closes the log as {@link #close()} does, then deletes every file whose edits all have sequence
   * ids below {@code oldestUnflushedSeqId} - <em>including the current file</em>, which {@link
   * #deleteObsolete} always keeps - and forces the directory: after a clean close with every store
   * flushed, the next open reads no log. Crash-safe as {@link #deleteObsolete} is (why, and why the
   * directory is forced: docs/design/wal.md, "Deletion"). After an earlier I/O failure of the log
   * nothing is deleted (and 0 returned). Returns the number of files deleted.
   *
   * @throws StorageException if writing out the last appends fails; then nothing is deleted
   */
  public int closeAndDeleteObsolete(long oldestUnflushedSeqId) {
    return closeAndDeleteObsolete(region -> oldestUnflushedSeqId);
  }

  /** As {@link #closeAndDeleteObsolete(long)}, with what each region still needs. */
  public int closeAndDeleteObsolete(OldestNeeded oldestNeeded) {
    close();
    if (failure != null) {
      return 0; // some appended bytes may never have reached the files: keep everything
    }
    int deleted = deleteUnneeded(oldestNeeded, true);
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

  /**
   * Callers that found the I/O lock held and parked until its holder let go (a caller that its
   * holder's write covered or that got the lock while it looked again does not count).
   */
  public long syncWaitsParked() {
    return syncWaitsParked.sum();
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
    return healer.filesFenced();
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
      return files.paths();
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
    forcedLock.lock();
    try {
      while (forcedTxid < txid) {
        if (nanos <= 0) {
          return false;
        }
        nanos = forcedAdvanced.awaitNanos(nanos);
      }
      return true;
    } finally {
      forcedLock.unlock();
    }
  }

  private void signalForced() {
    forcedLock.lock();
    try {
      forcedAdvanced.signalAll();
    } finally {
      forcedLock.unlock();
    }
  }

  /** For tests: runs {@code hook} before each look of a caller waiting for the I/O lock without parking. */
  void spinHook(Runnable hook) {
    spinHook = hook;
  }

  /** For tests: whether the background sync thread is running. */
  boolean syncThreadAlive() {
    return syncer.isAlive();
  }
}
