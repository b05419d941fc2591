package io.bellows.cluster.region;

import io.bellows.cache.BlockCache;
import io.bellows.config.EngineOptions;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.region.Region;
import io.bellows.region.RegionLog;
import io.bellows.region.RegionServices;
import io.bellows.region.SequenceIds;
import io.bellows.store.FileNumberAllocator;
import io.bellows.util.Clock;
import io.bellows.util.EventListener;
import io.bellows.util.WritesStoppedException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The host of one replica of a region in a test, without an engine: the log and sequence ids are
 * the replica's, background work runs nowhere (flushes only when the test calls them),
 * back-pressure admits everything.
 */
final class ReplicaServices implements RegionServices {
  private final EngineOptions options;
  private final RegionLog log;
  private final SequenceIds sequenceIds;
  private final MetricSet metrics = new MetricSet();
  private final ChunkAllocator chunks;
  private final BlockCache blockCache;
  private final FileNumberAllocator fileNumbers;
  private final FileSystem fs;

  /** {@code files} numbers the replica's sorted files: its next value must lie above every file it has. */
  ReplicaServices(RegionLog log, SequenceIds sequenceIds, AtomicLong files) {
    this(log, sequenceIds, files, Clock.SYSTEM);
  }

  /** With the clock the region stamps writes and measures TTLs with. */
  ReplicaServices(RegionLog log, SequenceIds sequenceIds, AtomicLong files, Clock clock) {
    this(log, sequenceIds, files, clock, LocalFileSystem.INSTANCE);
  }

  /** With the file system the region's files are on (a test's {@code MemFileSystem}, which can lose power). */
  ReplicaServices(RegionLog log, SequenceIds sequenceIds, AtomicLong files, Clock clock, FileSystem fs) {
    this.fs = fs;
    this.options = EngineOptions.builder().clock(clock).build();
    this.chunks = OptionsResolver.chunkAllocator(options);
    this.blockCache = OptionsResolver.blockCache(options, 64L << 20);
    this.log = log;
    this.sequenceIds = sequenceIds;
    this.fileNumbers = FileNumberAllocator.over(files);
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
    throw new AssertionError("a replicated region's log never fails as a whole", cause);
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
