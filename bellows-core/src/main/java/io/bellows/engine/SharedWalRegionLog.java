package io.bellows.engine;

import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import io.bellows.region.RegionLog;
import io.bellows.wal.Wal;
import java.util.function.Supplier;

/**
 * The region log of every region of a {@link LocalEngine}: the engine's one write-ahead log, shared
 * by all its regions (one file sequence, one group commit, one sequence-id order for all of them).
 * The WAL is looked up per call: the engine opens it after its regions (to replay into them).
 */
final class SharedWalRegionLog implements RegionLog {
  private final Supplier<Wal> wal;

  SharedWalRegionLog(Supplier<Wal> wal) {
    this.wal = wal;
  }

  @Override
  public long append(WriteRecord record) {
    return wal.get().append(record);
  }

  @Override
  public void awaitDurable(long ticket, Durability durability) {
    wal.get().sync(ticket, durability);
  }

  @Override
  public boolean isDurable(long ticket, Durability durability) {
    return wal.get().synced(ticket, durability);
  }

  @Override
  public boolean failed() {
    return wal.get().failed();
  }

  /** Nothing to force before the engine opened its WAL (a flush at open, before replay). */
  @Override
  public void forceAppended() {
    Wal w = wal.get();
    if (w != null) {
      w.forceAppended();
    }
  }
}
