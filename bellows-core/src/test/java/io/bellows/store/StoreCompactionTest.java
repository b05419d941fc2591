package io.bellows.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.EngineOptions;
import io.bellows.fs.LocalFileSystem;
import io.bellows.memstore.InMemoryWork;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.scan.CellScanner;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.SourceClosedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store's compaction job and its file set: the output replaces its inputs in one manifest write,
 * the inputs' files stay until their last reader closes, the policy's pick is what a minor
 * compaction merges, and a closed store's file set refuses reads.
 */
class StoreCompactionTest {
  @TempDir Path dir;
  private Store store;
  private long seq = 1;

  @BeforeEach
  void open() {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    ColumnFamilyDescriptor family = ColumnFamilyDescriptor.of("f");
    TableDescriptor table = TableDescriptor.builder("t").family(family).flushSize(64 * 1024).build();
    StoreContext ctx = new StoreContext(OptionsResolver.store(options, table, family), options.clock(),
        () -> Long.MAX_VALUE, InMemoryWork.on(Runnable::run), OptionsResolver.chunkAllocator(options), new MetricSet(),
        FileNumberAllocator.over(new AtomicLong(1)), 7);
    Store.initialize(LocalFileSystem.INSTANCE, dir);
    store = new Store(family, dir, ctx);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private void flushOne(String row) {
    Cell c = Cells.put(Bytes.of(row), Bytes.of("f"), Bytes.of("q"), 10, Bytes.of("v" + seq));
    c.setSeqId(seq++);
    store.add(c);
    assertThat(store.prepareFlush(0)).isTrue();
    store.flush();
  }

  @Test
  void inputsStayOnDiskUntilTheirLastReaderClosesAndThenGo() throws Exception {
    flushOne("a");
    flushOne("b");
    flushOne("c");
    List<Path> inputs = store.files().stream().map(StoreFile::path).toList();
    List<CellScanner> reader = store.scanners(null);
    try {
      assertThat(store.compact(true)).isTrue();
      assertThat(store.fileCount()).isEqualTo(1);
      assertThat(store.files().get(0).cellCount()).isEqualTo(3);
      assertThat(inputs).allSatisfy(p -> assertThat(Files.exists(p)).as("%s while read", p).isTrue());
    } finally {
      reader.forEach(CellScanner::close);
    }
    assertThat(inputs).allSatisfy(p -> assertThat(Files.exists(p)).as("%s after its reader closed", p).isFalse());
    assertThat(store.metrics()).containsEntry("compaction.count", 1L).containsEntry("compaction.major.count", 1L);
  }

  @Test
  void aMinorCompactionMergesWhatThePolicyPicksAndKeepsAgeOrder() {
    // The default policy merges at least three files of similar size: three of them here.
    for (int i = 0; i < 3; i++) {
      flushOne("r" + i);
    }
    List<Long> picked = store.selectMinor().stream().map(StoreFile::id).toList();
    assertThat(picked).hasSize(3);
    assertThat(store.compact(false)).isTrue();
    flushOne("z"); // newer than the output: listed after it
    List<StoreFile> now = store.files();
    assertThat(now).hasSize(2);
    assertThat(now.get(0).id()).isNotIn(picked);
    assertThat(now.get(0).cellCount()).isEqualTo(3);
    assertThat(now.get(1).cellCount()).isEqualTo(1);
    assertThat(store.selectMinor()).isEmpty();
    assertThat(store.compact(false)).isFalse();
  }

  @Test
  void aClosedStoreRefusesReadsAndHasNoFilesToVerify() {
    flushOne("a");
    List<Path> before = new ArrayList<>();
    store.files().forEach(f -> before.add(f.path()));
    store.close();
    assertThatThrownBy(() -> store.scanners(null)).isInstanceOf(SourceClosedException.class);
    assertThat(store.verifyFiles()).isEmpty();
    assertThat(store.compact(true)).isFalse();
    assertThat(before).allSatisfy(p -> assertThat(Files.exists(p)).isTrue()); // closing deletes nothing
  }
}
