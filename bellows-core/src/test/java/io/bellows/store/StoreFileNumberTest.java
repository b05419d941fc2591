package io.bellows.store;

import io.bellows.schema.TableDescriptor;
import io.bellows.region.OptionsResolver;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.EngineOptions;
import io.bellows.manifest.StoreManifest;
import io.bellows.memstore.InMemoryWork;
import io.bellows.metrics.MetricSet;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store numbers its files from the allocator it is given (the engine's, shared by all stores),
 * never from its own manifest, and its manifest's nextFileId follows that counter.
 */
class StoreFileNumberTest {
  @TempDir Path dir;

  private long seq = 1;

  @Test
  void storesSharingAnAllocatorNumberTheirFilesFromIt() throws IOException {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    AtomicLong counter = new AtomicLong(40);
    // Both families have default settings: one context serves both stores.
    TableDescriptor table = TableDescriptor.builder("t").family("a").family("b").flushSize(64 * 1024).build();
    StoreContext ctx = new StoreContext(OptionsResolver.store(options, table, table.family("a")), options.clock(),
        () -> Long.MAX_VALUE, InMemoryWork.on(Runnable::run), OptionsResolver.chunkAllocator(options), new MetricSet(),
        FileNumberAllocator.over(counter), 12345);
    Store.initialize(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("a"));
    Store.initialize(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("b"));
    Store a = new Store(ColumnFamilyDescriptor.of("a"), dir.resolve("a"), ctx);
    Store b = new Store(ColumnFamilyDescriptor.of("b"), dir.resolve("b"), ctx);
    try {
      flushOne(a, "a");
      flushOne(b, "b");
      flushOne(a, "a");
      assertThat(ids(a)).containsExactly(40L, 42L);
      assertThat(ids(b)).containsExactly(41L);
      assertThat(a.files()).allSatisfy(f -> assertThat(f.engineInstanceId()).isEqualTo(12345));
      // The manifest records the engine counter when written: above every number handed out so far.
      assertThat(StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("a")).nextFileId()).isEqualTo(43);
      assertThat(StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("b")).nextFileId()).isEqualTo(42);

      assertThat(a.compact(true)).isTrue();
      assertThat(ids(a)).containsExactly(43L);
      assertThat(StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("a")).nextFileId()).isEqualTo(44);
      assertThat(counter.get()).isEqualTo(44);
    } finally {
      a.close();
      b.close();
    }
  }

  private void flushOne(Store store, String family) {
    Cell c = Cells.put(Bytes.of("r" + seq), Bytes.of(family), Bytes.of("q"), 10, Bytes.of("v"));
    c.setSeqId(seq++);
    store.add(c);
    assertThat(store.prepareFlush(0)).isTrue();
    store.flush();
  }

  private static List<Long> ids(Store store) {
    return store.files().stream().map(StoreFile::id).toList();
  }
}
