package io.bellows.cluster.region;

import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cluster.ReplicatedLog;
import io.bellows.config.Durability;
import io.bellows.engine.CallId;
import io.bellows.record.WriteRecord;
import io.bellows.region.Region;
import io.bellows.region.RegionLog;
import io.bellows.util.Clock;
import io.bellows.util.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A replicated region's log: the region's Raft group ({@link ReplicatedLog}) instead of the
 * engine's write-ahead log. It {@linkplain RegionLog#appliesRecords applies the records itself}:
 * the leader's writer waits until this replica leads and has applied everything committed before
 * its term ({@link #beginEvaluation}), evaluates under its rows' locks, and proposes the record with
 * the term ({@link #propose}); every replica's {@link RegionApplier}, the leader's included, applies
 * it when it is committed, with the sequence id {@code base + index}. The writer's call returns once
 * its own replica applied it, which is when the row locks are released (a batch of plain writes
 * releases them once its entries are in the log, {@link #proposeAsync}, and the rows' next writer
 * that reads waits for them instead).
 *
 * <p>Why the applier, not the writer, applies on the leader: it applies every entry in log order,
 * the same way on every replica, whoever proposed it; an entry proposed by a leader that stepped
 * down and committed by the next is applied once on each replica, never twice and never by a
 * writer that gave up on it. The leader decodes its own entry once more; that is the price.
 *
 * <p>A write may name its call ({@link #answerOnce}: a client's id and call id): its entry carries
 * the ids, and the replicas' {@link AnsweredCalls} apply the call at most once. A writer whose call
 * the table holds already (a retry of a call that applied) evaluates nothing: it answers the first
 * answer, looked up after {@link #beginEvaluation} under its rows' locks, where every earlier
 * sending of the call that will ever apply has applied (the next leader applies its predecessors'
 * entries before it takes writes; within a term, the first sending holds the row's lock until it
 * applied). The lookup is what makes a retried check-and-mutate right: evaluated again, its
 * condition could fail against its own first write and answer "not applied". A retry that reaches
 * the log anyway (the first sending was pending on another leader) is skipped by every replica's
 * applier, which hands the writer the first answer.
 *
 * <p>Durability: a record is acknowledged once a majority holds it durably (Ratis syncs its log
 * before it answers); every write's durability is that, whatever it asks.
 */
public final class RaftRegionLog implements RegionLog {
  private volatile ReplicatedLog log;
  private volatile AnsweredCalls calls;
  /** The call the writer on this thread names, between {@link #answerOnce}'s start and end. */
  private final ThreadLocal<NamedCall> current = new ThreadLocal<>();

  private record NamedCall(CallId id, int answerCells) {}
  /** The clock the region stamps with, if its host took it ({@link #clock}); null: the host's own. */
  private volatile LeaderClock stamps;

  /** Binds the log to its replica of the region's group, once the node holds the group. */
  public void bind(ReplicatedLog replica) {
    if (log != null) {
      throw new IllegalStateException("the region's log is bound to its group already");
    }
    log = replica;
  }

  /** The table of answered calls of this replica's applier ({@link RegionApplier#open}). */
  void answeredCalls(AnsweredCalls table) {
    calls = table;
  }

  /**
   * Runs {@code write}, a write of the region on this thread (one record at most: a single-row
   * mutation or an atomic row operation), as the call {@code call}: applied at most once however
   * often it is sent, on whichever replica leads. If the call applied before, nothing is evaluated
   * and the answer is the first one: applied, with the cells its updates wrote, which are the last
   * {@code answerCells} cells of its record (0 if the call returns no values).
   *
   * @throws StaleCallException if the call lies below its client's watermark and is not remembered
   */
  public Outcome answerOnce(CallId call, int answerCells, Supplier<Outcome> write) {
    if (calls == null) {
      throw new IllegalStateException("the region's log has no table of answered calls (RegionApplier.open with the log)");
    }
    if (current.get() != null) {
      throw new IllegalStateException("a write on this thread already names " + current.get().id());
    }
    current.set(new NamedCall(call, answerCells));
    try {
      return write.get();
    } catch (AnsweredCallException e) {
      List<Cell> values = new ArrayList<>(e.values());
      values.sort(CellComparator.INSTANCE);
      return new Outcome(true, values);
    } finally {
      current.remove();
    }
  }

  /**
   * The clock for the region's host to give the region: {@code base}, moved ahead when this replica
   * begins to lead by as much as it lies behind the newest timestamp the region holds, plus one
   * ({@link LeaderClock}), so a leader whose clock lies behind its predecessor's still stamps a
   * later write above an earlier one. Taken once, before the region opens; {@link #region} names
   * the region once it is open.
   */
  public Clock clock(Clock base) {
    if (stamps != null) {
      throw new IllegalStateException("the region's clock was taken already");
    }
    LeaderClock s = new LeaderClock(base);
    stamps = s;
    return s;
  }

  /** The clock the region stamps with ({@link #clock}), or null if its host kept its own. */
  public Clock stamps() {
    return stamps;
  }

  /** The region this is the log of, whose newest timestamp a leadership stamps above ({@link #clock}). */
  public void region(Region region) {
    LeaderClock s = stamps;
    if (s != null) {
      s.region(region);
    }
  }

  private ReplicatedLog log() {
    ReplicatedLog l = log;
    if (l == null) {
      throw new StorageException("the region's replica has not joined its group yet");
    }
    return l;
  }

  @Override
  public boolean appliesRecords() {
    return true;
  }

  /** The term of this replica's leadership, once it leads and has applied everything before it. */
  @Override
  public long beginEvaluation() {
    long term = log().awaitLeadership();
    LeaderClock s = stamps;
    if (s != null) {
      s.lead(term); // before anything of the term is evaluated: its stamps start above the region's newest
    }
    NamedCall named = current.get();
    if (named != null) {
      AnsweredCalls.Answer first = calls.answered(named.id());
      if (first != null) {
        throw new AnsweredCallException(named.id(), first.values());
      }
    }
    return term;
  }

  /**
   * Proposes the record with the term it was evaluated in; returns once committed and applied here.
   *
   * @throws io.bellows.cluster.NotLeaderException if this replica does not lead: not appended
   * @throws io.bellows.cluster.OutcomeUnknownException if it stopped leading with the record pending
   * @throws StaleLeadershipException if the record reached the log in a later term: not applied
   * @throws StaleCallException if its call lies below its client's watermark: not applied
   * @throws RegionSplitException if the region split before the record reached its log: not applied
   */
  @Override
  public void propose(long term, WriteRecord record) {
    try {
      proposeAsync(term, record).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new StorageException("a write to a replicated region failed", e.getCause());
    }
  }

  /**
   * As {@link #propose}, without waiting: the entry is in this replica's log (or refused) when this
   * returns, so one thread's proposals are logged, and applied, in the order it made them; the
   * future fails as {@link #propose} throws.
   */
  @Override
  public CompletableFuture<Void> proposeAsync(long term, WriteRecord record) {
    NamedCall named = current.get();
    byte[] entry = named == null ? RegionEntry.encode(term, record)
        : RegionEntry.encode(term, named.id(), named.answerCells(), record);
    return log().append(entry).thenApply(reply -> {
      if (RegionEntry.moved(reply)) {
        throw new RegionSplitException("the write reached the region's log after its split; no replica applied it:"
            + " its rows are in a daughter region now");
      }
      if (RegionEntry.rejected(reply)) {
        throw new StaleLeadershipException("the write was evaluated in term " + term
            + " but reached the region's log in a later one; no replica applied it");
      }
      if (named != null) {
        List<Cell> first = RegionEntry.duplicateAnswer(reply);
        if (first != null) {
          throw new AnsweredCallException(named.id(), first);
        }
        if (RegionEntry.stale(reply)) {
          throw new StaleCallException(named.id());
        }
      }
      return null;
    });
  }

  /**
   * Appends a command to the region's replicas (a split, a retire: {@link RegionApplier.Commands})
   * on this replica, which must lead; completes once it is committed and applied here.
   */
  public CompletableFuture<Void> appendCommand(String text) {
    return log().append(RegionEntry.command(0, text)).thenApply(reply -> null);
  }

  @Override
  public long append(WriteRecord record) {
    throw new UnsupportedOperationException("a replicated region proposes its records (RegionLog.propose)");
  }

  @Override
  public void awaitDurable(long ticket, Durability durability) {
    throw new UnsupportedOperationException("a replicated region proposes its records (RegionLog.propose)");
  }

  /** Never: a write that cannot be committed fails alone, and the region goes on taking writes. */
  @Override
  public boolean failed() {
    return false;
  }

  /**
   * Nothing to force: a flush holds only applied records, which were committed, so a majority's
   * logs hold them; a replica whose own log lost its tail in a power loss gets it again from the
   * leader, and its stores skip what their files hold.
   */
  @Override
  public void forceAppended() {}
}
