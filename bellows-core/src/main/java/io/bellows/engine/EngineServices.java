package io.bellows.engine;

import io.bellows.cache.BlockCache;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.FileSystem;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.region.RegionLog;
import io.bellows.region.RegionServices;
import io.bellows.region.SequenceIds;
import io.bellows.store.FileNumberAllocator;
import io.bellows.util.EventListener;
import io.bellows.util.WritesStoppedException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The engine's side of the region contract: what every region of a {@link LocalEngine} shares. */
final class EngineServices implements RegionServices {
  private final EngineOptions options;
  private final FileSystem fs;
  private final EngineTables tables;
  private final WalRetention walRetention;
  private final AtomicLong sequence;
  private final FileNumberAllocator fileNumbers;
  private final long instanceId;
  private final MetricSet metrics;
  private final BackgroundWork background;
  private final ChunkAllocator chunks;
  private final BlockCache blockCache;
  private final BackPressure backPressure;
  private final BackgroundErrors errors;
  private final Listeners events;
  private final LongAdder writesRefused;
  private final RegionLog log;
  private final SequenceIds sequenceIds;

  EngineServices(EngineOptions options, FileSystem fs, EngineTables tables, WalRetention walRetention,
      AtomicLong sequence, FileNumberAllocator fileNumbers, long instanceId, MetricSet metrics,
      BackgroundWork background, ChunkAllocator chunks, BlockCache blockCache, BackPressure backPressure,
      BackgroundErrors errors, Listeners events) {
    this.options = options;
    this.fs = fs;
    this.tables = tables;
    this.walRetention = walRetention;
    this.sequence = sequence;
    this.fileNumbers = fileNumbers;
    this.instanceId = instanceId;
    this.metrics = metrics;
    this.background = background;
    this.chunks = chunks;
    this.blockCache = blockCache;
    this.backPressure = backPressure;
    this.errors = errors;
    this.events = events;
    this.writesRefused = metrics.counter("writes.refused");
    this.log = new SharedWalRegionLog(walRetention::wal);
    this.sequenceIds = SequenceIds.of(sequence);
  }

  @Override
  public void admitWrite(Region region, long bytes) {
    backPressure.admit(region, bytes);
  }

  @Override
  public void paceWrite(long bytes, double position, String cause) {
    backPressure.pace(bytes, position, cause);
  }

  @Override
  public EngineOptions options() {
    return options;
  }

  @Override
  public FileSystem fileSystem() {
    return fs;
  }

  @Override
  public RegionLog log() {
    return log;
  }

  @Override
  public SequenceIds sequenceIds() {
    return sequenceIds;
  }

  @Override
  public FileNumberAllocator fileNumbers() {
    return fileNumbers;
  }

  @Override
  public long engineInstanceId() {
    return instanceId;
  }

  @Override
  public MetricSet metrics() {
    return metrics;
  }

  @Override
  public InMemoryWork inMemoryCompactions() {
    return background.inMemoryCompactions();
  }

  @Override
  public ChunkAllocator chunks() {
    return chunks;
  }

  @Override
  public BlockCache blockCache() {
    return blockCache;
  }

  @Override
  public io.bellows.kvcache.KvCache kvCache() {
    return blockCache instanceof io.bellows.kvcache.KvCachingBlockCache k ? k.kvCache() : null;
  }

  @Override
  public void requestFlush(Region region) {
    if (!tables.closed()) {
      background.requestFlush(region);
    }
  }

  @Override
  public void requestCompaction(Region region) {
    if (!tables.closed()) {
      background.requestCompaction(region);
    }
  }

  @Override
  public void wrote(Region region) {
    walRetention.wrote();
  }

  @Override
  public void walFailed(Throwable cause) {
    errors.walFailed(cause);
  }

  @Override
  public EventListener events() {
    return events;
  }

  @Override
  public void checkWritesAllowed() {
    try {
      errors.checkWritesAllowed();
    } catch (WritesStoppedException e) {
      writesRefused.increment();
      throw e;
    }
  }

  @Override
  public WritesStoppedException flushStalled(Region region, RuntimeException flushFailure) {
    writesRefused.increment();
    WritesStoppedException refused = errors.flushStalled(region, flushFailure, options.get(Knobs.BLOCKING_WAIT_MS));
    background.requestFlush(region); // a retry is queued whichever flush failed (it may have been an explicit one)
    return refused;
  }
}
