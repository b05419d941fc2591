package io.bellows.metrics;

import io.bellows.util.EventListener;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's own flush, compaction and write-stall metrics, counted from the same events the
 * registered {@link EventListener}s receive (and before them, so a listener that reads the metrics
 * on an end event sees that event counted). Every counter exists from the start, at zero.
 */
public final class EventMetrics implements EventListener {
  private final LongAdder flushCount;
  private final LongAdder flushBytesWritten;
  private final LongAdder compactionCount;
  private final LongAdder compactionBytesRead;
  private final LongAdder compactionBytesWritten;
  private final LongAdder blockedCount;
  private final LongAdder blockedNanos;
  /** Writers in a stall now: stall begins minus ends (every begin has its end, in a finally). */
  private final java.util.concurrent.atomic.AtomicLong blockedNow = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.Map<StallCause, LongAdder> blockedNanosByCause = new java.util.EnumMap<>(StallCause.class);

  public EventMetrics(MetricSet metrics) {
    flushCount = metrics.counter("flush.count");
    flushBytesWritten = metrics.counter("flush.bytes.written");
    compactionCount = metrics.counter("compaction.count");
    compactionBytesRead = metrics.counter("compaction.bytes.read");
    compactionBytesWritten = metrics.counter("compaction.bytes.written");
    blockedCount = metrics.counter("writes.blocked.count");
    blockedNanos = metrics.counter("writes.blocked.nanos");
    metrics.gauge("writes.blocked.now", blockedNow::get);
    for (StallCause c : StallCause.values()) {
      blockedNanosByCause.put(c, metrics.counter("writes.blocked.nanos." + c.name().toLowerCase().replace('_', '.')));
    }
  }

  @Override
  public void flushEnd(FlushInfo info) {
    flushCount.increment();
    flushBytesWritten.add(info.fileBytes());
  }

  @Override
  public void compactionEnd(CompactionInfo info) {
    compactionCount.increment();
    compactionBytesRead.add(info.inputBytes());
    compactionBytesWritten.add(info.outputBytes());
  }

  @Override
  public void writeStallBegin(WriteStallInfo info) {
    blockedCount.increment();
    blockedNow.incrementAndGet();
  }

  @Override
  public void writeStallEnd(WriteStallInfo info) {
    blockedNow.decrementAndGet();
    blockedNanos.add(info.duration().toNanos());
    blockedNanosByCause.get(info.cause()).add(info.duration().toNanos());
  }
}
