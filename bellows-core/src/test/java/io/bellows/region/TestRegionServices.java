package io.bellows.region;

import io.bellows.cache.BlockCache;
import io.bellows.config.EngineOptions;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.store.FileNumberAllocator;
import io.bellows.util.EventListener;
import io.bellows.util.WritesStoppedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A host for a region without an engine: the log and the sequence ids are the test's, background
 * work runs nowhere (flushes only when the test calls them), back-pressure admits everything.
 */
final class TestRegionServices implements RegionServices {
  private final EngineOptions options;
  private final RegionLog log;
  private final SequenceIds sequenceIds;
  private final MetricSet metrics = new MetricSet();
  private final ChunkAllocator chunks;
  private final BlockCache blockCache;
  private final FileNumberAllocator fileNumbers = FileNumberAllocator.over(new AtomicLong(1));
  /** What {@link #walFailed} was told. */
  final List<Throwable> logFailures = new ArrayList<>();

  TestRegionServices(EngineOptions options, RegionLog log, SequenceIds sequenceIds) {
    this.options = options;
    this.log = log;
    this.sequenceIds = sequenceIds;
    this.chunks = OptionsResolver.chunkAllocator(options);
    this.blockCache = OptionsResolver.blockCache(options, Runtime.getRuntime().maxMemory());
  }

  @Override
  public EngineOptions options() {
    return options;
  }

  @Override
  public FileSystem fileSystem() {
    return LocalFileSystem.INSTANCE;
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
    return 1;
  }

  @Override
  public MetricSet metrics() {
    return metrics;
  }

  @Override
  public InMemoryWork inMemoryCompactions() {
    return InMemoryWork.on(Runnable::run);
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
  public void requestFlush(Region region) {}

  @Override
  public void requestCompaction(Region region) {}

  @Override
  public void admitWrite(Region region, long bytes) {}

  @Override
  public void paceWrite(long bytes, double position, String cause) {}

  @Override
  public void wrote(Region region) {}

  @Override
  public void walFailed(Throwable cause) {
    logFailures.add(cause);
  }

  @Override
  public EventListener events() {
    return new EventListener() {};
  }

  @Override
  public void checkWritesAllowed() {}

  @Override
  public WritesStoppedException flushStalled(Region region, RuntimeException flushFailure) {
    throw new AssertionError("no writer waits on a flush in these tests", flushFailure);
  }
}
