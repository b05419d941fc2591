package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.Durability;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Limits that keep memory and the WAL bounded: blocking writes and WAL-size flushes. */
class BackPressureTest {
  @TempDir Path dir;

  @Test
  void writesBlockAtTheMemoryLimitAndResumeAfterFlush() {
    EngineOptions opts = EngineOptions.builder().set(Knobs.MEMSTORE_BLOCK_MULTIPLIER, 1.0).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family("f").build());
      Table t = db.getTable("t");
      byte[] value = new byte[1000];
      for (int i = 0; i < 2000; i++) {
        t.put(new Put(Bytes.of(String.format("r%06d", i))).addColumn(Bytes.of("f"), Bytes.of("q"), value)
            .setDurability(Durability.SKIP_WAL));
      }
      // 2 MB through a 64 KiB flush size at multiplier 1: writers must have waited for flushes.
      assertThat(db.metrics().get("writes.blocked.count").longValue()).isPositive();
      assertThat(db.metrics().get("flush.count").longValue()).isGreaterThan(10);
      assertThat(t.get(new Get(Bytes.of("r000000"))).isEmpty()).isFalse();
      assertThat(t.get(new Get(Bytes.of("r001999"))).isEmpty()).isFalse();
    }
  }

  @Test
  void tooManyWalFilesFlushTheTableHoldingTheOldestEdit() {
    EngineOptions opts = EngineOptions.builder()
        .set(Knobs.WAL_ROLL_SIZE, 64L * 1024)
        .set(Knobs.WAL_MAX_FILES, 2)
        .build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      byte[] value = new byte[500];
      for (int i = 0; i < 2000; i++) {
        t.put(new Put(Bytes.of(String.format("r%06d", i))).addColumn(Bytes.of("f"), Bytes.of("q"), value)
            .setDurability(Durability.ASYNC_WAL));
      }
      assertThat(db.metrics().get("flush.requested.by.wal.size").longValue()).isPositive();
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.getTable("t").get(new Get(Bytes.of("r001999"))).isEmpty()).isFalse();
    }
  }
}
