package io.bellows.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cache.BlockCache;
import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.EngineOptions;
import io.bellows.fs.LocalFileSystem;
import io.bellows.memstore.InMemoryWork;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.EventListener;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a store does not wait for a running compaction to rewrite its files: the compaction stops,
 * commits nothing and deletes its unfinished output, and the store's files stay as they were (a YCSB
 * load of 2M rows waited up to 11 s in its close for one). Here the close comes while the compaction has
 * begun and not yet written a cell: the compaction, as it begins, starts the close on another thread
 * and goes on only once that close waits for the store's compaction lock.
 */
class CloseStopsCompactionTest {
  @TempDir Path dir;

  @Test
  @Timeout(60)
  void aCloseStopsTheRunningCompactionWhichCommitsNothing() throws Exception {
    AtomicReference<Store> storeRef = new AtomicReference<>();
    AtomicReference<Thread> closer = new AtomicReference<>();
    EventListener closeOnBegin = new EventListener() {
      @Override
      public void compactionBegin(CompactionInfo info) {
        Store store = storeRef.get();
        Thread t = new Thread(store::close, "closer");
        closer.set(t);
        t.start();
        ReentrantLock lock = compactionLock(store);
        while (!lock.hasQueuedThread(t) && t.isAlive()) {
          Thread.onSpinWait(); // until the close waits for this compaction
        }
      }
    };
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    ColumnFamilyDescriptor family = ColumnFamilyDescriptor.of("f");
    TableDescriptor table = TableDescriptor.builder("t").family(family).flushSize(64 * 1024).build();
    StoreContext ctx = new StoreContext(OptionsResolver.store(options, table, family), options.clock(),
        () -> Long.MAX_VALUE, InMemoryWork.on(Runnable::run), OptionsResolver.chunkAllocator(options), new MetricSet(),
        FileNumberAllocator.over(new AtomicLong(1)), 7, "t", closeOnBegin, BlockCache.NONE, LocalFileSystem.INSTANCE,
        null);
    Store.initialize(LocalFileSystem.INSTANCE, dir);
    Store store = new Store(family, dir, ctx);
    storeRef.set(store);
    long seq = 1;
    for (int file = 0; file < 2; file++) {
      for (int row = 0; row < 1000; row++) {
        Cell c = Cells.put(Bytes.of("r" + file + "-" + row), Bytes.of("f"), Bytes.of("q"), 10, Bytes.of("v"));
        c.setSeqId(seq++);
        store.add(c);
      }
      assertThat(store.prepareFlush(0)).isTrue();
      store.flush();
    }
    List<Path> before = files();
    assertThat(store.fileCount()).isEqualTo(2);

    AtomicBoolean compacted = new AtomicBoolean(true);
    compacted.set(store.compact(true));
    closer.get().join();

    assertThat(compacted.get()).as("the compaction stopped for the close").isFalse();
    assertThat(files()).as("the store's files as they were: no output, no unfinished file").isEqualTo(before);
  }

  private List<Path> files() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).map(dir::relativize).sorted().toList();
    }
  }

  private static ReentrantLock compactionLock(Store store) {
    try {
      Field f = Store.class.getDeclaredField("compactionLock");
      f.setAccessible(true);
      return (ReentrantLock) f.get(store);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
