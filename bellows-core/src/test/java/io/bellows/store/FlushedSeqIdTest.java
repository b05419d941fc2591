package io.bellows.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import io.bellows.memstore.InMemoryWork;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush records as flushed every edit the store received before its snapshot, including edits
 * whose cells an in-memory compaction dropped (masked by a delete marker, or surplus versions).
 *
 * <p>Found by {@code PowerLossTest}: the flush recorded only the snapshot's largest sequence id. A
 * put masked by a family delete was dropped in memory, the flush recorded the marker's sequence id,
 * a major compaction then dropped the marker from the files, and after a power loss the WAL replay
 * found the put's edit above the recorded sequence id and applied it: the deleted cell was back.
 */
class FlushedSeqIdTest {
  private static final byte[] ROW = Bytes.of("r");
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  void aFlushCoversEditsDroppedInMemory() {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    // Every cell fills the active segment, and EAGER compacts the pipeline at once on the writer's
    // thread (ADAPTIVE drops cells the same way, when its draw says so).
    ColumnFamilyDescriptor family = ColumnFamilyDescriptor.builder("f").memStorePolicy(MemStorePolicy.EAGER)
        .set(Knobs.IN_MEMORY_FLUSH_FRACTION, 0.001).build();
    TableDescriptor table = TableDescriptor.builder("t").family(family).flushSize(64 * 1024).build();
    StoreContext ctx = new StoreContext(OptionsResolver.store(options, table, family), options.clock(),
        () -> Long.MAX_VALUE, InMemoryWork.on(Runnable::run), OptionsResolver.chunkAllocator(options), new MetricSet(),
        FileNumberAllocator.over(new AtomicLong(1)), 1);
    Store.initialize(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("f"));
    Store store = new Store(family, dir.resolve("f"), ctx);
    try {
      add(store, Cells.create(ROW, F, new byte[0], 500, CellType.DELETE_FAMILY, new byte[0]), 1);
      add(store, Cells.put(ROW, F, Q, 400, Bytes.of("masked")), 2); // older than the marker: masked
      add(store, Cells.put(ROW, F, Q, 300, Bytes.of("masked too")), 3);
      assertThat(store.metrics().get("memstore.cells.eliminated").longValue()).as("puts dropped in memory")
          .isGreaterThan(0);

      assertThat(store.prepareFlush(3)).isTrue();
      store.flush();
      assertThat(store.flushedSeqId()).as("edits 2 and 3 are covered by the flush: the WAL replay skips them")
          .isEqualTo(3);
    } finally {
      store.close();
    }
  }

  private static void add(Store store, Cell cell, long seqId) {
    cell.setSeqId(seqId);
    store.add(cell);
  }
}
