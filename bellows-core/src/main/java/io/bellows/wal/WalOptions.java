package io.bellows.wal;

/**
 * Settings of one {@link Wal}. Immutable.
 *
 * <p>Values are checked only for being positive here, not against the knob ranges, so that tests
 * can use tiny roll sizes; the engine resolves them once from its settings, which the knob registry
 * has already validated.
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

  /** The settings' defaults: 64 MiB files, a sync every second (a test keeps them equal). */
  public static WalOptions defaults() {
    return new WalOptions(64L * 1024 * 1024, 1000);
  }

  public WalOptions withRollSize(long bytes) {
    return new WalOptions(bytes, asyncSyncPeriodMs);
  }

  public WalOptions withAsyncSyncPeriodMs(long ms) {
    return new WalOptions(rollSize, ms);
  }
}
