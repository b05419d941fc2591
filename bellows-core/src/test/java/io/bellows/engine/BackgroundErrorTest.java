package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import io.bellows.util.WritesStoppedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background-error state: a flush that fails persistently stops writes (each refused at once,
 * nothing of it applied, reads working) until a retry works — {@code resume()} or the engine's own;
 * a WAL failure stops writes until a reopen, and no write acknowledged before it is lost.
 *
 * <p>Failures are real: a store directory (or the WAL directory) is replaced by a regular file, so
 * nothing can be created in it. Synchronisation is by the listener's latches, never by sleeping.
 */
class BackgroundErrorTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  @Timeout(60)
  void persistentFlushFailureStopsWritesAndResumeStartsThemAgain() throws Exception {
    RecordingListener rec = new RecordingListener();
    EngineOptions opts = EngineOptions.builder().set(Knobs.FLUSH_FAILURES_STOP_WRITES, 3).eventListener(rec).build();
    int acknowledged;
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family("f").build());
      Table t = db.getTable("t");
      t.put(new Put(Bytes.of("before")).addColumn(F, Q, Bytes.of("v0")));
      t.incrementColumnValue(Bytes.of("counter"), F, Q, 5);
      assertThat(db.backgroundError()).isEmpty();
      Broken store = Broken.replace(storeDir("t"));

      acknowledged = fillPastTheFlushSize(t);
      assertThat(rec.writesStopped.await(30, TimeUnit.SECONDS)).as("writes stopped").isTrue();

      BackgroundError e = db.backgroundError().orElseThrow();
      assertThat(e.kind()).isEqualTo(BackgroundError.Kind.FLUSH);
      assertThat(e.severity()).isEqualTo(BackgroundError.Severity.HARD);
      assertThat(e.table()).isEqualTo("t");
      assertThat(e.attempts()).isGreaterThanOrEqualTo(3);
      assertThat(e.message()).contains("cannot create sorted file");
      assertThat(db.metrics().get("background.error.state").intValue()).isEqualTo(2);
      assertThat(rec.errors).extracting(s -> s.info().severity())
          .containsExactly(BackgroundError.Severity.SOFT, BackgroundError.Severity.HARD);
      assertThat(rec.errors.get(0).thread()).startsWith("bellows-flush");

      // Every kind of write fails at once, naming the reason, with nothing of it applied.
      List<Runnable> writes = List.of(
          () -> t.put(new Put(Bytes.of("new")).addColumn(F, Q, Bytes.of("x"))),
          () -> t.put(List.of(new Put(Bytes.of("batch1")).addColumn(F, Q, Bytes.of("x")),
              new Put(Bytes.of("batch2")).addColumn(F, Q, Bytes.of("x")))),
          () -> t.delete(new Delete(Bytes.of("before"))),
          () -> t.delete(List.of(new Delete(Bytes.of("before")))),
          () -> t.checkAndPut(Bytes.of("before"), F, Q, Bytes.of("v0"),
              new Put(Bytes.of("before")).addColumn(F, Q, Bytes.of("v1"))),
          () -> t.checkAndDelete(Bytes.of("before"), F, Q, Bytes.of("v0"), new Delete(Bytes.of("before"))),
          () -> t.incrementColumnValue(Bytes.of("counter"), F, Q, 1));
      long refusedBefore = db.metrics().get("writes.refused").longValue();
      for (Runnable w : writes) {
        assertThatThrownBy(w::run).isInstanceOf(WritesStoppedException.class)
            .hasMessageContaining("nothing of it was applied")
            .hasMessageContaining("flush of table 't' failed")
            .satisfies(x -> assertThat(((WritesStoppedException) x).reason().kind()).isEqualTo(BackgroundError.Kind.FLUSH));
      }
      assertThat(db.metrics().get("writes.refused").longValue() - refusedBefore).isEqualTo(writes.size());
      // Reads keep working, and show that nothing of the refused writes was applied.
      assertThat(value(t, "before")).isEqualTo("v0");
      assertThat(Bytes.getLong(t.get(new Get(Bytes.of("counter"))).getValue(F, Q), 0)).isEqualTo(5);
      assertThat(t.get(new Get(Bytes.of("new"))).isEmpty()).isTrue();
      assertThat(t.get(new Get(Bytes.of("batch1"))).isEmpty()).isTrue();
      assertThat(rowCount(t)).isEqualTo(acknowledged + 2);

      // Still broken: resume() tries, fails, and says so; writes stay stopped.
      assertThatThrownBy(db::resume).isInstanceOf(WritesStoppedException.class);
      assertThat(db.backgroundError()).get().extracting(BackgroundError::severity)
          .isEqualTo(BackgroundError.Severity.HARD);

      store.restore();
      db.resume();
      assertThat(db.backgroundError()).isEmpty();
      assertThat(db.metrics().get("background.error.state").intValue()).isZero();
      assertThat(rec.recovered.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(rec.recoveries.get(0).info().kind()).isEqualTo(BackgroundError.Kind.FLUSH);
      t.put(new Put(Bytes.of("new")).addColumn(F, Q, Bytes.of("after")));
      t.incrementColumnValue(Bytes.of("counter"), F, Q, 1);
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      Table t = db.getTable("t");
      for (int i = 0; i < acknowledged; i++) {
        assertThat(t.get(new Get(Bytes.of(row(i)))).isEmpty()).as("row %d", i).isFalse();
      }
      assertThat(value(t, "new")).isEqualTo("after");
      assertThat(Bytes.getLong(t.get(new Get(Bytes.of("counter"))).getValue(F, Q), 0)).isEqualTo(6);
    }
  }

  @Test
  @Timeout(60)
  void aBackgroundRetryThatWorksResumesWritesByItself() throws Exception {
    RecordingListener rec = new RecordingListener();
    EngineOptions opts = EngineOptions.builder().set(Knobs.FLUSH_FAILURES_STOP_WRITES, 2).eventListener(rec).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family("f").build());
      Table t = db.getTable("t");
      Broken store = Broken.replace(storeDir("t"));
      fillPastTheFlushSize(t);
      assertThat(rec.writesStopped.await(30, TimeUnit.SECONDS)).isTrue();
      assertThatThrownBy(() -> t.put(new Put(Bytes.of("x")).addColumn(F, Q, Bytes.of("x"))))
          .isInstanceOf(WritesStoppedException.class);

      store.restore(); // e.g. space was freed; nobody calls resume()
      assertThat(rec.recovered.await(30, TimeUnit.SECONDS)).as("a background retry worked").isTrue();
      assertThat(rec.recoveries.get(0).thread()).startsWith("bellows-flush");
      assertThat(rec.recoveries.get(0).info().severity()).isEqualTo(BackgroundError.Severity.HARD);
      assertThat(db.backgroundError()).isEmpty();
      t.put(new Put(Bytes.of("x")).addColumn(F, Q, Bytes.of("x")));
      assertThat(value(t, "x")).isEqualTo("x");
    }
  }

  @Test
  @Timeout(60)
  void aWalRollThatCannotCreateItsFileKeepsWritingToTheCurrentFileAndRollsOnceItCan() throws Exception {
    RecordingListener rec = new RecordingListener();
    EngineOptions opts = EngineOptions.builder().set(Knobs.WAL_ROLL_SIZE, 64L * 1024).eventListener(rec).build();
    int acknowledged = 0;
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      t.put(new Put(Bytes.of(row(0))).addColumn(F, Q, new byte[1000])); // the log's first file exists now
      acknowledged++;
      Broken wal = Broken.replace(dir.resolve("wal"));
      // The log rolls at 64 KiB and cannot create its next file (as when file descriptors run out):
      // the current file is sound, so appends go on there and no write fails.
      for (int i = 1; i < 500; i++) {
        t.put(new Put(Bytes.of(row(i))).addColumn(F, Q, new byte[1000]));
        acknowledged++;
      }
      assertThat(db.backgroundError()).isEmpty();
      assertThat(rec.writesStopped.getCount()).as("writes never stopped").isEqualTo(1);
      long rolled = db.metrics().get("wal.files.rolled").longValue();
      wal.restore();
      for (int i = 500; i < 1700; i++) {
        t.put(new Put(Bytes.of(row(i))).addColumn(F, Q, new byte[1000]));
        acknowledged++;
      }
      assertThat(db.metrics().get("wal.files.rolled").longValue()).as("rolls resumed").isGreaterThan(rolled);
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.backgroundError()).isEmpty();
      Table t = db.getTable("t");
      for (int i = 0; i < acknowledged; i++) {
        assertThat(t.get(new Get(Bytes.of(row(i)))).isEmpty()).as("acknowledged row %d", i).isFalse();
      }
    }
  }

  /**
   * A writer interrupted while it writes (an interrupt closes the log file's channel on the real file
   * system): its own write is acknowledged and keeps its interrupt status, writes never stop, other
   * threads go on, and a reopen has every row.
   */
  @Test
  @Timeout(60)
  void anInterruptedWriterBreaksNeitherTheLogNorOtherWriters() throws Exception {
    EngineOptions opts = EngineOptions.builder()
        .set(Knobs.DEFAULT_DURABILITY, io.bellows.config.Durability.FSYNC_WAL).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      for (int i = 0; i < 40; i++) {
        if (i % 4 == 0) {
          Thread.currentThread().interrupt();
        }
        t.put(new Put(Bytes.of(row(i))).addColumn(F, Q, Bytes.of("v" + i)));
        assertThat(Thread.interrupted()).as("row %d keeps its interrupt", i).isEqualTo(i % 4 == 0);
      }
      Thread other = new Thread(() -> {
        for (int i = 40; i < 60; i++) {
          t.put(new Put(Bytes.of(row(i))).addColumn(F, Q, Bytes.of("v" + i)));
        }
      });
      other.start();
      other.join();
      assertThat(db.backgroundError()).isEmpty();
      for (int i = 0; i < 60; i++) {
        assertThat(value(t, row(i))).isEqualTo("v" + i);
      }
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      Table t = db.getTable("t");
      for (int i = 0; i < 60; i++) {
        assertThat(value(t, row(i))).as("row %d after reopen", i).isEqualTo("v" + i);
      }
    }
  }

  /** Puts 1000-byte rows until past the 64 KiB flush size; stops early if writes stop. */
  private static int fillPastTheFlushSize(Table t) {
    int n = 0;
    try {
      for (; n < 100; n++) {
        t.put(new Put(Bytes.of(row(n))).addColumn(F, Q, new byte[1000]));
      }
    } catch (WritesStoppedException e) {
      // the failing flush already stopped writes
    }
    return n;
  }

  private Path storeDir(String table) throws IOException {
    return StoreDirs.store(dir, table, "f");
  }

  private static String value(Table t, String row) {
    byte[] v = t.get(new Get(Bytes.of(row))).getValue(F, Q);
    return v == null ? null : Bytes.str(v);
  }

  private static int rowCount(Table t) {
    int n = 0;
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        n++;
      }
    }
    return n;
  }

  private static String row(int i) {
    return String.format("r%06d", i);
  }

  /** A directory moved aside with a regular file in its place (nothing can be created in it). */
  private record Broken(Path path, Path aside) {
    static Broken replace(Path path) throws IOException {
      Path aside = path.resolveSibling(path.getFileName() + "-aside");
      Files.move(path, aside);
      Files.writeString(path, "in the way");
      return new Broken(path, aside);
    }

    void restore() throws IOException {
      Files.delete(path);
      Files.move(aside, path);
    }
  }
}
