package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.util.EngineClosedException;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table handle and its scanners belong to one table: they fail once it is disabled or dropped
 * or the engine is closed, and a handle never reaches a new table that took its name (as in HBase).
 */
class TableHandleTest {
  @TempDir Path dir;
  private Bellows db;

  @BeforeEach
  void fill() {
    db = Bellows.open(dir, EngineOptions.defaults());
    db.createTable(TableDescriptor.builder("t").family("f").build());
    for (int i = 0; i < 10; i++) {
      db.getTable("t").put(new Put("row" + i).addColumn("f", "q", "v"));
    }
  }

  @org.junit.jupiter.api.AfterEach
  void close() {
    db.close();
  }

  @Test
  void aScannerFailsOnceItsTableIsDropped() {
    try (ResultScanner s = db.getTable("t").getScanner(new Scan())) {
      assertThat(s.next()).isNotNull();
      db.disableTable("t");
      assertThatThrownBy(s::next).isInstanceOf(TableNotEnabledException.class);
    }
    try (ResultScanner s = openScannerThenDrop()) {
      assertThatThrownBy(s::next).isInstanceOf(TableNotFoundException.class);
    }
  }

  private ResultScanner openScannerThenDrop() {
    db.enableTable("t");
    ResultScanner s = db.getTable("t").getScanner(new Scan());
    db.disableTable("t");
    db.dropTable("t");
    return s;
  }

  @Test
  void aScannerFailsOnceTheEngineIsClosed() {
    ResultScanner s = db.getTable("t").getScanner(new Scan());
    assertThat(s.next()).isNotNull();
    db.close();
    assertThatThrownBy(s::next).isInstanceOf(EngineClosedException.class);
    s.close();
  }

  @Test
  void anOldHandleNeverWritesIntoANewTableOfTheSameName() {
    Table old = db.getTable("t");
    db.disableTable("t");
    assertThatThrownBy(() -> old.get(new Get("row1"))).isInstanceOf(TableNotEnabledException.class);
    db.enableTable("t");
    assertThat(old.get(new Get("row1")).isEmpty()).as("the same table, enabled again").isFalse();
    db.disableTable("t");
    db.dropTable("t");
    db.createTable(TableDescriptor.builder("t").family("f").build());
    assertThatThrownBy(() -> old.put(new Put("stale").addColumn("f", "q", "v")))
        .isInstanceOf(TableNotFoundException.class).hasMessageContaining("dropped");
    assertThatThrownBy(() -> old.getScanner(new Scan())).isInstanceOf(TableNotFoundException.class);
    assertThat(db.getTable("t").get(new Get("stale")).isEmpty()).isTrue();
    db.getTable("t").put(new Put("fresh").addColumn("f", "q", "v"));
    assertThat(Bytes.str(db.getTable("t").get(new Get("fresh")).getValue(Bytes.of("f"), Bytes.of("q")))).isEqualTo("v");
  }
}
