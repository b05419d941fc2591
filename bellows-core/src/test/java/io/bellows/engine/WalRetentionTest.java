package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table written once and then left alone (its edit only in memory) keeps only the WAL file that
 * holds its edit, not every file written after it: files are judged region by region. Reopened,
 * the store has every row of both tables.
 */
class WalRetentionTest {
  @TempDir Path dir;

  @Test
  void aColdTableKeepsOnlyTheWalFileHoldingItsEdit() {
    EngineOptions options = EngineOptions.builder().set(Knobs.WAL_ROLL_SIZE, 64L * 1024).build();
    byte[] f = Bytes.of("f");
    try (LocalEngine engine = LocalEngine.open(dir, options); Bellows db = Bellows.over(engine)) {
      db.createTable(TableDescriptor.builder("cold").family(ColumnFamilyDescriptor.builder("f").build()).build());
      db.createTable(TableDescriptor.builder("hot").family(ColumnFamilyDescriptor.builder("f").build()).build());
      db.getTable("cold").put(new Put(Bytes.of("c")).addColumn(f, Bytes.of("q"), Bytes.of("only in memory")));
      String coldFile = names(engine).get(0);
      Table hot = db.getTable("hot");
      byte[] value = new byte[1024];
      for (int round = 0; round < 6; round++) { // about six WAL files of the hot table, each flushed
        for (int i = 0; i < 64; i++) {
          hot.put(new Put(Bytes.of("r" + round + "-" + i)).addColumn(f, Bytes.of("q"), value));
        }
        db.flush("hot");
      }
      List<String> files = names(engine);
      // The cold table's file, and the current one: with one engine-wide threshold (the cold edit's
      // id) every file after the cold one would have stayed.
      assertThat(files).hasSizeLessThanOrEqualTo(2).contains(coldFile);
    }
    try (Bellows db = Bellows.open(dir, options)) {
      assertThat(Bytes.str(db.getTable("cold").get(new io.bellows.client.Get(Bytes.of("c"))).getValue(f, Bytes.of("q"))))
          .isEqualTo("only in memory");
      assertThat(db.getTable("hot").get(new io.bellows.client.Get(Bytes.of("r5-63"))).isEmpty()).isFalse();
    }
  }

  private static List<String> names(LocalEngine engine) {
    return engine.walFiles().stream().map(WalFileInfo::name).collect(Collectors.toList());
  }
}
