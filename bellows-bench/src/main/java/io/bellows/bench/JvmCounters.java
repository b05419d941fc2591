package io.bellows.bench;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Reads the JVM's own counters for the plain-main benchmarks: bytes allocated by a thread
 * ({@code com.sun.management.ThreadMXBean}, HotSpot), collections and collection time summed over
 * all collectors, heap used, and direct buffer memory. A {@link Sample} is a point in time; the
 * difference of two samples is what happened in between. Stateless; thread-safe.
 */
final class JvmCounters {
  private JvmCounters() {}

  /** Counters at one moment. */
  record Sample(long gcCount, long gcMillis) {
    Sample minus(Sample o) {
      return new Sample(gcCount - o.gcCount, gcMillis - o.gcMillis);
    }
  }

  static Sample sample() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      millis += Math.max(0, gc.getCollectionTime());
    }
    return new Sample(count, millis);
  }

  /** Bytes allocated so far by the thread, or -1 if the JVM cannot tell. */
  static long allocatedBytes(Thread t) {
    if (t == null) {
      return -1;
    }
    java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    if (mx instanceof com.sun.management.ThreadMXBean sun && sun.isThreadAllocatedMemorySupported()) {
      return sun.getThreadAllocatedBytes(t.getId());
    }
    return -1;
  }

  /**
   * Heap used after asking for full collections until the number stops falling (at most 5 times);
   * System.gc() is only a request, so one call may leave floating garbage behind.
   */
  static long heapUsedAfterGc() {
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (used >= best) {
        break;
      }
      best = used;
    }
    return best;
  }

  /** Bytes of direct (off-heap) buffers currently allocated. */
  static long directBytes() {
    for (BufferPoolMXBean p : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (p.getName().equals("direct")) {
        return p.getMemoryUsed();
      }
    }
    return 0;
  }
}
