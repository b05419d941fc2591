package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.Compression;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.EventListener;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The event listener API: what a normal workload reports, on which threads, and that a bad listener is harmless. */
class EventListenerTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  @Timeout(60)
  void flushesAndCompactionsAreReportedWithTheirSizes() throws Exception {
    RecordingListener rec = new RecordingListener();
    // No background minor compaction of three files: the one compaction is the explicit major one.
    EngineOptions opts = EngineOptions.builder().set(Knobs.COMPACTION_MIN_FILES, 10).eventListener(rec).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      // Uncompressed, so that a file's size follows from its cells.
      db.createTable(TableDescriptor.builder("t")
          .family(ColumnFamilyDescriptor.builder("f").compression(Compression.NONE).build()).build());
      Table t = db.getTable("t");
      String caller = Thread.currentThread().getName();
      for (int batch = 0; batch < 3; batch++) {
        for (int i = 0; i < 200; i++) {
          t.put(new Put(Bytes.of(String.format("r%d-%04d", batch, i))).addColumn(F, Q, new byte[100]));
        }
        db.flush("t");
      }
      assertThat(rec.flushBegins).hasSize(3);
      assertThat(rec.flushEnds).hasSize(3);
      long flushed = 0;
      long lastFileId = -1;
      for (int i = 0; i < 3; i++) {
        EventListener.FlushInfo begin = rec.flushBegins.get(i).info();
        EventListener.FlushInfo end = rec.flushEnds.get(i).info();
        assertThat(rec.flushEnds.get(i).thread()).isEqualTo(caller);
        assertThat(begin.table()).isEqualTo("t");
        assertThat(begin.family()).isEqualTo("f");
        assertThat(begin.cells()).isEqualTo(200);
        assertThat(begin.fileId()).isEqualTo(-1);
        assertThat(end.cells()).isEqualTo(200);
        assertThat(end.memStoreBytes()).isGreaterThanOrEqualTo(200 * 100).isEqualTo(begin.memStoreBytes());
        assertThat(end.fileId()).isGreaterThan(lastFileId);
        assertThat(end.fileBytes()).isBetween(200 * 100L, 200 * 100L * 3);
        assertThat(end.duration()).isPositive();
        lastFileId = end.fileId();
        flushed += end.fileBytes();
      }
      assertThat(db.metrics().get("flush.count").longValue()).isEqualTo(3);
      assertThat(db.metrics().get("flush.bytes.written").longValue()).isEqualTo(flushed);

      db.majorCompact("t");
      assertThat(rec.compactionBegins).hasSize(1);
      assertThat(rec.compactionEnds).hasSize(1);
      EventListener.CompactionInfo c = rec.compactionEnds.get(0).info();
      assertThat(rec.compactionEnds.get(0).thread()).isEqualTo(caller);
      assertThat(c.major()).isTrue();
      assertThat(c.inputFiles()).isEqualTo(3);
      assertThat(c.inputBytes()).isEqualTo(flushed);
      assertThat(c.inputCells()).isEqualTo(600);
      assertThat(c.outputCells()).isEqualTo(600);
      assertThat(c.outputFileId()).isGreaterThan(lastFileId);
      assertThat(c.outputBytes()).isBetween(flushed / 2, flushed * 2);
      assertThat(rec.compactionBegins.get(0).info().outputFileId()).isEqualTo(-1);
      assertThat(db.metrics().get("compaction.count").longValue()).isEqualTo(1);
      assertThat(db.metrics().get("compaction.bytes.read").longValue()).isEqualTo(c.inputBytes());
      assertThat(db.metrics().get("compaction.bytes.written").longValue()).isEqualTo(c.outputBytes());
      assertThat(rec.errors).isEmpty();
    }
  }

  @Test
  @Timeout(60)
  void backgroundFlushesAndWriteStallsAreReportedOnTheirThreads() throws Exception {
    RecordingListener rec = new RecordingListener();
    // About 40 flushed files: a file limit above that keeps every stall a memory-store stall even
    // when compaction falls behind on a slow machine.
    EngineOptions opts = EngineOptions.builder().set(Knobs.MEMSTORE_BLOCK_MULTIPLIER, 1.0)
        .set(Knobs.BLOCKING_STORE_FILES, 10_000).eventListener(rec).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family("f").build());
      Table t = db.getTable("t");
      String caller = Thread.currentThread().getName();
      for (int i = 0; i < 2000; i++) {
        t.put(new Put(Bytes.of(String.format("r%06d", i))).addColumn(F, Q, new byte[1000])
            .setDurability(Durability.SKIP_WAL));
      }
      assertThat(rec.flushed.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(rec.flushEnds).allSatisfy(s -> assertThat(s.thread()).startsWith("bellows-flush"));
      // 2 MB through a 64 KiB flush size at multiplier 1: the writer waited, and each wait was reported.
      assertThat(rec.stallBegins).isNotEmpty();
      assertThat(rec.stallEnds).hasSameSizeAs(rec.stallBegins);
      assertThat(rec.stallBegins).allSatisfy(s -> {
        assertThat(s.thread()).isEqualTo(caller);
        assertThat(s.info().table()).isEqualTo("t");
        assertThat(s.info().cause()).isEqualTo(EventListener.StallCause.MEMSTORE_FULL);
      });
      assertThat(rec.stallEnds).allSatisfy(s -> assertThat(s.info().duration()).isPositive());
      assertThat(db.metrics().get("writes.blocked.count").longValue()).isEqualTo(rec.stallBegins.size());
      long stalled = rec.stallEnds.stream().mapToLong(s -> s.info().duration().toNanos()).sum();
      assertThat(db.metrics().get("writes.blocked.nanos").longValue()).isEqualTo(stalled);
    }
  }

  @Test
  @Timeout(60)
  void aListenerThatThrowsDoesNotBreakTheEngine() throws Exception {
    EventListener thrower = new EventListener() {
      @Override
      public void flushBegin(FlushInfo info) {
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void flushEnd(FlushInfo info) {
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void compactionBegin(CompactionInfo info) {
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void compactionEnd(CompactionInfo info) {
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void writeStallBegin(WriteStallInfo info) {
        throw new AssertionError("listener bug");
      }

      @Override
      public void writeStallEnd(WriteStallInfo info) {
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void backgroundError(BackgroundError error) {
        throw new IllegalStateException("listener bug");
      }
    };
    RecordingListener rec = new RecordingListener();
    EngineOptions opts = EngineOptions.builder()
        .set(Knobs.MEMSTORE_BLOCK_MULTIPLIER, 1.0)
        .eventListener(thrower)
        .eventListener(rec)
        .build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family("f").build());
      Table t = db.getTable("t");
      for (int i = 0; i < 2000; i++) {
        t.put(new Put(Bytes.of(String.format("r%06d", i))).addColumn(F, Q, new byte[1000])
            .setDurability(Durability.SKIP_WAL));
      }
      db.flush("t");
      db.majorCompact("t");
      for (int i = 0; i < 2000; i += 97) {
        assertThat(t.get(new Get(Bytes.of(String.format("r%06d", i)))).isEmpty()).as("row %d", i).isFalse();
      }
      assertThat(db.backgroundError()).isEmpty();
      assertThat(rec.flushEnds).isNotEmpty(); // the listener after the bad one still hears everything
      assertThat(rec.compactionEnds).isNotEmpty();
      assertThat(rec.flushBegins).hasSizeGreaterThanOrEqualTo(rec.flushEnds.size());
      assertThat(db.metrics().get("event.listener.failures").longValue()).isPositive();
      assertThat(db.metrics().get("flush.failures").longValue()).isZero();
    }
  }
}
