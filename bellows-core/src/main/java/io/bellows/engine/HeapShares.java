package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.region.OptionsResolver;

/**
 * How much of the JVM's heap the engine's two big users may take: the memory stores' budget
 * ({@code bellows.memstore.global.*}) and the on-heap block cache ({@code bellows.blockcache.l1.*}).
 * Together they may not exceed {@link #MAX_SHARE} of the maximum heap, as HBase requires of its
 * memstore and block cache: beyond it, scanners, in-flight writes and the collector's headroom run
 * the JVM out of memory under load. Checked when an engine opens, before anything is written.
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
}
