package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A family's own durability ({@code FAMILY_DURABILITY}) decides a write's durability when the write
 * asks for none, the strongest of its families' winning; a write that asks for one keeps it. Seen
 * through the WAL's record count: a SKIP_WAL write appends no record.
 */
class FamilyDurabilityTest {
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  void aFamilysDurabilityAppliesToWritesThatAskForNone() throws Exception {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").durability(Durability.ASYNC_WAL).family("logged")
          .family(ColumnFamilyDescriptor.builder("unlogged").durability(Durability.SKIP_WAL).build()).build());
      db.createTable(TableDescriptor.builder("plain").family("f").build());
      Table t = db.getTable("t");
      Table plain = db.getTable("plain");

      long before = records(db);
      t.put(new Put(Bytes.of("r1")).addColumn(Bytes.of("unlogged"), Q, Bytes.of("v")));
      assertThat(records(db)).as("a write to a SKIP_WAL family only").isEqualTo(before);

      t.put(new Put(Bytes.of("r2")).addColumn(Bytes.of("logged"), Q, Bytes.of("v")));
      assertThat(records(db)).as("a write to a family without its own durability").isEqualTo(before + 1);

      t.put(new Put(Bytes.of("r3")).addColumn(Bytes.of("unlogged"), Q, Bytes.of("v"))
          .addColumn(Bytes.of("logged"), Q, Bytes.of("v")));
      assertThat(records(db)).as("the stronger family wins").isEqualTo(before + 2);

      t.put(new Put(Bytes.of("r4")).addColumn(Bytes.of("unlogged"), Q, Bytes.of("v"))
          .setDurability(Durability.SYNC_WAL));
      assertThat(records(db)).as("a write's own durability wins").isEqualTo(before + 3);

      plain.put(new Put(Bytes.of("r5")).addColumn(Bytes.of("f"), Q, Bytes.of("v")));
      assertThat(records(db)).as("a table whose families have no durability of their own")
          .isEqualTo(before + 4);
    }
  }

  private static long records(Bellows db) {
    return db.metrics().get("wal.records.appended").longValue();
  }
}
