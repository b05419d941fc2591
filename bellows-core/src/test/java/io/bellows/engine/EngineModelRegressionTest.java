package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Focused regressions for engine bugs {@link EngineModelTest} found (the major-compaction one is
 * {@code io.bellows.store.MajorCompactionWaitTest}).
 *
 * <p>Time ranges: a version newer than a read's time range is not returned but still takes one of
 * the family's VERSIONS slots, and a newer tombstone still masks older puts (docs/design/scan.md). The
 * memory-store segments and sorted files answered {@code shouldUse} false when all their cells were
 * newer than the range, so the reader skipped them and older versions in the range reappeared.
 */
class EngineModelRegressionTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final byte[] ROW = Bytes.of("r");

  @TempDir Path dir;

  private final Clock.Manual clock = new Clock.Manual(1_000_000);

  private Table oneVersionTable(Bellows db) {
    db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f").maxVersions(1).build()).build());
    return db.getTable("t");
  }

  @Test
  void aNewerVersionOnlyInTheMemoryStoreStillTakesTheOnlySlot() {
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().clock(clock).build())) {
      Table t = oneVersionTable(db);
      t.put(new Put(ROW).addColumn(F, Q, 100, Bytes.of("old")));
      db.flush("t");
      t.put(new Put(ROW).addColumn(F, Q, 200, Bytes.of("new")));
      assertThat(t.get(new Get(ROW).setTimeRange(0, 150)).isEmpty()).isTrue();
      assertThat(scan(t, new Scan().setTimeRange(0, 150))).isEmpty();
    }
  }

  @Test
  void aNewerVersionOnlyInOneFileStillTakesTheOnlySlot() {
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().clock(clock).build())) {
      Table t = oneVersionTable(db);
      t.put(new Put(ROW).addColumn(F, Q, 200, Bytes.of("new")));
      db.flush("t");
      t.put(new Put(ROW).addColumn(F, Q, 100, Bytes.of("old")));
      db.flush("t");
      assertThat(t.get(new Get(ROW).setTimeRange(0, 150)).isEmpty()).isTrue();
      assertThat(scan(t, new Scan().setTimeRange(0, 150))).isEmpty();
      assertThat(Bytes.str(t.get(new Get(ROW)).getValue(F, Q))).isEqualTo("new");
    }
  }

  @Test
  void aNewerFamilyTombstoneOnlyInTheMemoryStoreStillMasksOlderPuts() {
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().clock(clock).build())) {
      Table t = oneVersionTable(db);
      t.put(new Put(ROW).addColumn(F, Q, 100, Bytes.of("old")));
      db.flush("t");
      t.delete(new Delete(ROW).addFamily(F, 300));
      assertThat(t.get(new Get(ROW).setTimeRange(0, 150)).isEmpty()).isTrue();
      assertThat(scan(t, new Scan().addFamily(F).setTimeRange(50, 150).readAllVersions())).isEmpty();
    }
  }

  private static List<Cell> scan(Table t, Scan scan) {
    List<Cell> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.addAll(r.cells());
      }
    }
    return out;
  }
}
