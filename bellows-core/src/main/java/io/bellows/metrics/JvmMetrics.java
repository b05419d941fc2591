package io.bellows.metrics;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Garbage-collection and heap figures of this JVM, from its management beans. */
public final class JvmMetrics {
  private JvmMetrics() {}

  /** Registers {@code jvm.gc.count}, {@code jvm.gc.time.ms}, {@code jvm.heap.used} on a set. */
  public static void register(MetricSet set) {
    set.gauge("jvm.gc.count", JvmMetrics::gcCount);
    set.gauge("jvm.gc.time.ms", JvmMetrics::gcTimeMillis);
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    set.gauge("jvm.heap.used", () -> mem.getHeapMemoryUsage().getUsed());
  }

  public static long gcCount() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  public static long gcTimeMillis() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionTime());
    }
    return n;
  }
}
