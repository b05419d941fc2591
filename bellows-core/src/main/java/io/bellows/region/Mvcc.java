package io.bellows.region;

import io.bellows.config.Durability;
import java.util.ArrayDeque;

/**
 * Multi-version concurrency control of one region. A mutation {@link #begin}s, which assigns its
 * sequence id from the region's {@link SequenceIds}, applies its cells, then {@link #complete}s. The
 * read point is the highest sequence id such that every mutation of this region with a sequence id
 * up to it has completed; readers see exactly the cells with sequence id &lt;= their read point, so a
 * mutation becomes visible all at once and never partly.
 *
 * <p>A mutation that is in the stores and in the log ({@link #logged}) may be completed by any
 * writer that finds the log made it durable ({@link RegionLog#isDurable}), not only by its own
 * thread: a writer waiting in {@link #completeAndWait} for the mutations ahead of it completes
 * those, so it does not wait for their threads to be scheduled again (on a busy machine a scheduler
 * wait each) when its own log sync already covered them.
 *
 * <p>Thread-safe. Sequence ids are allocated under this object's monitor so that the queue of
 * pending mutations is in sequence-id order.
 */
public final class Mvcc {
  private final SequenceIds sequenceIds;
  /** Asked whether a logged mutation is durable yet; null: only a mutation's own thread completes it. */
  private final RegionLog log;
  private final ArrayDeque<WriteEntry> pending = new ArrayDeque<>();
  private volatile long readPoint;
  /** Entries parked because their log sync failed (see {@link #park}). */
  private int parked;
  /** Writers waiting in {@link #completeAndWait}. */
  private int waiting;
  /** Bumped by every {@link #logged} (monitor held): a writer looking again without the monitor sees it change. */
  private volatile long loggedStamp;
  /** See {@link #waitsOnMonitor()}. */
  private long waitsOnMonitor;
  private volatile Runnable spinHook = () -> { };
  /**
   * How many times a writer in {@link #completeAndWait} looks again, spinning ({@link
   * Thread#onSpinWait}) between looks, before it waits on the monitor: a few microseconds, as
   * RocksDB's writers spin before they block (see {@code Wal.IO_SPINS}: not yielding).
   */
  static final int WAIT_SPINS = 256;

  /** One mutation in flight. */
  public static final class WriteEntry {
    private final long seqId;
    private boolean completed;
    private boolean parked;
    /** Set once the cells are in the stores and the record in the log ({@link #logged}). */
    private volatile Durability durability;
    private volatile long ticket;

    WriteEntry(long seqId) {
      this.seqId = seqId;
    }

    public long seqId() {
      return seqId;
    }
  }

  public Mvcc(SequenceIds sequenceIds, long initialReadPoint) {
    this(sequenceIds, initialReadPoint, null);
  }

  /** As {@link #Mvcc(SequenceIds, long)}, completing logged mutations the {@code log} made durable. */
  public Mvcc(SequenceIds sequenceIds, long initialReadPoint, RegionLog log) {
    this.sequenceIds = sequenceIds;
    this.readPoint = initialReadPoint;
    this.log = log;
  }

  /**
   * The mutation's cells are in the stores and its record in the log under {@code ticket} (or
   * {@code ticket} &lt; 0: nothing of it is logged) with {@code durability}: once the log says it is
   * that durable, any writer may complete it. Wakes the writers waiting behind it to look again.
   */
  public synchronized void logged(WriteEntry e, long ticket, Durability durability) {
    e.ticket = ticket;
    e.durability = durability;
    loggedStamp++;
    if (waiting > 0) {
      notifyAll();
    }
  }

  public synchronized WriteEntry begin() {
    WriteEntry e = new WriteEntry(sequenceIds.next());
    pending.addLast(e);
    return e;
  }

  /**
   * Begins a mutation whose sequence id its log assigned (a log that {@linkplain
   * RegionLog#appliesRecords applies records}), larger than every id before: the source records it.
   */
  public synchronized WriteEntry begin(long seqId) {
    sequenceIds.assigned(seqId);
    WriteEntry e = new WriteEntry(seqId);
    pending.addLast(e);
    return e;
  }

  /** Marks the mutation done and advances the read point over every completed prefix. */
  public synchronized void complete(WriteEntry e) {
    e.completed = true;
    advance();
  }

  /** Moves the read point over every completed prefix of the pending entries (monitor held). */
  private void advance() {
    long rp = readPoint;
    while (!pending.isEmpty() && pending.peekFirst().completed) {
      rp = pending.pollFirst().seqId;
    }
    readPoint = rp;
    notifyAll();
  }

  /**
   * Completes the mutation and waits until the read point has reached it, so that a writer returns
   * only once its write is visible: its next read sees it (read-your-writes). Without the wait, a
   * mutation that completes while an earlier one of the region is still in flight (waiting for its
   * WAL sync) would return invisible. Entries ahead of it complete without waiting for anything
   * this thread holds, so the wait ends, unless one of them is {@link #park parked}: then this
   * returns false at once, the mutation complete but not yet visible.
   */
  public boolean completeAndWait(WriteEntry e) {
    synchronized (this) {
      complete(e);
      if (readPoint >= e.seqId) {
        return true;
      }
      if (parked > 0) {
        return false;
      }
      completeDurableAhead();
    }
    // The writers ahead are most often running on another core and a few microseconds from
    // completing, while a writer that waits on the monitor runs again only when the scheduler picks
    // it (a time slice or more when threads outnumber cores): look again a few times first,
    // spinning, and complete those ahead that became logged meanwhile.
    long stamp = loggedStamp;
    for (int i = 0; i < WAIT_SPINS; i++) {
      if (readPoint >= e.seqId) {
        return true;
      }
      spinHook.run();
      Thread.onSpinWait();
      if (loggedStamp != stamp) {
        synchronized (this) {
          stamp = loggedStamp;
          completeDurableAhead();
        }
      }
    }
    synchronized (this) {
      if (readPoint < e.seqId) {
        waitsOnMonitor++;
      }
      return awaitReadPoint(e.seqId);
    }
  }

  /**
   * Writers that, after looking again {@link #WAIT_SPINS} times, still waited on the monitor to
   * become visible (a write visible at once, or while it looked again, does not count).
   */
  public synchronized long waitsOnMonitor() {
    return waitsOnMonitor;
  }

  /** For tests: runs {@code hook} before each look of a writer waiting to become visible without waiting on the monitor. */
  void spinHook(Runnable hook) {
    spinHook = hook;
  }

  /**
   * Waits until every mutation begun so far is visible: for a writer that read under its row lock
   * (at read point {@code Long.MAX_VALUE}, so possibly cells of mutations not visible yet, released
   * early) and answers without a write of its own, e.g. a condition that does not hold. Returns false
   * at once if one of them is {@link #park parked}.
   */
  public synchronized boolean awaitBegunVisible() {
    WriteEntry last = pending.peekLast();
    return last == null || awaitReadPoint(last.seqId);
  }

  /** Waits until the read point reaches {@code seqId} (monitor held); false if an entry is parked. */
  private boolean awaitReadPoint(long seqId) {
    boolean interrupted = false;
    try {
      while (readPoint < seqId) {
        if (parked > 0) {
          return false;
        }
        if (completeDurableAhead()) {
          continue;
        }
        waiting++;
        try {
          wait();
        } catch (InterruptedException ie) {
          interrupted = true; // the write is applied: finish waiting, keep the interrupt for the caller
        } finally {
          waiting--;
        }
      }
      return true;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Completes the pending mutations at the head of the queue that are logged and that the log made
   * as durable as they ask, as their own threads would once they ran (their wait for the log would
   * return at once, and could no longer fail); returns whether the read point moved. Monitor held.
   */
  private boolean completeDurableAhead() {
    if (log == null) {
      return false;
    }
    boolean any = false;
    for (WriteEntry w : pending) {
      if (w.completed) {
        continue;
      }
      Durability d = w.durability;
      if (w.parked || d == null || (w.ticket >= 0 && !log.isDurable(w.ticket, d))) {
        break; // the read point cannot pass it
      }
      w.completed = true;
      any = true;
    }
    if (!any) {
      return false;
    }
    long before = readPoint;
    advance();
    return readPoint != before;
  }

  /**
   * The mutation's cells are in the memory stores but its log sync failed: it must not become
   * visible, since a crash could take it back. It stays in flight, holding the read point below it,
   * until {@link #releaseParked} (the log recovered and made it durable) or the engine closes.
   */
  public synchronized void park(WriteEntry e) {
    e.parked = true;
    parked++;
    notifyAll(); // writers behind it stop waiting to become visible
  }

  /** The log recovered, so every parked mutation is durable: they complete. */
  public synchronized void releaseParked() {
    if (parked == 0) {
      return;
    }
    for (WriteEntry e : pending) {
      if (e.parked) {
        e.parked = false;
        e.completed = true;
      }
    }
    parked = 0;
    advance();
  }

  /** After WAL replay: everything up to {@code seqId} is complete. */
  public synchronized void advanceTo(long seqId) {
    if (pending.isEmpty() && seqId > readPoint) {
      readPoint = seqId;
    }
  }

  public long readPoint() {
    return readPoint;
  }

  /** The sequence id of the oldest mutation in flight, or {@link Long#MAX_VALUE} if none. */
  public synchronized long oldestPendingSeqId() {
    WriteEntry first = pending.peekFirst();
    return first == null ? Long.MAX_VALUE : first.seqId;
  }
}
