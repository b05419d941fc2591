package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.region.OptionsResolver;
import java.util.LinkedHashMap;
import java.util.Map;

/** Creates and reports the engine's memory-store chunk allocator (one per engine, never static). */
final class EngineChunks {
  private EngineChunks() {}

  static ChunkAllocator create(EngineOptions options) {
    return OptionsResolver.chunkAllocator(options);
  }

  static Map<String, Number> metrics(ChunkAllocator chunks) {
    ChunkAllocator.Stats s = chunks.stats();
    Map<String, Number> m = new LinkedHashMap<>();
    m.put("created", s.chunksCreated());
    m.put("in.use", s.chunksInUse());
    m.put("pooled", s.chunksPooled());
    m.put("bytes.in.use", s.bytesInUse());
    m.put("offheap.bytes.in.use", s.offHeapBytesInUse());
    m.put("bytes.pooled", s.bytesPooled());
    m.put("jumbo.created", s.jumboCreated());
    m.put("jumbo.in.use", s.jumboInUse());
    return m;
  }
}
