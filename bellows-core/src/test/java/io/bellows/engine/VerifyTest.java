package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify()}: the online scrub reads every block of every file and names each damage by file and offset. */
class VerifyTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private static void writeTwoFiles(Bellows db) {
    db.createTable(TableDescriptor.builder("t").family("f").family("g").build());
    Table t = db.getTable("t");
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 300; i++) {
        t.put(new Put(Bytes.of("r" + round + "-" + i)).addColumn(F, Q, new byte[100]));
      }
      db.flush("t");
    }
  }

  @Test
  void cleanStoresHaveNoDamage() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      writeTwoFiles(db);
      VerifyReport r = db.verify();
      assertThat(r.clean()).as("%s", r.damages()).isTrue();
      assertThat(r.stores()).isEqualTo(2);
      assertThat(r.manifests()).isEqualTo(2);
      assertThat(r.files()).isEqualTo(2);
      assertThat(r.blocks()).isGreaterThanOrEqualTo(2);
      assertThat(r.cells()).isEqualTo(600);
    }
  }

  @Test
  void aFlippedByteIsFoundWithItsFileAndBlockOffsetAndTheEngineGoesOn() throws Exception {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      writeTwoFiles(db);
      List<Path> files = CompactionCorruptionTest.sortedFiles(StoreDirs.store(dir, "t", "f"));
      Path damaged = files.get(1);
      CompactionCorruptionTest.flipByte(damaged, 40); // inside the first data block

      VerifyReport r = db.verify();
      assertThat(r.damages()).hasSize(1);
      VerifyReport.Damage d = r.damages().get(0);
      assertThat(d.file()).isEqualTo(dir.toAbsolutePath().relativize(damaged.toAbsolutePath()).toString());
      assertThat(d.offset()).isZero(); // the first data block starts the file
      assertThat(d.problem()).contains("checksum mismatch").contains("offset 0");
      assertThat(r.files()).isEqualTo(2);
      // A scrub changes nothing and stops nothing.
      assertThat(db.backgroundError()).isEmpty();
      db.getTable("t").put(new Put(Bytes.of("after")).addColumn(F, Q, Bytes.of("v")));
      assertThat(db.verify().damages()).hasSize(1);
    }
  }

  @Test
  void aDamagedRecordOfAClosedWalFileIsFoundWithItsOffset() throws Exception {
    EngineOptions opts = EngineOptions.builder().set(io.bellows.config.Knobs.WAL_ROLL_SIZE, 64L * 1024).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      for (int i = 0; i < 200; i++) { // past the roll size: a closed WAL file and the one being written
        t.put(new Put(Bytes.of("r" + i)).addColumn(F, Q, new byte[1000]));
      }
      List<String> wal;
      try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir.resolve("wal"))) {
        wal = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("wal-")).sorted().toList();
      }
      assertThat(wal.size()).isGreaterThanOrEqualTo(2);
      assertThat(db.verify().clean()).isTrue();
      Path closed = dir.resolve("wal").resolve(wal.get(0));
      CompactionCorruptionTest.flipByte(closed, 200);

      VerifyReport r = db.verify();
      assertThat(r.walFiles()).isEqualTo(wal.size() - 1);
      assertThat(r.damages()).singleElement().satisfies(d -> {
        assertThat(d.file()).isEqualTo("wal/" + wal.get(0));
        assertThat(d.offset()).isBetween(0L, 200L);
        assertThat(d.problem()).contains("DAMAGED");
      });
    }
  }
}
