package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an open reads back from the WAL is counted truly: replayed edits apart from skipped ones. */
class WalReplayAccountingTest {
  @TempDir Path dir;

  @Test
  void editsAlreadyInSortedFilesAreCountedAsSkippedNotReplayed() throws IOException {
    Path image = dir.resolve("image");
    Path live = dir.resolve("live");
    try (Bellows db = Bellows.open(live, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      for (int i = 0; i < 100; i++) {
        db.getTable("t").put(new Put("flushed" + i).addColumn("f", "q", "v").setDurability(Durability.SYNC_WAL));
      }
      db.flush("t");
      for (int i = 0; i < 10; i++) {
        db.getTable("t").put(new Put("unflushed" + i).addColumn("f", "q", "v").setDurability(Durability.SYNC_WAL));
      }
      copyTree(live, image); // what a crash now would leave: every write is synced
    }
    try (Bellows db = Bellows.open(image, EngineOptions.defaults())) {
      assertThat(db.metrics().get("wal.edits.replayed").longValue()).isEqualTo(10);
      assertThat(db.metrics().get("wal.edits.skipped").longValue()).isEqualTo(100);
      assertThat(db.getTable("t").get(new Get("unflushed9")).isEmpty()).isFalse();
      assertThat(db.getTable("t").get(new Get("flushed0")).isEmpty()).isFalse();
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    List<Path> all;
    try (Stream<Path> s = Files.walk(from)) {
      all = s.toList();
    }
    for (Path p : all) {
      Path target = to.resolve(from.relativize(p).toString());
      if (Files.isDirectory(p)) {
        Files.createDirectories(target);
      } else {
        Files.copy(p, target);
      }
    }
  }
}
