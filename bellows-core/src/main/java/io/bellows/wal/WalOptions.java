package io.bellows.wal;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;

/**
 * Settings of one {@link Wal}. Immutable.
 *
 * <p>Values are checked only for being positive here, not against the knob ranges, so that tests
 * can use tiny roll sizes; values taken from {@link EngineOptions} have already been validated by
 * the knob registry.
 *
 * @param rollSize bytes after which the current file is closed and the next append starts a new one
 *     ({@code bellows.wal.roll.size})
 * @param asyncSyncPeriodMs how often the background thread writes and forces appended data for
 *     ASYNC_WAL edits ({@code bellows.wal.async.sync.period.ms})
 */
public record WalOptions(long rollSize, long asyncSyncPeriodMs) {
  public WalOptions {
    if (rollSize <= 0) {
      throw new IllegalArgumentException("roll size must be positive: " + rollSize);
    }
    if (asyncSyncPeriodMs <= 0) {
      throw new IllegalArgumentException("async sync period must be positive: " + asyncSyncPeriodMs);
    }
  }

  /** The knob defaults. */
  public static WalOptions defaults() {
    return new WalOptions(Knobs.WAL_ROLL_SIZE.defaultValue(), Knobs.WAL_ASYNC_SYNC_PERIOD_MS.defaultValue());
  }

  /** The WAL settings of an engine. */
  public static WalOptions from(EngineOptions options) {
    return new WalOptions(options.get(Knobs.WAL_ROLL_SIZE), options.get(Knobs.WAL_ASYNC_SYNC_PERIOD_MS));
  }

  public WalOptions withRollSize(long bytes) {
    return new WalOptions(bytes, asyncSyncPeriodMs);
  }

  public WalOptions withAsyncSyncPeriodMs(long ms) {
    return new WalOptions(rollSize, ms);
  }
}
