package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.memstore.MemStoreFixtures.Form;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.scan.CellScanner;
import io.bellows.util.Bytes;
import io.bellows.config.MemStorePolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real threads: writers, readers and a flusher run at once while in-memory flushes and compactions
 * run in the background. Afterwards every added cell is found exactly once, either in a flushed
 * snapshot or in the memory store, and the accounting matches.
 */
class ConcurrentMemStoreTest {
  static List<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (MemStorePolicy p : MemStorePolicy.values()) {
      for (Form f : Form.ALL) {
        out.add(Arguments.of(p, f));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void everyCellExactlyOnceAfterConcurrentWritesReadsAndFlushes(MemStorePolicy policy, Form form) throws Exception {
    ExecutorService bg = Executors.newFixedThreadPool(2);
    ChunkAllocator chunks = form.allocator();
    MemStoreContext ctx = MemStoreFixtures.context(MemStoreFixtures.family(policy, 0.01, 2, 0.2, form), 200_000, bg,
        MemStoreFixtures::keepAll, MemStoreContext.Listener.NONE, chunks);
    MemStore ms = MemStores.create(ctx);
    int writers = 4;
    int perWriter = 2500;
    AtomicLong seq = new AtomicLong(1L << 33);
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch writersDone = new CountDownLatch(writers);
    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<Cell> flushed = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();

    for (int w = 0; w < writers; w++) {
      int id = w;
      threads.add(new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < perWriter; i++) {
            ms.add(cell("row" + (i % 500), "w" + id, i, seq.incrementAndGet()));
          }
        } catch (Throwable t) {
          errors.add(t);
        } finally {
          writersDone.countDown();
        }
      }));
    }
    for (int r = 0; r < 2; r++) {
      threads.add(new Thread(() -> {
        try {
          start.await();
          while (!stop.get()) {
            for (CellScanner s : ms.scanners()) {
              try (s) {
                s.seek(SegmentCompactor.firstKey());
                Cell prev = null;
                for (Cell c = s.next(); c != null; c = s.next()) {
                  if (prev != null && CellComparator.INSTANCE.compare(prev, c) >= 0) {
                    throw new AssertionError("out of order: " + prev + " then " + c);
                  }
                  checkIntact(c);
                  prev = c;
                }
              }
            }
          }
        } catch (Throwable t) {
          errors.add(t);
        }
      }));
    }
    Thread flusher = new Thread(() -> {
      try {
        start.await();
        while (!stop.get()) {
          FlushSnapshot snap = ms.snapshot();
          try (CellScanner s = snap.scanner()) {
            s.seek(SegmentCompactor.firstKey());
            for (Cell c = s.next(); c != null; c = s.next()) {
              checkIntact(c);
              flushed.add(c);
            }
          }
          ms.releaseSnapshot(snap);
        }
      } catch (Throwable t) {
        errors.add(t);
      }
    });
    threads.add(flusher);
    threads.forEach(Thread::start);
    start.countDown();
    assertThat(writersDone.await(60, TimeUnit.SECONDS)).isTrue();
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    bg.shutdown();
    assertThat(bg.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    assertThat(errors).isEmpty();

    Set<Cell> inMemory = MemStoreFixtures.readAll(ms.scanners());
    Set<Cell> seen = new HashSet<>(flushed);
    assertThat(seen).as("no cell flushed twice").hasSize(flushed.size());
    for (Cell c : inMemory) {
      assertThat(seen.add(c)).as("cell both flushed and in memory: " + c).isTrue();
    }
    assertThat(seen).hasSize(writers * perWriter);
    assertThat(ms.size().cellCount()).isEqualTo(inMemory.size());
    ms.releaseSnapshot(ms.snapshot());
    assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
    ms.close();
    // Cells handed out own their bytes: still intact after every chunk went back to the pool.
    flushed.forEach(ConcurrentMemStoreTest::checkIntact);
    chunks.checkNoChunksInUse();
  }

  /** A cell's value names its sequence id: recycled chunk memory would show up as a mismatch. */
  private static void checkIntact(Cell c) {
    String v = Bytes.str(c.value());
    if (!v.equals("value-" + c.seqId())) {
      throw new AssertionError("cell " + c + " has value " + v);
    }
  }
}
