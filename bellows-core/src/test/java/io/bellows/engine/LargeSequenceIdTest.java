package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cells;
import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.manifest.StoreManifest;
import io.bellows.record.WriteRecord;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.wal.Wal;
import io.bellows.wal.WalOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sequence ids above 2^31 end to end (an int somewhere would lose or misorder data): the engine
 * resumes from a WAL edit numbered 2^31 + 5, then writes, flushes, compacts and reopens under every
 * memory-store configuration.
 */
class LargeSequenceIdTest {
  private static final long START = (1L << 31) + 5;

  @TempDir Path dir;

  static List<EngineConfigurations> configurations() {
    return EngineConfigurations.all();
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void sequenceIdsAboveTwoToTheThirtyOneWork(EngineConfigurations config) throws IOException {
    Clock.Manual clock = new Clock.Manual(1_000_000);
    EngineOptions options = config.engine(EngineOptions.builder()).clock(clock).build();
    try (Bellows db = Bellows.open(dir, options)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family(config.family("f").maxVersions(2).build())
          .build());
    }
    // Table "t" has id 1: a WAL edit with a large sequence id makes the engine continue from it.
    try (Wal wal = Wal.open(dir.resolve("wal"), WalOptions.defaults())) {
      wal.replay(e -> { });
      long txid = wal.append(new WriteRecord(1, START, List.of(
          Cells.put(Bytes.of("r-seed"), Bytes.of("f"), Bytes.of("q"), 1, Bytes.of("seed")))));
      wal.sync(txid, Durability.FSYNC_WAL);
    }
    try (Bellows db = Bellows.open(dir, options)) {
      Table t = db.getTable("t");
      assertThat(Bytes.str(t.get(new Get(Bytes.of("r-seed"))).getValue(Bytes.of("f"), Bytes.of("q")))).isEqualTo("seed");
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 300; i++) {
          t.put(new Put(Bytes.of(String.format("r%04d", i))).addColumn(Bytes.of("f"), Bytes.of("q"),
              Bytes.of("v" + round + "-" + i + "-" + "x".repeat(100))));
        }
        db.flush("t");
        clock.advance(1000); // each round's versions get their own timestamp
      }
      db.majorCompact("t");
      verify(t);
    }
    try (Bellows db = Bellows.open(dir, options)) {
      verify(db.getTable("t"));
    }
    Path storeDir;
    try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
      storeDir = s.filter(p -> p.getFileName().toString().equals(StoreManifest.FILE_NAME)).findFirst().orElseThrow().getParent();
    }
    assertThat(StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, storeDir).flushedSeqId()).isGreaterThan(START);
  }

  private static void verify(Table t) {
    int rows = 0;
    try (ResultScanner s = t.getScanner(new Scan().withStartRow(Bytes.of("r0")).withStopRow(Bytes.of("r9")))) {
      for (Result r : s) {
        String row = Bytes.str(r.row());
        assertThat(Bytes.str(r.getValue(Bytes.of("f"), Bytes.of("q"))))
            .as("the newest write of %s wins", row).startsWith("v2-" + Integer.parseInt(row.substring(1)) + "-");
        assertThat(r.getColumnCells(Bytes.of("f"), Bytes.of("q"))).hasSize(1);
        rows++;
      }
    }
    assertThat(rows).isEqualTo(300);
    Result all = t.get(new Get(Bytes.of("r0007")).readAllVersions());
    assertThat(all.getColumnCells(Bytes.of("f"), Bytes.of("q"))).hasSize(2);
  }
}
