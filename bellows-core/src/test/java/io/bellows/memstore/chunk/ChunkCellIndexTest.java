package io.bellows.memstore.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(SeedExtension.class)
class ChunkCellIndexTest {
  private static final int SIZE = 4096; // 204 entries per index chunk: many index chunks

  /** Distinct random cells in order. */
  private static List<Cell> sortedCells(Random rnd, int n) {
    TreeSet<Cell> set = new TreeSet<>(CellComparator.INSTANCE);
    set.addAll(TestCells.random(rnd, n));
    return new ArrayList<>(set);
  }

  private static int lowerBound(List<Cell> sorted, Cell key) {
    int lo = 0;
    int hi = sorted.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (CellComparator.INSTANCE.compare(sorted.get(mid), key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Told how many entries and bytes to expect, the index and the lab take for their last part just
   * what is left; told too few, they grow into whole chunks and every entry still reads back.
   */
  @ParameterizedTest
  @ValueSource(ints = {-150, 0, 150})
  void lastChunksAreSizedToWhatIsExpected(int misestimate, Seed s) {
    Random rnd = new Random(s.value());
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 16 * SIZE, false);
    List<Cell> cells = sortedCells(rnd, 500); // 204 entries per index chunk: two whole, one tail
    long data = cells.stream().mapToLong(Cell::length).sum();
    MemStoreLab lab = new MemStoreLab(alloc, data + misestimate);
    ChunkCellIndex.Builder b = ChunkCellIndex.builder(alloc, cells.size() + misestimate / 10);
    for (Cell c : cells) {
      b.addCopy(lab, c);
    }
    ChunkCellIndex index = b.build();
    lab.close();
    for (int i = 0; i < cells.size(); i++) {
      assertThat(index.cell(i)).isEqualTo(cells.get(i));
    }
    long wholeIndexChunks = cells.size() / (SIZE / ChunkCellIndex.ENTRY_SIZE);
    if (misestimate == 0) {
      assertThat(index.allocatedIndexBytes()).as("two whole chunks and an exact tail")
          .isEqualTo(wholeIndexChunks * SIZE + (cells.size() % (SIZE / ChunkCellIndex.ENTRY_SIZE)) * 20L);
      assertThat(alloc.stats().bytesInUse()).as("data chunks hold at most a cell's worth of unused tail per chunk")
          .isLessThan(index.allocatedIndexBytes() + data + (data / SIZE + 1) * 200);
    } else if (misestimate < 0) {
      assertThat(index.allocatedIndexBytes()).as("too few expected: the tail grew into a whole chunk")
          .isEqualTo((wholeIndexChunks + 1) * SIZE);
    }
    index.close();
    alloc.checkNoChunksInUse();
  }

  /**
   * With pooled tails, the index's and the lab's last parts are free chunks from the pool when it
   * holds some: no chunk is allocated (on the heap, each new one is a humongous object that may
   * start a G1 marking cycle), whole chunks stand in for exact tails, and every entry reads back,
   * also when the estimate was too low. With an empty pool, the tails are exact as before.
   */
  @ParameterizedTest
  @ValueSource(ints = {-150, 0, 150})
  void pooledTailsTakeFreeChunksFromThePoolAndAllocateNone(int misestimate, Seed s) {
    Random rnd = new Random(s.value());
    List<Cell> cells = sortedCells(rnd, 500);
    long data = cells.stream().mapToLong(Cell::length).sum();
    int pooled = (int) (data / SIZE) + 8; // more than the lab and the index take
    ChunkAllocator alloc = new ChunkAllocator(SIZE, (long) pooled * SIZE, false, true);
    List<Chunk> warm = new ArrayList<>();
    for (int i = 0; i < pooled; i++) {
      warm.add(alloc.allocateData());
    }
    warm.forEach(Chunk::release);
    long created = alloc.stats().chunksCreated();
    MemStoreLab lab = new MemStoreLab(alloc, data + misestimate);
    ChunkCellIndex.Builder b = ChunkCellIndex.builder(alloc, cells.size() + misestimate / 10);
    for (Cell c : cells) {
      b.addCopy(lab, c);
    }
    ChunkCellIndex index = b.build();
    lab.close();
    for (int i = 0; i < cells.size(); i++) {
      assertThat(index.cell(i)).isEqualTo(cells.get(i));
    }
    assertThat(alloc.stats().chunksCreated()).as("every chunk came from the pool").isEqualTo(created);
    assertThat(alloc.stats().jumboCreated()).isZero();
    assertThat(index.allocatedIndexBytes()).as("whole chunks only")
        .isEqualTo((cells.size() / (SIZE / ChunkCellIndex.ENTRY_SIZE) + 1) * SIZE);
    index.close();
    alloc.checkNoChunksInUse();

    ChunkAllocator empty = new ChunkAllocator(SIZE, 0, false, true);
    ChunkCellIndex.Builder exact = ChunkCellIndex.builder(empty, 10);
    MemStoreLab small = new MemStoreLab(empty, 10L * SIZE);
    for (Cell c : cells.subList(0, 10)) {
      exact.addCopy(small, c);
    }
    ChunkCellIndex tail = exact.build();
    small.close();
    assertThat(tail.allocatedIndexBytes()).as("an empty pool: an exact tail").isEqualTo(10L * ChunkCellIndex.ENTRY_SIZE);
    tail.close();
    empty.checkNoChunksInUse();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void matchesASortedListForSeekAndIteration(boolean offHeap, Seed s) {
    long seed = s.value();
    Random rnd = new Random(seed);
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 16 * SIZE, offHeap);
    List<Cell> expected = sortedCells(rnd, 3000);
    MemStoreLab lab = new MemStoreLab(alloc);
    ChunkCellIndex.Builder b = ChunkCellIndex.builder(alloc);
    for (Cell c : expected) {
      b.addCopy(lab, c);
    }
    ChunkCellIndex index = b.build();
    assertThat(index.size()).isEqualTo(expected.size());
    long data = expected.stream().mapToLong(Cell::length).sum();
    assertThat(index.dataBytes()).isEqualTo(data);
    assertThat(index.indexBytes()).isEqualTo(20L * expected.size());
    int indexChunks = (expected.size() + SIZE / 20 - 1) / (SIZE / 20);
    assertThat(index.allocatedIndexBytes()).isEqualTo((long) indexChunks * SIZE);
    assertThat(index.offHeapIndexBytes()).isEqualTo(offHeap ? index.allocatedIndexBytes() : 0);

    List<Cell> all = new ArrayList<>();
    index.iterator(0).forEachRemaining(all::add);
    assertThat(all).containsExactlyElementsOf(expected);

    // Every stored cell is found exactly; random keys land on the lower bound.
    for (int i = 0; i < expected.size(); i += 7) {
      assertThat(index.seek(expected.get(i))).isEqualTo(i);
    }
    for (int i = 0; i < 2000; i++) {
      Cell key = TestCells.random(rnd);
      if (rnd.nextBoolean()) {
        key.setSeqId(rnd.nextBoolean() ? Long.MAX_VALUE : 0);
      }
      int pos = index.seek(key);
      assertThat(pos).as("seed %d key %s", seed, key).isEqualTo(lowerBound(expected, key));
      Iterator<Cell> it = index.iterator(pos);
      for (int k = pos; k < Math.min(pos + 3, expected.size()); k++) {
        assertThat(it.next()).isEqualTo(expected.get(k));
      }
      if (pos == expected.size()) {
        assertThat(it.hasNext()).isFalse();
      }
    }
    // Entry fields round-trip.
    Cell c5 = expected.get(5);
    assertThat(index.length(5)).isEqualTo(c5.length());
    assertThat(index.seqId(5)).isEqualTo(c5.seqId());
    assertThat(alloc.chunk(index.chunkId(5)).cell(index.offset(5), index.length(5), index.seqId(5))).isEqualTo(c5);

    index.close();
    lab.close();
    alloc.checkNoChunksInUse();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void indexKeepsItsDataChunksAliveAfterTheLabCloses(boolean offHeap) {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 16 * SIZE, offHeap);
    List<Cell> expected = sortedCells(new Random(3), 500);
    MemStoreLab lab = new MemStoreLab(alloc);
    ChunkCellIndex.Builder b = ChunkCellIndex.builder(alloc);
    expected.forEach(c -> b.addCopy(lab, c));
    ChunkCellIndex index = b.build();
    lab.close();
    // Recycle whatever is free; the index's chunks must not be among it.
    MemStoreLab other = new MemStoreLab(alloc);
    TestCells.random(new Random(4), 2000).forEach(other::copy);
    List<Cell> all = new ArrayList<>();
    index.iterator(0).forEachRemaining(all::add);
    assertThat(all).containsExactlyElementsOf(expected);
    other.close();
    index.close();
    index.close();
    alloc.checkNoChunksInUse();
  }

  @Test
  void outOfOrderOrDuplicateEntriesAreRejected() {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 0, false);
    List<Cell> cells = sortedCells(new Random(5), 10);
    MemStoreLab lab = new MemStoreLab(alloc);
    ChunkCellIndex.Builder b = ChunkCellIndex.builder(alloc);
    b.addCopy(lab, cells.get(3));
    assertThatThrownBy(() -> b.addCopy(lab, cells.get(2))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.addCopy(lab, cells.get(3))).isInstanceOf(IllegalArgumentException.class);
    b.addCopy(lab, cells.get(4));
    assertThat(b.size()).isEqualTo(2);
    b.abort();
    lab.close();
    alloc.checkNoChunksInUse();
  }

  @Test
  void entriesMustPointIntoLiveChunks() {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 0, false);
    ChunkCellIndex.Builder b = ChunkCellIndex.builder(alloc);
    assertThatThrownBy(() -> b.add(12345, 0, 30, 1)).isInstanceOf(IllegalStateException.class);
    Chunk c = alloc.allocateData();
    assertThatThrownBy(() -> b.add(c.id(), SIZE - 10, 30, 1)).isInstanceOf(IllegalArgumentException.class);
    b.abort();
    c.release();
    alloc.checkNoChunksInUse();
  }

  @Test
  void emptyIndex() {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 0, true);
    ChunkCellIndex index = ChunkCellIndex.builder(alloc).build();
    assertThat(index.size()).isZero();
    assertThat(index.seek(TestCells.random(new Random(1)))).isZero();
    assertThat(index.iterator(0).hasNext()).isFalse();
    assertThat(index.allocatedIndexBytes()).isZero();
    assertThatThrownBy(() -> index.cell(0)).isInstanceOf(IndexOutOfBoundsException.class);
    index.close();
    alloc.checkNoChunksInUse();
  }
}
