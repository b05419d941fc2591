package io.bellows.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.EngineOptions;
import io.bellows.memstore.InMemoryWork;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store's newest timestamp (what a replicated region's new leader stamps above): none when
 * empty, then the newest of its memory segments and files, tombstones included, before and after
 * a flush moves the cells to a file.
 */
class StoreNewestTimestampTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  void theNewestTimestampOfMemoryAndFiles() {
    EngineOptions options = EngineOptions.defaults();
    ColumnFamilyDescriptor family = ColumnFamilyDescriptor.of("f");
    TableDescriptor table = TableDescriptor.builder("t").family(family).build();
    StoreContext ctx = new StoreContext(OptionsResolver.store(options, table, family), options.clock(),
        () -> Long.MAX_VALUE, InMemoryWork.on(Runnable::run), OptionsResolver.chunkAllocator(options), new MetricSet(),
        FileNumberAllocator.over(new AtomicLong(1)), 1);
    Store.initialize(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("f"));
    Store store = new Store(family, dir.resolve("f"), ctx);
    try {
      assertThat(store.newestTimestamp()).isEqualTo(Long.MIN_VALUE);
      add(store, Cells.put(Bytes.of("a"), F, Q, 700, Bytes.of("x")), 1);
      add(store, Cells.put(Bytes.of("b"), F, Q, 300, Bytes.of("y")), 2);
      assertThat(store.newestTimestamp()).isEqualTo(700);
      assertThat(store.prepareFlush(2)).isTrue();
      store.flush();
      assertThat(store.newestTimestamp()).as("from the file").isEqualTo(700);
      add(store, Cells.create(Bytes.of("c"), F, Q, 900, CellType.DELETE_COLUMN, new byte[0]), 3);
      assertThat(store.newestTimestamp()).as("a tombstone in memory").isEqualTo(900);
    } finally {
      store.close();
    }
  }

  private static void add(Store store, Cell cell, long seqId) {
    cell.setSeqId(seqId);
    store.add(cell);
  }
}
