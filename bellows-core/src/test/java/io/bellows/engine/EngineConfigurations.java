package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.ActiveIndexType;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.MemStorePolicy;
import io.bellows.config.SegmentIndexType;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory-store configurations every engine-level correctness test runs under: the classic
 * memory store, the engine's default, and every Accordion policy × index kind × on/off-heap
 * chunks. One list, so that a new configuration is tested everywhere at once.
 */
public record EngineConfigurations(
    MemStorePolicy policy, ActiveIndexType active, SegmentIndexType segments, boolean mslab, boolean offHeap) {

  /** A short name, also used to pass the configuration to a child JVM. */
  public String name() {
    return policy + "-" + active + "-" + segments + (mslab ? "-MSLAB" : "") + (offHeap ? "-OFFHEAP" : "");
  }

  @Override
  public String toString() {
    return name();
  }

  /** A family builder with this configuration's memory-store settings. */
  public ColumnFamilyDescriptor.Builder family(String name) {
    return ColumnFamilyDescriptor.builder(name)
        .memStorePolicy(policy)
        .set(Knobs.ACTIVE_INDEX, active)
        .set(Knobs.SEGMENT_INDEX, segments)
        .set(Knobs.MSLAB, mslab);
  }

  /**
   * Engine options with this configuration's chunk settings (small chunks keep tests lean) and small
   * block caches, so that blocks are evicted all the time: a 64 KiB L1, and with MSLAB an L2 of two
   * buckets behind it that flushes also write to; a KV cache of half of L1 that promotes a row on its
   * second read, so gets keep going through it (and its evictions). With MSLAB, flat segments' last
   * chunks come from the pool when it holds one ({@code bellows.mslab.pool.tails}).
   */
  public EngineOptions.Builder engine(EngineOptions.Builder b) {
    b.set(Knobs.CHUNK_OFF_HEAP, offHeap).set(Knobs.CHUNK_SIZE, 64L * 1024)
        .set(Knobs.BLOCKCACHE_L1_SIZE, 64L * 1024)
        .set(Knobs.KVCACHE_PROMOTE_MIN_ACCESSES, 1);
    if (mslab) {
      b.set(Knobs.BLOCKCACHE_L2_SIZE, 2L * 1028 * 1024).set(Knobs.BLOCKCACHE_CACHE_ON_WRITE, true)
          .set(Knobs.CHUNK_POOLED_TAILS, true);
    }
    return b;
  }

  public static List<EngineConfigurations> all() {
    List<EngineConfigurations> out = new ArrayList<>();
    out.add(new EngineConfigurations(MemStorePolicy.NONE, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, false, false));
    // The engine's default family: the writers' cells in an object skiplist, copied into chunks when flattened.
    out.add(new EngineConfigurations(MemStorePolicy.ADAPTIVE, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, false, false));
    for (MemStorePolicy p : new MemStorePolicy[] {MemStorePolicy.BASIC, MemStorePolicy.EAGER, MemStorePolicy.ADAPTIVE}) {
      out.add(new EngineConfigurations(p, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, false, false));
      out.add(new EngineConfigurations(p, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, true, false));
      out.add(new EngineConfigurations(p, ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.CHUNK, true, false));
      out.add(new EngineConfigurations(p, ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.CHUNK, true, true));
    }
    return out;
  }

  public static EngineConfigurations named(String name) {
    for (EngineConfigurations c : all()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no configuration " + name);
  }
}
