package io.bellows.memstore;

import io.bellows.region.OptionsResolver;
import static io.bellows.memstore.MemStoreFixtures.cell;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.EngineOptions;
import io.bellows.memstore.MemStoreFixtures.Form;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.config.ActiveIndexType;
import io.bellows.config.MemStorePolicy;
import io.bellows.config.SegmentIndexType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What Accordion's A (in-memory flush at {@code A × flushSize} of footprint) means with MSLAB: every
 * segment's writers fill at least one whole data chunk (2 MiB), however small A makes it, so the
 * chunk memory a store really holds is about {@code max(A × flushSize, chunk) × segments}, not its
 * footprint; the flat index of each segment, whose size the flatten knows, takes only what its
 * entries need. The test measures both with the default chunk size and prints them (the numbers
 * are in docs/design/memstore.md).
 */
class InMemoryFlushThresholdTest {
  @ParameterizedTest(name = "flushSize={0} A={1}")
  @CsvSource({"16777216, 0.02", "134217728, 0.014"})
  void chunkMemoryPerSegmentIsAtLeastOneChunk(long flushSize, double a) {
    ChunkAllocator chunks = OptionsResolver.chunkAllocator(EngineOptions.defaults()); // 2 MiB - 64, heap
    Form form = new Form(true, ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.CHUNK, false);
    MemStoreFixtures.ManualExecutor bg = new MemStoreFixtures.ManualExecutor();
    CompactingMemStore ms = new CompactingMemStore(MemStoreFixtures.context(
        MemStoreFixtures.family(MemStorePolicy.BASIC, a, 8, 0.2, form), flushSize, bg, MemStoreFixtures::keepAll,
        MemStoreContext.Listener.NONE, chunks), () -> 0.0);
    long seq = 1;
    int segments = 3;
    while (ms.metrics().get("memstore.in.memory.flushes").longValue() < segments) {
      ms.add(cell("row" + seq, "q", 1, seq++));
    }
    long beforeFlatten = ms.metrics().get("memstore.pipeline.bytes").longValue();
    long inUseBeforeFlatten = chunks.stats().bytesInUse();
    bg.runAll(); // flatten: skiplist node chunks go, a chunk index comes
    long footprint = ms.size().footprint();
    long pipelineFootprint = ms.metrics().get("memstore.pipeline.bytes").longValue();
    long inUse = chunks.stats().bytesInUse();
    long chunk = chunks.chunkSize();
    System.out.printf("before flattening: pipeline footprint=%d, chunk bytes in use=%d%n", beforeFlatten,
        inUseBeforeFlatten);
    System.out.printf("A=%.3f flushSize=%d threshold=%d: %d cells, footprint=%d (pipeline %d), chunk bytes in use=%d"
            + " (%.2f chunks per pipeline segment), ratio chunk/footprint=%.2f%n",
        a, flushSize, (long) (a * flushSize), seq - 1, footprint, pipelineFootprint, inUse,
        (double) inUse / chunk / segments, (double) inUse / footprint);
    // Each flat segment holds its writers' data chunk; its index chunk is sized to its entries.
    assertThat(inUse).isGreaterThanOrEqualTo(segments * chunk).isLessThan(2L * segments * chunk);
    assertThat(beforeFlatten).isGreaterThanOrEqualTo((long) (segments * a * flushSize));
    // Flattening frees the skiplist's node chunks for an index chunk sized to its entries.
    assertThat(inUse).as("flattening frees chunk memory").isLessThan(inUseBeforeFlatten);
    // The footprint stays about the same: here the flat index and its row filter cost about what the
    // chunk skiplist's nodes did, and those nodes' random levels move the skiplist's footprint (so
    // also the cell count at which each in-memory flush happens) by a few KB from run to run.
    assertThat((double) pipelineFootprint).as("flattening does not grow the footprint")
        .isLessThan(beforeFlatten * 1.01);
    ms.close();
    chunks.checkNoChunksInUse();
  }
}
