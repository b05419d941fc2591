package io.bellows.region;

import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;

/**
 * Where a region's writes go before they are acknowledged: the <em>log</em> step of the write path
 * (see {@link WriteSteps}). The region hands each {@link WriteRecord} to {@link #append}, inserts
 * its cells into the stores, then waits with {@link #awaitDurable} for the durability the write
 * asks; only then does the write become visible. The region knows nothing else about the log: today
 * every region of an engine shares its write-ahead log (the engine's one implementation); a
 * replicated log would implement the same four calls.
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

  /** Whether the log failed and takes no more records until it recovers. */
  boolean failed();

  /**
   * Makes every record appended so far durable, before a flush's files are: what survives a power
   * loss stays a prefix of the log.
   */
  void forceAppended();
}
