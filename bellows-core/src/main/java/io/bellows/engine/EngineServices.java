package io.bellows.engine;

import io.bellows.cache.BlockCache;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.FileSystem;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.region.RegionServices;
import io.bellows.store.FileNumberAllocator;
import io.bellows.util.EventListener;
import io.bellows.util.WritesStoppedException;
import io.bellows.wal.Wal;
import java.util.concurrent.atomic.AtomicLong;

/** The engine's side of the region contract: what every region of a {@link LocalEngine} shares. */
final class EngineServices implements RegionServices {
  private final LocalEngine engine;

  EngineServices(LocalEngine engine) {
    this.engine = engine;
  }

  @Override
  public void admitWrite(Region region, long bytes) {
    engine.backPressure.admit(region, bytes);
  }

  @Override
  public void paceWrite(long bytes, double position, String cause) {
    engine.backPressure.pace(bytes, position, cause);
  }

  @Override
  public EngineOptions options() {
    return engine.options;
  }

  @Override
  public FileSystem fileSystem() {
    return engine.fs;
  }

  @Override
  public Wal wal() {
    return engine.wal;
  }

  @Override
  public AtomicLong sequence() {
    return engine.sequence;
  }

  @Override
  public FileNumberAllocator fileNumbers() {
    return engine.fileNumbers;
  }

  @Override
  public long engineInstanceId() {
    return engine.instanceId;
  }

  @Override
  public MetricSet metrics() {
    return engine.metrics;
  }

  @Override
  public InMemoryWork inMemoryCompactions() {
    return engine.background.inMemoryCompactions();
  }

  @Override
  public ChunkAllocator chunks() {
    return engine.chunks;
  }

  @Override
  public BlockCache blockCache() {
    return engine.blockCache;
  }

  @Override
  public io.bellows.kvcache.KvCache kvCache() {
    return engine.blockCache instanceof io.bellows.kvcache.KvCachingBlockCache k ? k.kvCache() : null;
  }

  @Override
  public void requestFlush(Region region) {
    if (!engine.closed) {
      engine.background.requestFlush(region);
    }
  }

  @Override
  public void requestCompaction(Region region) {
    if (!engine.closed) {
      engine.background.requestCompaction(region);
    }
  }

  @Override
  public void wrote(Region region) {
    Wal w = engine.wal;
    long rolled = w.filesRolled();
    if (rolled != engine.rollsChecked.get() && engine.rollsChecked.getAndSet(rolled) != rolled) {
      engine.flushForWalSize(w);
    }
  }

  @Override
  public void walFailed(Throwable cause) {
    engine.errors.walFailed(cause);
  }

  @Override
  public EventListener events() {
    return engine.events;
  }

  @Override
  public void checkWritesAllowed() {
    try {
      engine.errors.checkWritesAllowed();
    } catch (WritesStoppedException e) {
      engine.writesRefused.increment();
      throw e;
    }
  }

  @Override
  public WritesStoppedException flushStalled(Region region, RuntimeException flushFailure) {
    engine.writesRefused.increment();
    WritesStoppedException refused = engine.errors.flushStalled(region, flushFailure, engine.options.get(Knobs.BLOCKING_WAIT_MS));
    engine.background.requestFlush(region); // a retry is queued whichever flush failed (it may have been an explicit one)
    return refused;
  }
}
