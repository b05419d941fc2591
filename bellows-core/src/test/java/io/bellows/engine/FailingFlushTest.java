package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import io.bellows.util.WritesStoppedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush that keeps failing (here: its store directory is replaced by a file, so nothing can be
 * created in it, as on a full disk) neither blocks writers for good nor floods the log: retries
 * back off, the log says it once per state change, a blocked write fails after the bounded wait with
 * nothing of it applied and the engine stops accepting writes, and writes resume once a flush works
 * again.
 */
class FailingFlushTest {
  @TempDir Path dir;

  @Test
  @Timeout(120) // before the fix the writer waited for good: a hang must fail, not stall the build
  void blockedWritesFailAfterTheBoundedWaitAndResumeWhenFlushesWork() throws IOException {
    EngineOptions opts = EngineOptions.builder()
        .set(Knobs.MEMSTORE_BLOCK_MULTIPLIER, 1.0)
        .set(Knobs.BLOCKING_WAIT_MS, 1_000L)
        .build();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    int acknowledged = 0;
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family("f").build());
      Table t = db.getTable("t");
      Path store;
      store = StoreDirs.store(dir, "t", "f");
      Path aside = store.resolveSibling("f-aside");
      Files.move(store, aside);
      Files.writeString(store, "in the way");

      StorageException refused = null;
      System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
      try {
        for (int i = 0; i < 10_000 && refused == null; i++) {
          try {
            put(t, i);
            acknowledged++;
          } catch (StorageException e) {
            refused = e;
          }
        }
      } finally {
        System.setErr(stderr);
      }
      assertThat(refused).as("a write blocked behind failing flushes must fail, not wait for good").isNotNull();
      assertThat(refused).isInstanceOf(WritesStoppedException.class)
          .hasMessageContaining("nothing of it was applied").hasMessageContaining("flush of table 't' failed");
      assertThat(db.backgroundError()).get().satisfies(e -> {
        assertThat(e.kind()).isEqualTo(BackgroundError.Kind.FLUSH);
        assertThat(e.severity()).isEqualTo(BackgroundError.Severity.HARD);
      });
      assertThat(t.get(new Get(Bytes.of(row(acknowledged)))).isEmpty()).as("the refused write").isTrue();
      // Backoff (100 ms doubling) allows a handful of attempts in the 1 s wait; a tight loop makes thousands.
      assertThat(db.metrics().get("flush.failures").longValue()).isBetween(1L, 20L);
      String text = log.toString(StandardCharsets.UTF_8);
      assertThat(text.lines().filter(l -> l.contains("background flush of table 't' failed; retrying")).count())
          .as("one log line per state change:%n%s", text).isEqualTo(1);
      assertThat(text.lines().filter(l -> l.contains("stops writes")).count())
          .as("one log line per state change:%n%s", text).isEqualTo(1);
      assertThat(db.metrics().get("background.work.failing").longValue()).isEqualTo(1);

      // The cause goes away: an explicit flush works, the error clears and writes are accepted again.
      Files.delete(store);
      Files.move(aside, store);
      db.flush("t");
      assertThat(db.backgroundError()).isEmpty();
      put(t, acknowledged);
      acknowledged++;
      try (Stream<Path> s = Files.list(store)) {
        assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
      }
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      for (int i = 0; i < acknowledged; i++) {
        assertThat(db.getTable("t").get(new Get(Bytes.of(row(i)))).isEmpty()).as("row %d", i).isFalse();
      }
    }
  }

  private static String row(int i) {
    return String.format("r%06d", i);
  }

  private static void put(Table t, int i) {
    t.put(new Put(Bytes.of(row(i))).addColumn(Bytes.of("f"), Bytes.of("q"), new byte[1000])
        .setDurability(Durability.SKIP_WAL));
  }
}
