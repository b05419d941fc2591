package io.bellows.config;

/**
 * How a mutation is made durable before it is acknowledged. Set per engine (default), per table,
 * per family and per mutation; the most specific setting that is not {@link #USE_DEFAULT} wins.
 */
public enum Durability {
  /** Defer to the next broader setting (mutation, then family/table, then engine). */
  USE_DEFAULT,
  /** Not written to the WAL: lost on a crash unless flushed. */
  SKIP_WAL,
  /** Appended to the WAL; a background thread syncs it every {@code bellows.wal.async.sync.period.ms}. */
  ASYNC_WAL,
  /** Appended and written to the operating system before acknowledging (survives a process crash). */
  SYNC_WAL,
  /** Appended and forced to stable storage before acknowledging (survives a power loss). */
  FSYNC_WAL;

  /** The stronger of two settings, ignoring USE_DEFAULT. */
  public static Durability stronger(Durability a, Durability b) {
    if (a == USE_DEFAULT) {
      return b;
    }
    if (b == USE_DEFAULT) {
      return a;
    }
    return a.ordinal() >= b.ordinal() ? a : b;
  }
}
