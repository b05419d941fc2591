package io.bellows.memstore.chunk;

import io.bellows.region.OptionsResolver;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChunkAllocatorTest {
  private static final int SIZE = 4096;

  @Test
  void releasedChunkMemoryIsReusedUnderANewId() {
    ChunkAllocator a = new ChunkAllocator(SIZE, 10 * SIZE, false);
    Chunk c1 = a.allocateData();
    ByteBuffer mem = c1.buffer();
    int id1 = c1.id();
    c1.release();
    assertThat(a.stats().chunksPooled()).isEqualTo(1);
    assertThat(a.stats().bytesPooled()).isEqualTo(SIZE);

    Chunk c2 = a.allocateData();
    assertThat(c2.buffer()).isSameAs(mem);
    assertThat(c2.id()).isNotEqualTo(id1);
    assertThat(c2.used()).isZero();
    assertThat(a.stats().chunksCreated()).isEqualTo(1);
    assertThat(a.stats().chunksPooled()).isZero();
    c2.release();
    a.checkNoChunksInUse();
  }

  @Test
  void poolKeepsAtMostItsBudget() {
    ChunkAllocator a = new ChunkAllocator(SIZE, 2 * SIZE, false);
    List<Chunk> cs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      cs.add(a.allocateData());
    }
    cs.forEach(Chunk::release);
    ChunkAllocator.Stats s = a.stats();
    assertThat(s.chunksPooled()).isEqualTo(2);
    assertThat(s.bytesPooled()).isEqualTo(2 * SIZE);
    assertThat(s.chunksInUse()).isZero();
    assertThat(s.chunksCreated()).isEqualTo(5);
  }

  @Test
  void zeroPoolNeverPools() {
    ChunkAllocator a = new ChunkAllocator(SIZE, 0, true);
    Chunk c = a.allocateData();
    ByteBuffer mem = c.buffer();
    c.release();
    Chunk d = a.allocateData();
    assertThat(d.buffer()).isNotSameAs(mem);
    d.release();
    assertThat(a.stats().chunksPooled()).isZero();
  }

  @Test
  void heapAndOffHeapAndNodeKinds() {
    ChunkAllocator heap = new ChunkAllocator(SIZE, SIZE * 4, false);
    Chunk d = heap.allocateData();
    Chunk n = heap.allocateNode();
    assertThat(d.isDirect()).isFalse();
    assertThat(n.isDirect()).as("node chunks need CAS, which only direct buffers support").isTrue();
    assertThat(heap.stats().offHeapBytesInUse()).isEqualTo(SIZE);
    d.release();
    n.release();
    // Pools are per memory kind: a direct buffer never comes back as a heap data chunk.
    Chunk d2 = heap.allocateData();
    assertThat(d2.isDirect()).isFalse();
    d2.release();

    ChunkAllocator off = new ChunkAllocator(SIZE, SIZE * 4, true);
    Chunk od = off.allocateData();
    assertThat(od.isDirect()).isTrue();
    od.release();
    heap.checkNoChunksInUse();
    off.checkNoChunksInUse();
  }

  @Test
  void jumboChunksHaveExactSizeOwnIdsAndAreNeverPooled() {
    ChunkAllocator a = new ChunkAllocator(SIZE, 100 * SIZE, false);
    Chunk j = a.allocateJumbo(3 * SIZE + 5);
    assertThat(j.kind()).isEqualTo(Chunk.Kind.JUMBO);
    assertThat(j.capacity()).isEqualTo(3 * SIZE + 5);
    assertThat(a.chunk(j.id())).isSameAs(j);
    assertThat(a.stats().jumboInUse()).isEqualTo(1);
    assertThat(a.stats().bytesInUse()).isEqualTo(3 * SIZE + 5);
    j.release();
    ChunkAllocator.Stats s = a.stats();
    assertThat(s.jumboInUse()).isZero();
    assertThat(s.jumboCreated()).isEqualTo(1);
    assertThat(s.chunksPooled()).isZero();
    assertThat(s.bytesInUse()).isZero();
  }

  @Test
  void registryResolvesLiveIdsOnlyAndIdsAreUniqueAndNonZero() {
    ChunkAllocator a = new ChunkAllocator(SIZE, 0, false);
    List<Chunk> live = new ArrayList<>();
    Set<Integer> ids = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      Chunk c = a.allocateData();
      assertThat(c.id()).isPositive();
      assertThat(ids.add(c.id())).isTrue();
      live.add(c);
    }
    for (Chunk c : live) {
      assertThat(a.chunk(c.id())).isSameAs(c);
    }
    Chunk gone = live.remove(7);
    gone.release();
    assertThat(a.findChunk(gone.id())).isNull();
    assertThatThrownBy(() -> a.chunk(gone.id())).isInstanceOf(IllegalStateException.class);
    // The freed slot is reused, but under a different id: the stale id still resolves to nothing.
    Chunk reuse = a.allocateData();
    assertThat(reuse.id()).isNotEqualTo(gone.id());
    assertThat(a.findChunk(gone.id())).isNull();
    assertThat(a.chunk(reuse.id())).isSameAs(reuse);
    reuse.release();
    live.forEach(Chunk::release);
    a.checkNoChunksInUse();
  }

  @Test
  void releasingTwiceThrowsAndRetainedChunkIsNotRecycled() {
    ChunkAllocator a = new ChunkAllocator(SIZE, 10 * SIZE, false);
    Chunk c = a.allocateData();
    c.retain();
    c.release();
    assertThat(a.stats().chunksInUse()).isEqualTo(1);
    assertThat(a.stats().chunksPooled()).isZero();
    Chunk other = a.allocateData();
    assertThat(other.buffer()).isNotSameAs(c.buffer());
    c.release();
    assertThat(a.stats().chunksPooled()).isEqualTo(1);
    assertThatThrownBy(c::release).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(c::retain).isInstanceOf(IllegalStateException.class);
    other.release();
  }

  @Test
  void leakCheckNamesTheLeak() {
    ChunkAllocator a = new ChunkAllocator(SIZE, 0, false);
    Chunk c = a.allocateData();
    assertThatThrownBy(a::checkNoChunksInUse).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Chunk#" + c.id());
    c.release();
    a.checkNoChunksInUse();
  }

  @Test
  void bumpAllocationFillsExactlyAndFailsWithoutReserving() {
    ChunkAllocator a = new ChunkAllocator(SIZE, 0, false);
    Chunk c = a.allocateData();
    assertThat(c.alloc(SIZE - 10)).isZero();
    assertThat(c.alloc(11)).isEqualTo(-1);
    assertThat(c.alloc(10)).isEqualTo(SIZE - 10);
    assertThat(c.alloc(1)).isEqualTo(-1);
    assertThat(c.used()).isEqualTo(SIZE);
    c.release();
  }

  @Test
  void concurrentBumpAllocationsNeverOverlap() throws Exception {
    ChunkAllocator a = new ChunkAllocator(64 * 1024, 0, false);
    Chunk c = a.allocateData();
    int threads = 4;
    List<List<Integer>> got = new ArrayList<>();
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      List<Integer> mine = new ArrayList<>();
      got.add(mine);
      ts.add(new Thread(() -> {
        int off;
        while ((off = c.alloc(24)) >= 0) {
          mine.add(off);
        }
      }));
    }
    ts.forEach(Thread::start);
    for (Thread t : ts) {
      t.join();
    }
    Set<Integer> all = new HashSet<>();
    got.forEach(all::addAll);
    assertThat(all).hasSize(64 * 1024 / 24);
    assertThat(all).allSatisfy(o -> assertThat(o % 24).isZero());
    c.release();
  }

  @Test
  void configuredFromKnobs() {
    EngineOptions o = EngineOptions.builder().set(Knobs.CHUNK_SIZE, 8192L + 3).set(Knobs.CHUNK_OFF_HEAP, true).build();
    ChunkAllocator a = OptionsResolver.chunkAllocator(o);
    assertThat(a.chunkSize()).isEqualTo(8192);
    assertThat(a.offHeap()).isTrue();
    assertThat(OptionsResolver.chunkAllocator(EngineOptions.defaults()).chunkSize()).isEqualTo(2 * 1024 * 1024 - 64);
  }
}
