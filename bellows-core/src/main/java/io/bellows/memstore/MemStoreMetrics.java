package io.bellows.memstore;

import io.bellows.memstore.chunk.ChunkAllocator;
import java.util.Map;

/** Metric entries shared by the memory store implementations. Stateless. */
final class MemStoreMetrics {
  private MemStoreMetrics() {}

  /**
   * The store's segment forms and the engine-wide chunk pool (shared by every store, so the pool
   * numbers are the same in each store's metrics).
   */
  static void putChunks(Map<String, Number> m, SegmentFactory segments) {
    m.put("memstore.mslab", segments.mslab() ? 1 : 0);
    ChunkAllocator chunks = segments.chunks();
    if (chunks == null) {
      return;
    }
    ChunkAllocator.Stats s = chunks.stats();
    m.put("memstore.chunks.in.use", s.chunksInUse());
    m.put("memstore.chunks.pooled", s.chunksPooled());
    m.put("memstore.chunks.created", s.chunksCreated());
    m.put("memstore.chunks.bytes.in.use", s.bytesInUse());
    m.put("memstore.chunks.offheap.bytes.in.use", s.offHeapBytesInUse());
    m.put("memstore.chunks.bytes.pooled", s.bytesPooled());
    m.put("memstore.chunks.jumbo.in.use", s.jumboInUse());
  }
}
