package io.bellows.memstore.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(SeedExtension.class)
class MemStoreLabTest {
  private static final int SIZE = 4096;

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void concurrentCopiesAreAllIntact(boolean offHeap, Seed s) throws Exception {
    long seed = s.value();
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 64 * SIZE, offHeap);
    MemStoreLab lab = new MemStoreLab(alloc);
    int threads = 4;
    int perThread = 2000;
    List<List<Cell>> originals = new ArrayList<>();
    List<long[]> refs = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      List<Cell> cells = TestCells.random(new Random(seed + t), perThread);
      long[] r = new long[perThread];
      originals.add(cells);
      refs.add(r);
      ts.add(new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
        for (int i = 0; i < cells.size(); i++) {
          r[i] = lab.copy(cells.get(i));
        }
      }));
    }
    ts.forEach(Thread::start);
    start.countDown();
    for (Thread t : ts) {
      t.join();
    }
    long expectedData = 0;
    for (int t = 0; t < threads; t++) {
      for (int i = 0; i < perThread; i++) {
        Cell orig = originals.get(t).get(i);
        Cell back = lab.cellAt(refs.get(t)[i], orig.length(), orig.seqId());
        assertThat(back).as("seed %d thread %d cell %d", seed, t, i).isEqualTo(orig);
        expectedData += orig.length();
      }
    }
    assertThat(lab.dataBytes()).isEqualTo(expectedData);
    assertThat(lab.allocatedBytes()).isEqualTo((long) lab.chunkCount() * SIZE);
    assertThat(lab.offHeapBytes()).isEqualTo(offHeap ? lab.allocatedBytes() : 0);
    // Chunks are filled except for tails smaller than a cell: few chunks beyond the data's need.
    assertThat(lab.chunkCount()).isLessThanOrEqualTo((int) (expectedData / (SIZE - 100)) + 1);
    assertThat(alloc.stats().chunksInUse()).isEqualTo(lab.chunkCount());
    lab.close();
    alloc.checkNoChunksInUse();
  }

  /**
   * A one-writer lab lays cells out exactly as a shared lab used by one thread does (same chunks in
   * the same order, same offsets, same byte counts), jumbo cells and a misestimated size included,
   * and refuses copies once closed.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void oneWriterLabLaysCellsOutAsASharedLab(boolean offHeap, Seed s) {
    long seed = s.value();
    Random rnd = new Random(seed);
    List<Cell> cells = TestCells.random(rnd, 3000);
    for (int i = 0; i < 5; i++) {
      byte[] big = new byte[SIZE + rnd.nextInt(2 * SIZE)];
      rnd.nextBytes(big);
      cells.add(rnd.nextInt(cells.size()), Cells.put(Bytes.of("j" + i), Bytes.of("f"), Bytes.of("q"), 1, big));
    }
    long data = cells.stream().mapToLong(Cell::length).sum();
    for (long expected : new long[] {0, data, data / 2, data * 2}) {
      ChunkAllocator alloc = new ChunkAllocator(SIZE, 64 * SIZE, offHeap);
      MemStoreLab shared = new MemStoreLab(alloc, expected);
      MemStoreLab alone = MemStoreLab.forOneWriter(alloc, expected);
      List<Integer> sharedChunks = new ArrayList<>();
      List<Integer> aloneChunks = new ArrayList<>();
      for (int i = 0; i < cells.size(); i++) {
        Cell c = cells.get(i);
        long a = shared.copy(c);
        long b = alone.copy(c);
        String what = String.format("seed %d expected %d cell %d", seed, expected, i);
        assertThat(ChunkRef.offset(b)).as(what).isEqualTo(ChunkRef.offset(a));
        assertThat(alloc.chunk(ChunkRef.chunkId(b)).capacity()).as(what)
            .isEqualTo(alloc.chunk(ChunkRef.chunkId(a)).capacity());
        addIfNew(sharedChunks, ChunkRef.chunkId(a));
        addIfNew(aloneChunks, ChunkRef.chunkId(b));
        assertThat(aloneChunks).as(what).hasSameSizeAs(sharedChunks);
        assertThat(alone.dataBytes()).as(what).isEqualTo(shared.dataBytes());
        assertThat(alone.cellAt(b, c.length(), c.seqId())).as(what).isEqualTo(c);
      }
      assertThat(alone.dataBytes()).isEqualTo(data);
      assertThat(alone.chunkCount()).isEqualTo(shared.chunkCount());
      assertThat(alone.allocatedBytes()).isEqualTo(shared.allocatedBytes());
      assertThat(alone.offHeapBytes()).isEqualTo(shared.offHeapBytes());
      alone.close();
      shared.close();
      assertThatThrownBy(() -> alone.copy(cells.get(0))).isInstanceOf(IllegalStateException.class);
      alloc.checkNoChunksInUse();
    }
  }

  private static void addIfNew(List<Integer> ids, int id) {
    if (!ids.contains(id)) {
      ids.add(id);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void cellLargerThanAChunkGoesToAJumboChunk(boolean offHeap) {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 64 * SIZE, offHeap);
    MemStoreLab lab = new MemStoreLab(alloc);
    Cell small = Cells.put(Bytes.of("a"), Bytes.of("f"), Bytes.of("q"), 1, Bytes.of("v"));
    byte[] big = new byte[3 * SIZE];
    new Random(1).nextBytes(big);
    Cell jumbo = Cells.put(Bytes.of("b"), Bytes.of("f"), Bytes.of("q"), 1, big);
    long r1 = lab.copy(small);
    long r2 = lab.copy(jumbo);
    long r3 = lab.copy(small);
    assertThat(alloc.chunk(ChunkRef.chunkId(r2)).kind()).isEqualTo(Chunk.Kind.JUMBO);
    assertThat(alloc.chunk(ChunkRef.chunkId(r2)).capacity()).isEqualTo(jumbo.length());
    assertThat(ChunkRef.chunkId(r1)).as("small cells keep filling the current chunk").isEqualTo(ChunkRef.chunkId(r3));
    assertThat(lab.cellAt(r2, jumbo.length(), 0)).isEqualTo(jumbo);
    assertThat(alloc.stats().jumboInUse()).isEqualTo(1);
    lab.close();
    assertThat(alloc.stats().jumboInUse()).isZero();
    alloc.checkNoChunksInUse();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void scanInProgressNeverReadsARecycledChunk(boolean offHeap) {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 64 * SIZE, offHeap);
    MemStoreLab lab = new MemStoreLab(alloc);
    List<Cell> cells = TestCells.random(new Random(7), 400);
    List<Long> refs = new ArrayList<>();
    for (Cell c : cells) {
      refs.add(lab.copy(c));
    }
    int labChunks = lab.chunkCount();
    List<ByteBuffer> labMemory = new ArrayList<>();
    for (long r : refs) {
      ByteBuffer b = alloc.chunk(ChunkRef.chunkId(r)).buffer();
      if (labMemory.stream().noneMatch(x -> x == b)) {
        labMemory.add(b);
      }
    }
    // A reader starts a scan, then the segment is dropped.
    assertThat(lab.tryRetain()).isTrue();
    lab.close();
    assertThat(alloc.stats().chunksPooled()).as("nothing recycled while the scan holds the lab").isZero();

    // New writers fill fresh chunks; none of them may be the scanned memory.
    MemStoreLab next = new MemStoreLab(alloc);
    byte[] junk = new byte[200];
    java.util.Arrays.fill(junk, (byte) 0x5A);
    for (int i = 0; i < labChunks * SIZE / 200 + 10; i++) {
      Cell c = Cells.put(Bytes.of("zz" + i), Bytes.of("f"), Bytes.of("q"), 1, junk);
      long r = next.copy(c);
      ByteBuffer b = alloc.chunk(ChunkRef.chunkId(r)).buffer();
      assertThat(labMemory).noneMatch(x -> x == b);
    }
    for (int i = 0; i < cells.size(); i++) {
      assertThat(lab.cellAt(refs.get(i), cells.get(i).length(), cells.get(i).seqId())).isEqualTo(cells.get(i));
    }

    // The scan ends: only now do the chunks return to the pool, and the next lab reuses them.
    lab.release();
    assertThat(alloc.stats().chunksPooled()).isEqualTo(labChunks);
    assertThat(alloc.findChunk(ChunkRef.chunkId(refs.get(0)))).isNull();
    MemStoreLab third = new MemStoreLab(alloc);
    long r = third.copy(cells.get(0));
    ByteBuffer reused = alloc.chunk(ChunkRef.chunkId(r)).buffer();
    assertThat(labMemory).anyMatch(x -> x == reused);
    assertThat(lab.tryRetain()).as("a freed lab cannot be retained again").isFalse();
    third.close();
    next.close();
    alloc.checkNoChunksInUse();
    assertThat(alloc.stats().chunksPooled()).isEqualTo(alloc.stats().chunksCreated());
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void copyCellGivesAReadableCell(boolean offHeap) {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 0, offHeap);
    try (MemStoreLab lab = new MemStoreLab(alloc)) {
      Cell c = Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), 9, Bytes.of("value"));
      c.setSeqId(42);
      Cell copy = lab.copyCell(c);
      assertThat(copy).isEqualTo(c);
      assertThat(copy.array()).isNotSameAs(c.array());
      long ref = lab.copy(c);
      Cell view = lab.cellAt(ref, c.length(), c.seqId());
      Chunk chunk = alloc.chunk(ChunkRef.chunkId(ref));
      if (offHeap) {
        assertThat(view.array()).hasSize(c.length());
      } else {
        assertThat(view.array()).as("heap view wraps the chunk's array, no copy").isSameAs(chunk.buffer().array());
        assertThat(view.offset()).isEqualTo(ChunkRef.offset(ref));
      }
    }
    alloc.checkNoChunksInUse();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void closeIsIdempotentAndCopyAfterCloseThrows(boolean offHeap) {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 0, offHeap);
    MemStoreLab lab = new MemStoreLab(alloc);
    lab.copy(Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), 9, Bytes.of("v")));
    lab.close();
    lab.close();
    assertThat(lab.isClosed()).isTrue();
    assertThatThrownBy(() -> lab.copy(new byte[20], 0, 20)).isInstanceOf(IllegalStateException.class);
    alloc.checkNoChunksInUse();
  }
}
