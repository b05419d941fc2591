package io.bellows.cluster.server;

import io.bellows.cache.BlockCache;
import io.bellows.cluster.region.RaftRegionLog;
import io.bellows.config.EngineOptions;
import io.bellows.engine.BackPressure;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
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

/**
 * What one replica of a region gets from its server ({@link ReplicatedEngine}): its own log and
 * sequence ids, the server's shared options, caches, metrics and background threads. A flush runs
 * on the server's background thread and is followed by a checkpoint of the region's group, so its
 * log drops what the files hold.
 *
 * <p>The member's memory-store budget ({@link BackPressure}) admits its leaders' writes as an
 * engine's admits them (flushes of the largest regions, pacing, a stall at the limit); a replica
 * applying the log, a follower's above all, only asks it for flushes, since the applier must not
 * wait. Simplified against the engine's services: a failed flush is logged and asked again by the
 * next write.
 */
final class ReplicaHost implements RegionServices {
  private final MemberWork work;
  private final EngineOptions options;
  private final RegionLog log;
  private final SequenceIds sequenceIds;
  private final FileNumberAllocator fileNumbers;

  ReplicaHost(EngineOptions serverOptions, MemberWork work, RaftRegionLog log, SequenceIds sequenceIds,
      AtomicLong fileNumbers) {
    this.work = work;
    // The server's options, but the region stamps with its log's clock: a leadership's first stamp
    // lies above the newest timestamp the region held when it began (RaftRegionLog.clock).
    this.options = serverOptions.toBuilder().clock(log.clock(serverOptions.clock())).build();
    this.log = log;
    this.sequenceIds = sequenceIds;
    this.fileNumbers = FileNumberAllocator.over(fileNumbers);
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
    return work.instanceId();
  }

  @Override
  public MetricSet metrics() {
    return work.metricSet();
  }

  @Override
  public InMemoryWork inMemoryCompactions() {
    return work.inMemoryWork();
  }

  @Override
  public ChunkAllocator chunks() {
    return work.chunks();
  }

  @Override
  public BlockCache blockCache() {
    return work.blockCache();
  }

  @Override
  public void requestFlush(Region region) {
    work.requestFlush(region);
  }

  @Override
  public void requestCompaction(Region region) {
    work.requestCompaction(region);
  }

  @Override
  public void admitWrite(Region region, long bytes) {
    work.memory().admit(region, bytes);
  }

  @Override
  public void paceWrite(long bytes, double position, String cause) {
    work.memory().pace(bytes, position, cause);
  }

  /**
   * After every record applied, on a follower as on the leader: flushes when the member's memory
   * budget is near, or when its replicas' logs hold too many entries above their flushes.
   */
  @Override
  public void wrote(Region region) {
    work.memory().relieve();
    work.logEntries().applied(region);
  }

  @Override
  public void walFailed(Throwable cause) {
    throw new IllegalStateException("a replicated region's log never fails as a whole", cause);
  }

  @Override
  public EventListener events() {
    return new EventListener() {};
  }

  @Override
  public void checkWritesAllowed() {}

  @Override
  public WritesStoppedException flushStalled(Region region, RuntimeException flushFailure) {
    return new WritesStoppedException("region " + region.id() + " of table '" + region.descriptor().name()
        + "' cannot flush: " + flushFailure.getMessage(), null, flushFailure);
  }
}
