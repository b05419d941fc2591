package io.bellows.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.client.Put;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.ValueFilter;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan calls its query's check every so many rows it reads, the rows its filter drops included,
 * so that a filter that keeps nothing cannot hold a scan past its caller's deadline.
 */
class ScanCheckTest {
  private static final byte[] F = Bytes.of("f");
  @TempDir Path dir;

  private static final class Stop extends RuntimeException {
    Stop() {
      super("deadline");
    }
  }

  private static TableRef rows(LocalEngine engine, int n) {
    engine.createTable(TableDescriptor.builder("t").family("f").build());
    TableRef t = engine.table("t");
    List<RowMutation> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String row = String.format("r%05d", i);
      batch.add(RowMutation.of(Bytes.of(row), new Put(row).addColumn(F, Bytes.of("q"), Bytes.of("v" + i)).cells(),
          Durability.SYNC_WAL));
    }
    engine.mutate(t, batch);
    return t;
  }

  @Test
  void aFilterThatKeepsNothingStillChecksEveryFewRows() {
    try (LocalEngine engine = LocalEngine.open(dir, EngineOptions.defaults())) {
      TableRef t = rows(engine, 1_000);
      AtomicInteger checks = new AtomicInteger();
      ScanQuery query = ScanQuery.builder()
          .filter(new ValueFilter(CompareOperator.EQUAL, ByteComparator.regex("nothing matches")))
          .check(() -> {
            if (checks.incrementAndGet() == 5) {
              throw new Stop();
            }
          }, 10)
          .build();
      try (RowScanner s = engine.scan(t, query)) {
        assertThatThrownBy(() -> s.nextRow(new ArrayList<>())).isInstanceOf(Stop.class);
      }
      assertThat(checks.get()).isEqualTo(5); // rows 10, 20, .. 50 of the 1000 the filter drops
    }
  }

  @Test
  void withoutAStopTheCheckChangesNothingAndIsCalledPerPeriod() {
    try (LocalEngine engine = LocalEngine.open(dir, EngineOptions.defaults())) {
      TableRef t = rows(engine, 100);
      AtomicInteger checks = new AtomicInteger();
      ScanQuery query = ScanQuery.builder().check(checks::incrementAndGet, 7).build();
      List<Cell> cells = new ArrayList<>();
      int rows = 0;
      try (RowScanner s = engine.scan(t, query)) {
        while (s.nextRow(cells)) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(100);
      assertThat(checks.get()).isEqualTo(100 / 7);
      assertThat(query.toBuilder().build().checkEveryRows()).isEqualTo(7);
    }
  }

  @Test
  void aCheckNeedsAPeriodOfAtLeastOneRow() {
    assertThatThrownBy(() -> ScanQuery.builder().check(() -> {}, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
