package io.bellows.store;

import io.bellows.schema.TableDescriptor;
import io.bellows.region.OptionsResolver;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.EngineOptions;
import io.bellows.memstore.InMemoryWork;
import io.bellows.metrics.MetricSet;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression (found by EngineModelTest): an explicit major compaction that met a running background
 * compaction returned without doing anything, so tombstones and expired cells it should have removed
 * stayed, and reads differed from the documented post-major-compaction semantics. A major
 * compaction must wait for the running compaction and then rewrite every file.
 */
class MajorCompactionWaitTest {
  @TempDir Path dir;

  @Test
  void majorCompactionWaitsForARunningCompactionInsteadOfSkipping() throws Exception {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    ColumnFamilyDescriptor family = ColumnFamilyDescriptor.of("f");
    TableDescriptor table = TableDescriptor.builder("t").family(family).flushSize(64 * 1024).build();
    StoreContext ctx = new StoreContext(OptionsResolver.store(options, table, family), options.clock(),
        () -> Long.MAX_VALUE, InMemoryWork.on(Runnable::run), OptionsResolver.chunkAllocator(options), new MetricSet(),
        FileNumberAllocator.over(new AtomicLong(1)), 7);
    Store.initialize(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
    Store store = new Store(family, dir, ctx);
    try {
      long seq = 1;
      for (int file = 0; file < 2; file++) {
        Cell c = Cells.put(Bytes.of("r" + file), Bytes.of("f"), Bytes.of("q"), 10, Bytes.of("v"));
        c.setSeqId(seq++);
        store.add(c);
        assertThat(store.prepareFlush(0)).isTrue();
        store.flush();
      }
      assertThat(store.fileCount()).isEqualTo(2);

      // Stand in for a background compaction: hold the store's compaction lock from this thread.
      ReentrantLock lock = compactionLock(store);
      lock.lock();
      AtomicBoolean result = new AtomicBoolean();
      Thread major = new Thread(() -> result.set(store.compact(true)), "major");
      try {
        major.start();
        // Wait until the major compaction either queues for the lock (fixed) or has already given up.
        while (!lock.hasQueuedThread(major) && major.isAlive()) {
          Thread.onSpinWait();
        }
        assertThat(major.isAlive()).as("a major compaction must wait for the running one, not return").isTrue();
      } finally {
        lock.unlock();
      }
      major.join();
      assertThat(result.get()).isTrue();
      assertThat(store.fileCount()).isEqualTo(1);
    } finally {
      store.close();
    }
  }

  private static ReentrantLock compactionLock(Store store) throws ReflectiveOperationException {
    Field f = Store.class.getDeclaredField("compactionLock");
    f.setAccessible(true);
    return (ReentrantLock) f.get(store);
  }
}
