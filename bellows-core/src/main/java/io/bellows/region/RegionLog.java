package io.bellows.region;

import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import java.util.concurrent.CompletableFuture;

/**
 * Where a region's writes go before they are acknowledged: the <em>log</em> step of the write path
 * (see {@link WriteSteps}). The region hands each {@link WriteRecord} to {@link #append}, inserts
 * its cells into the stores, then waits with {@link #awaitDurable} for the durability the write
 * asks; only then does the write become visible. The region knows nothing else about the log: today
 * every region of an engine shares its write-ahead log (the engine's one implementation).
 *
 * <p>A replicated log works the other way round ({@link #appliesRecords}): the region's writer
 * evaluates a write and {@linkplain #propose proposes} its record without a sequence id; the log
 * gives the record its id when it commits it, and every replica of the region, this one included,
 * applies it through {@link Region#applyCommitted} in log order. {@link #append} and {@link
 * #awaitDurable} are then never called.
 *
 * <p>Implementations are thread-safe: the region appends from many writer threads at once, and
 * records appended by one thread are logged in call order.
 */
public interface RegionLog {
  /**
   * Appends a record; returns a ticket for {@link #awaitDurable}. Nothing need be durable yet.
   *
   * @throws RuntimeException if the record could not be appended: then {@link #failed()} says
   *     whether the log as a whole failed (the engine stops accepting writes) or only this record
   *     (the next write tries again)
   */
  long append(WriteRecord record);

  /**
   * Waits until the record of {@code ticket} (and every record appended before it) is as durable as
   * {@code durability} asks: nothing for SKIP_WAL and ASYNC_WAL, written for SYNC_WAL, forced for
   * FSYNC_WAL.
   *
   * @throws RuntimeException if the log could not make it durable: the write must not become visible
   */
  void awaitDurable(long ticket, Durability durability);

  /**
   * Whether the record of {@code ticket} is already as durable as {@code durability} asks, without
   * waiting: true means {@link #awaitDurable} of it would return at once, without I/O and without
   * failing. Lets a writer publish the writes ahead of its own that the log made durable while
   * their writers have not run yet ({@link Mvcc#completeAndWait}). False when unsure.
   */
  default boolean isDurable(long ticket, Durability durability) {
    return false;
  }

  /** Whether the log failed and takes no more records until it recovers. */
  boolean failed();

  /**
   * Makes every record appended so far durable, before a flush's files are: what survives a power
   * loss stays a prefix of the log.
   */
  void forceAppended();

  /**
   * Whether this log assigns the region's sequence ids and applies its records itself (a replicated
   * log; see the class comment). Asked once, when the region opens.
   */
  default boolean appliesRecords() {
    return false;
  }

  /**
   * For a log that {@linkplain #appliesRecords applies records}: called by a writer under its rows'
   * locks before it reads anything of the region to evaluate a write. Returns once this replica has
   * applied every record committed before it may take writes, with the epoch that the write's
   * {@link #propose} carries (a replicated log: its leader's term).
   *
   * @throws RuntimeException if this replica takes no writes (it does not lead): nothing happened
   */
  default long beginEvaluation() {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not apply records");
  }

  /**
   * For a log that {@linkplain #appliesRecords applies records}: proposes a record evaluated in
   * {@code epoch} ({@link #beginEvaluation}; its sequence id is not set). Returns once the record is
   * committed and applied on this replica, so visible here. The log applies it only if it is
   * committed in the epoch it was evaluated in: a record evaluated by a leadership that ended may
   * have missed another leader's writes.
   *
   * @throws RuntimeException if the record was not applied, or if the log cannot tell (a leader that
   *     stepped down with it pending): the exception says which
   */
  default void propose(long epoch, WriteRecord record) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not apply records");
  }

  /**
   * As {@link #propose}, without waiting for the commit: returns once the record has its place in
   * the log's order (records proposed by one thread are logged in call order, so applied in it),
   * with a future that completes as {@link #propose} would return or throw. Lets a writer holding
   * the locks of a batch's rows propose the batch's mini-batches one after the other and wait once
   * for all of them, rather than once per mini-batch. This default waits ({@link #propose}).
   */
  default CompletableFuture<Void> proposeAsync(long epoch, WriteRecord record) {
    try {
      propose(epoch, record);
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
