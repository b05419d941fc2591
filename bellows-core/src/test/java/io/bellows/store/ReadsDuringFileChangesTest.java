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
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.SourceClosedException;
import io.bellows.util.EventListener;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers retain a store's files without a lock ({@code StoreFiles.retainLive}) while flushes and
 * compactions replace them and the store closes: every read sees a row written before it began, none
 * fails but with the store closed, and once the readers are done exactly the live files remain on
 * disk (a reference taken and not given back would keep a replaced file; one given back twice would
 * delete a file under a reader, which would then fail).
 */
class ReadsDuringFileChangesTest {
  private static final byte[] FAMILY = Bytes.of("f");
  private static final byte[] QUALIFIER = Bytes.of("q");

  @TempDir Path dir;

  @Test
  @Timeout(120)
  void readersRetainFilesWhileFlushesAndCompactionsReplaceThemAndTheStoreCloses() throws Exception {
    Store store = newStore();
    // The rows every reader looks for, in the first file; later files hold other rows.
    long seq = writeAndFlush(store, "kept", 100, 1);

    AtomicBoolean closed = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      int id = t;
      Thread r = new Thread(() -> {
        try {
          for (int i = 0; ; i++) {
            byte[] row = Bytes.of("kept-" + ((i * 7 + id) % 100));
            List<CellScanner> sources;
            try {
              sources = store.scanners(ScanQuery.builder().singleRow(row).build());
            } catch (SourceClosedException e) {
              assertThat(closed.get()).as("a read failed as closed before the close").isTrue();
              return;
            }
            boolean found = false;
            for (CellScanner s : sources) {
              try (s) {
                s.seek(Cells.firstOnRow(row));
                Cell c = s.next();
                found |= c != null && c.isRow(row);
              }
            }
            assertThat(found).as("row %s", Bytes.toStringBinary(row)).isTrue();
            reads.incrementAndGet();
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }, "reader-" + t);
      readers.add(r);
      r.start();
    }
    for (int round = 0; round < 30; round++) {
      seq = writeAndFlush(store, "churn" + round, 200, seq);
      if (round % 3 == 2) {
        assertThat(store.compact(true)).as("a major compaction of %d files", store.fileCount()).isTrue();
      }
    }
    // Close only once every reader has read, so that the reads above overlapped the changes.
    while (reads.get() < 300 && failures.isEmpty()) {
      Thread.onSpinWait();
    }
    List<Path> live = store.files().stream().map(StoreFile::path).map(dir::relativize).sorted().toList();
    closed.set(true);
    store.close();
    for (Thread r : readers) {
      r.join();
    }
    assertThat(failures).isEmpty();
    assertThat(dataFiles()).as("only the live files are left once the readers are done").isEqualTo(live);
  }

  /**
   * The retry, made to happen: a reader has retained the first of two files when a major compaction
   * replaces both, so the second is gone when the reader gets to it. It must give the first back and
   * retain the compaction's output instead, and the replaced files must be deleted once it does.
   */
  @Test
  @Timeout(60)
  void aReaderThatFindsAFileReleasedGivesBackWhatItHeldAndRetainsTheNewList() throws Exception {
    Store store = newStore();
    long seq = writeAndFlush(store, "a", 100, 1);
    writeAndFlush(store, "b", 100, seq);
    assertThat(store.fileCount()).isEqualTo(2);
    StoreFiles files = filesOf(store);
    CountDownLatch holdsFirst = new CountDownLatch(1);
    CountDownLatch compacted = new CountDownLatch(1);
    files.afterRetainForTest(held -> {
      if (held == 1 && holdsFirst.getCount() > 0) {
        holdsFirst.countDown();
        await(compacted);
      }
    });
    AtomicReference<List<StoreFile>> got = new AtomicReference<>();
    Thread reader = new Thread(() -> got.set(files.retainLive()), "reader");
    reader.start();
    await(holdsFirst);
    assertThat(store.compact(true)).isTrue();
    compacted.countDown();
    reader.join();

    List<StoreFile> live = store.files();
    assertThat(live).hasSize(1);
    assertThat(got.get()).containsExactlyElementsOf(live);
    got.get().forEach(StoreFile::release);
    assertThat(dataFiles()).as("the replaced files are deleted: no reference to them is left")
        .containsExactly(dir.relativize(live.get(0).path()));
    store.close();
  }

  private Store newStore() {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    ColumnFamilyDescriptor family = ColumnFamilyDescriptor.of("f");
    TableDescriptor table = TableDescriptor.builder("t").family(family).flushSize(1 << 20).build();
    StoreContext ctx = new StoreContext(OptionsResolver.store(options, table, family), options.clock(),
        () -> Long.MAX_VALUE, InMemoryWork.on(Runnable::run), OptionsResolver.chunkAllocator(options), new MetricSet(),
        FileNumberAllocator.over(new AtomicLong(1)), 7, "t", new EventListener() {}, BlockCache.NONE,
        LocalFileSystem.INSTANCE, null);
    Store.initialize(LocalFileSystem.INSTANCE, dir);
    return new Store(family, dir, ctx);
  }

  private static StoreFiles filesOf(Store store) throws ReflectiveOperationException {
    Field f = Store.class.getDeclaredField("files");
    f.setAccessible(true);
    return (StoreFiles) f.get(store);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static long writeAndFlush(Store store, String prefix, int rows, long seq) {
    for (int row = 0; row < rows; row++) {
      Cell c = Cells.put(Bytes.of(prefix + "-" + row), FAMILY, QUALIFIER, 10, Bytes.of("v" + seq));
      c.setSeqId(seq++);
      store.add(c);
    }
    assertThat(store.prepareFlush(0)).isTrue();
    store.flush();
    return seq;
  }

  private List<Path> dataFiles() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).map(dir::relativize)
          .filter(p -> p.getFileName().toString().endsWith(".sst"))
          .sorted().toList();
    }
  }
}
