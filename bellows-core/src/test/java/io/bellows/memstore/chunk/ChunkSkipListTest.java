package io.bellows.memstore.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(SeedExtension.class)
class ChunkSkipListTest {
  private static final int SIZE = 16 * 1024;

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void concurrentInsertsMatchAConcurrentSkipListSet(boolean offHeap, Seed s) throws Exception {
    long seed = s.value();
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 64 * SIZE, offHeap);
    MemStoreLab lab = new MemStoreLab(alloc);
    ChunkSkipList list = new ChunkSkipList(alloc);
    NavigableSet<Cell> reference = new ConcurrentSkipListSet<>(CellComparator.INSTANCE);
    int threads = 4;
    int perThread = 3000;
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    LongAdder accepted = new LongAdder();
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Random rnd = new Random(seed + t % 2); // pairs of threads insert the same cells
      ts.add(new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < perThread; i++) {
            Cell c = TestCells.random(rnd);
            boolean inserted = list.insertCopy(lab, c);
            if (inserted) {
              accepted.increment();
            }
            reference.add(TestCells.detached(c));
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }));
    }
    // A concurrent reader: every pass must be strictly ordered.
    Thread reader = new Thread(() -> {
      try {
        start.await();
        while (writing.get()) {
          Cell prev = null;
          for (Iterator<Cell> it = list.iterator(); it.hasNext(); ) {
            Cell c = it.next();
            if (prev != null && CellComparator.INSTANCE.compare(prev, c) >= 0) {
              throw new AssertionError("out of order: " + prev + " then " + c);
            }
            prev = c;
          }
        }
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    });
    reader.start();
    ts.forEach(Thread::start);
    start.countDown();
    for (Thread t : ts) {
      t.join();
    }
    writing.set(false);
    reader.join();
    assertThat(failure.get()).as("seed %d", seed).isNull();

    List<Cell> all = new ArrayList<>();
    list.iterator().forEachRemaining(all::add);
    assertThat(all).as("seed %d", seed).containsExactlyElementsOf(reference);
    assertThat(list.size()).isEqualTo(reference.size()).isEqualTo(accepted.sum());
    assertThat(list.dataBytes()).isEqualTo(reference.stream().mapToLong(Cell::length).sum());

    List<Cell> sorted = new ArrayList<>(reference);
    Random rnd = new Random(seed);
    for (int i = 0; i < 1000; i++) {
      Cell key = rnd.nextInt(4) == 0 ? sorted.get(rnd.nextInt(sorted.size())) : TestCells.random(rnd);
      if (rnd.nextInt(3) == 0) {
        key = TestCells.detached(key);
        key.setSeqId(rnd.nextBoolean() ? Long.MAX_VALUE : 0);
      }
      Iterator<Cell> got = list.iteratorFrom(key);
      Iterator<Cell> want = reference.tailSet(key, true).iterator();
      for (int k = 0; k < 3 && want.hasNext(); k++) {
        assertThat(got.next()).as("seed %d key %s", seed, key).isEqualTo(want.next());
      }
      if (!want.hasNext()) {
        assertThat(got.hasNext()).isFalse();
      }
    }
    list.close();
    lab.close();
    alloc.checkNoChunksInUse();
  }

  @Test
  void duplicatesAreRejectedAndLeaveTheListUnchanged() {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 0, false);
    try (MemStoreLab lab = new MemStoreLab(alloc); ChunkSkipList list = new ChunkSkipList(alloc)) {
      Cell c = TestCells.random(new Random(9));
      assertThat(list.insertCopy(lab, c)).isTrue();
      assertThat(list.insertCopy(lab, TestCells.detached(c))).isFalse();
      Cell newer = TestCells.detached(c);
      newer.setSeqId(c.seqId() + 1);
      assertThat(list.insertCopy(lab, newer)).isTrue();
      List<Cell> all = new ArrayList<>();
      list.iterator().forEachRemaining(all::add);
      assertThat(all).containsExactly(newer, c);
      assertThat(list.size()).isEqualTo(2);
      assertThat(list.dataBytes()).isEqualTo(2L * c.length());
    }
    alloc.checkNoChunksInUse();
  }

  @Test
  void emptyListAndClosedList() {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 0, true);
    MemStoreLab lab = new MemStoreLab(alloc);
    ChunkSkipList list = new ChunkSkipList(alloc);
    assertThat(list.iterator().hasNext()).isFalse();
    assertThat(list.iteratorFrom(TestCells.random(new Random(1))).hasNext()).isFalse();
    assertThat(list.size()).isZero();
    assertThat(list.nodeBytes()).isEqualTo(ChunkSkipList.nodeSize(ChunkSkipList.MAX_LEVEL));
    list.close();
    assertThatThrownBy(() -> list.insertCopy(lab, TestCells.random(new Random(1))))
        .isInstanceOf(IllegalStateException.class);
    lab.close();
    alloc.checkNoChunksInUse();
  }

  @Test
  void nodesSpanManyChunksAndAccountingIsExact() {
    ChunkAllocator alloc = new ChunkAllocator(4096, 0, false);
    MemStoreLab lab = new MemStoreLab(alloc);
    ChunkSkipList list = new ChunkSkipList(alloc);
    int inserted = 0;
    Random rnd = new Random(11);
    for (int i = 0; i < 5000; i++) {
      if (list.insertCopy(lab, TestCells.random(rnd))) {
        inserted++;
      }
    }
    assertThat(list.size()).isEqualTo(inserted);
    // Every node is 16 bytes plus 8 per level (1 + 1/4 + 1/16 + ... ≈ 1.33 levels on average).
    long nodes = list.nodeBytes() - ChunkSkipList.nodeSize(ChunkSkipList.MAX_LEVEL);
    assertThat(nodes % 8).isZero();
    assertThat(nodes).isBetween(24L * inserted, 29L * inserted);
    assertThat(list.allocatedNodeBytes()).isGreaterThanOrEqualTo(list.nodeBytes());
    assertThat(list.allocatedNodeBytes() % 4096).isZero();
    assertThat(list.allocatedNodeBytes()).isGreaterThan(4096L * 10);
    // Retained by a reader, the list survives its close.
    assertThat(list.tryRetain()).isTrue();
    list.close();
    assertThat(list.iterator().hasNext()).isTrue();
    list.release();
    lab.close();
    alloc.checkNoChunksInUse();
  }

  @Test
  void cellReferencePacksChunkIdLevelAndOffset() {
    int maxId = Integer.MAX_VALUE; // generation 127, slot 2^24 - 1
    for (int level = 1; level <= ChunkSkipList.MAX_LEVEL; level++) {
      for (int offset : new int[] {0, 8, 12345, ChunkSkipList.MAX_CELL_OFFSET}) {
        for (int id : new int[] {1, 1 << 24 | 1, maxId}) {
          long ref = ChunkSkipList.cellRef(id, offset, level);
          assertThat(ChunkSkipList.refChunkId(ref)).isEqualTo(id);
          assertThat(ChunkSkipList.refOffset(ref)).isEqualTo(offset);
          assertThat(ChunkSkipList.refLevel(ref)).isEqualTo(level);
        }
      }
    }
    // The largest chunk (64 MiB) still fits the 28-bit offset.
    assertThat((long) ChunkSkipList.MAX_CELL_OFFSET).isGreaterThanOrEqualTo(64L * 1024 * 1024 - 1);
  }

  @Test
  void offsetsBeyondTwentyEightBitsAreRejected() {
    ChunkAllocator alloc = new ChunkAllocator(SIZE, 0, false);
    try (ChunkSkipList list = new ChunkSkipList(alloc)) {
      assertThatThrownBy(() -> list.insert(1, ChunkSkipList.MAX_CELL_OFFSET + 1, 40, 1))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(list.size()).isZero();
    }
    alloc.checkNoChunksInUse();
  }

  @Test
  void lengthsComeFromTheCellHeaderIncludingJumboCells() {
    // 4 KiB chunks: some cells are larger than a chunk and land in jumbo chunks at offset 0.
    ChunkAllocator alloc = new ChunkAllocator(4096, 0, false);
    MemStoreLab lab = new MemStoreLab(alloc);
    ChunkSkipList list = new ChunkSkipList(alloc);
    Random rnd = new Random(23);
    NavigableSet<Cell> reference = new ConcurrentSkipListSet<>(CellComparator.INSTANCE);
    for (int i = 0; i < 300; i++) {
      Cell c = i % 10 == 0 ? big(i) : TestCells.random(rnd);
      if (reference.add(TestCells.detached(c))) {
        assertThat(list.insertCopy(lab, c)).isTrue();
      }
    }
    assertThat(alloc.stats().jumboInUse()).isEqualTo(30);
    List<Cell> all = new ArrayList<>();
    list.iterator().forEachRemaining(all::add);
    assertThat(all).containsExactlyElementsOf(reference);
    for (int i = 0; i < all.size(); i++) {
      assertThat(all.get(i).length()).isEqualTo(new ArrayList<>(reference).get(i).length());
    }
    ChunkEntryCursor cur = list.entries();
    for (Cell want : reference) {
      assertThat(cur.valid()).isTrue();
      assertThat(cur.length()).isEqualTo(want.length());
      assertThat(cur.seqId()).isEqualTo(want.seqId());
      cur.advance();
    }
    assertThat(cur.valid()).isFalse();
    assertThat(list.dataBytes()).isEqualTo(reference.stream().mapToLong(Cell::length).sum());
    list.close();
    lab.close();
    alloc.checkNoChunksInUse();
  }

  private static Cell big(int i) {
    Cell c = Cells.create(Bytes.of("big" + i), Bytes.of("f"), Bytes.of("q"), i, CellType.PUT, new byte[5000 + i]);
    c.setSeqId(i);
    return c;
  }

  /** The same cells inserted in the same order give the same nodes: footprints replay exactly. */
  @Test
  void theSameInsertsGiveTheSameNodeBytes(Seed s) {
    long[] nodeBytes = new long[2];
    for (int run = 0; run < 2; run++) {
      ChunkAllocator alloc = new ChunkAllocator(SIZE, 64 * SIZE, false);
      MemStoreLab lab = new MemStoreLab(alloc);
      ChunkSkipList list = new ChunkSkipList(alloc);
      Random rnd = s.random();
      for (int i = 0; i < 5000; i++) {
        list.insertCopy(lab, TestCells.random(rnd));
      }
      nodeBytes[run] = list.nodeBytes();
    }
    assertThat(nodeBytes[1]).as(s.toString()).isEqualTo(nodeBytes[0]);
  }

  /** Levels are geometric with p = 1/4, as a random generator's would be (the hash is fixed: exact counts). */
  @Test
  void levelsAreGeometricWithAQuarterPerLevel() {
    int n = 1 << 20;
    int[] perLevel = new int[ChunkSkipList.MAX_LEVEL + 1];
    for (int i = 0; i < n; i++) {
      perLevel[ChunkSkipList.levelOf(1 + i % 7, (i * 48) & 0xFFFFFF, 1000L + i)]++;
    }
    assertThat(perLevel[1] / (double) n).isBetween(0.74, 0.76);
    assertThat(perLevel[2] / (double) n).isBetween(0.18, 0.195);
    assertThat(perLevel[3] / (double) n).isBetween(0.04, 0.055);
  }
}
