package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.region.OptionsResolver;
import java.lang.management.ManagementFactory;

/**
 * How much of the JVM's memory the engine's big users may take, checked when an engine opens,
 * before anything is written: the one place where their budgets are weighed against the JVM.
 *
 * <ul>
 *   <li>Heap: the memory stores' budget ({@code bellows.memstore.global.*}) and the on-heap block
 *       cache ({@code bellows.blockcache.l1.*}, the KV cache inside it) may not exceed {@link
 *       #MAX_SHARE} of the maximum heap together, as HBase requires of its memstore and block cache:
 *       beyond it, scanners, in-flight writes and the collector's headroom run the JVM out of memory
 *       under load.
 *   <li>Direct memory: the off-heap L2 block cache ({@code bellows.blockcache.l2.*}) and, with
 *       {@code bellows.mslab.offheap}, the memory stores' budget (their chunks are direct buffers)
 *       may not exceed {@link #MAX_SHARE} of {@code -XX:MaxDirectMemorySize} (by default the maximum
 *       heap) together: the rest is for partly filled and pooled chunks, the always-direct skiplist
 *       node chunks and the JDK's own NIO buffers. Past the limit an allocation fails with "Direct
 *       buffer memory" deep in a write or a read, so the engine refuses to open instead.
 * </ul>
 */
final class HeapShares {
  static final double MAX_SHARE = 0.8;

  private HeapShares() {}

  /** The memory stores' budget in bytes: the explicit size, else the fraction of {@code maxHeap}. */
  static long memStoreLimit(EngineOptions options, long maxHeap) {
    long size = options.get(Knobs.MEMSTORE_GLOBAL_SIZE);
    return size > 0 ? size : (long) (maxHeap * options.get(Knobs.MEMSTORE_GLOBAL_FRACTION));
  }

  /** Refuses settings whose memory stores and L1 cache together exceed {@link #MAX_SHARE} of the heap. */
  static void check(EngineOptions options, long maxHeap) {
    long memStores = memStoreLimit(options, maxHeap);
    long l1 = OptionsResolver.l1Bytes(options, maxHeap);
    if (memStores + l1 > MAX_SHARE * maxHeap) {
      throw new IllegalArgumentException(String.format("the memory stores (bellows.memstore.global.*: %d MiB) and the"
              + " on-heap block cache (bellows.blockcache.l1.*: %d MiB) together would take %.0f%% of the %d MiB"
              + " heap; at most %.0f%% may go to them. Lower one of them or raise -Xmx; nothing was changed",
          memStores >> 20, l1 >> 20, 100.0 * (memStores + l1) / maxHeap, maxHeap >> 20, MAX_SHARE * 100));
    }
  }

  /**
   * Refuses settings whose off-heap memory stores and L2 cache together exceed {@link #MAX_SHARE} of
   * {@code maxDirect}, naming the knobs behind each.
   */
  static void checkDirect(EngineOptions options, long maxHeap, long maxDirect) {
    boolean offHeap = options.get(Knobs.CHUNK_OFF_HEAP);
    long memStores = offHeap ? memStoreLimit(options, maxHeap) : 0;
    long l2 = OptionsResolver.l2Bytes(options, maxHeap);
    if (memStores + l2 > MAX_SHARE * maxDirect) {
      throw new IllegalArgumentException(String.format("the off-heap block cache (bellows.blockcache.l2.*: %d MiB)"
              + " and the memory stores' chunks (bellows.mslab.offheap=%s, bellows.memstore.global.*: %d MiB) would"
              + " take %.0f%% of the %d MiB of direct memory (-XX:MaxDirectMemorySize, by default -Xmx); at most"
              + " %.0f%% may go to them. Lower one of them, set bellows.mslab.offheap=false, or raise"
              + " -XX:MaxDirectMemorySize; nothing was changed",
          l2 >> 20, offHeap, memStores >> 20, 100.0 * (memStores + l2) / maxDirect, maxDirect >> 20, MAX_SHARE * 100));
    }
  }

  /**
   * This JVM's limit on direct buffers: {@code -XX:MaxDirectMemorySize} if set, else the JDK's
   * default, the maximum heap.
   */
  static long maxDirectMemory() {
    long maxHeap = Runtime.getRuntime().maxMemory();
    try {
      com.sun.management.HotSpotDiagnosticMXBean hotspot =
          ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      long set = hotspot == null ? 0 : Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
      return set > 0 ? set : maxHeap;
    } catch (RuntimeException | LinkageError e) {
      return maxHeap; // not HotSpot: assume the JDK's default
    }
  }
}
