package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
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

/** Focused regression tests for engine bugs that {@link EngineModelTest} found. */
class EngineModelRegressionTest {
  private static final byte[] C = Bytes.of("c");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private final Clock.Manual clock = new Clock.Manual(1_000_000);

  private Bellows open() {
    return Bellows.open(dir, EngineOptions.builder().clock(clock).build());
  }

  @Test
  void anExpiredVersionProtectedByMinVersionsIsVisibleFromTheMemoryStore() {
    try (Bellows db = open()) {
      db.createTable(TableDescriptor.builder("t")
          .family(ColumnFamilyDescriptor.builder("c").maxVersions(2).minVersions(1).ttlSeconds(3).build())
          .build());
      Table t = db.getTable("t");
      clock.advance(10_000);
      t.put(new Put(Bytes.of("r")).addColumn(C, Q, 1_000_500, Bytes.of("old")));
      assertThat(Bytes.str(t.get(new Get(Bytes.of("r"))).getValue(C, Q))).isEqualTo("old");
      assertThat(scanRows(t)).isEqualTo(1);
      db.flush("t");
      assertThat(Bytes.str(t.get(new Get(Bytes.of("r"))).getValue(C, Q))).isEqualTo("old");
    }
  }

  private static int scanRows(Table t) {
    List<Result> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        out.add(r);
      }
    }
    return out.size();
  }
}
