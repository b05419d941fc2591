package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.engine.VerifyReport;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.wire.Wire;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The online scrub and the corruption error over the wire: the remote answers what the engine does. */
class RemoteVerifyTest {
  @TempDir Path dir;

  @Test
  void verifyOverTheWireReportsWhatTheEngineFinds() throws IOException {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      for (int i = 0; i < 200; i++) {
        db.getTable("t").put(new Put(Bytes.of("r" + i)).addColumn(Bytes.of("f"), Bytes.of("q"), new byte[100]));
      }
      db.flush("t");
      VerifyReport clean = db.verify();
      assertThat(clean.clean()).isTrue();
      assertThat(clean.files()).isEqualTo(1);
      assertThat(clean.cells()).isEqualTo(200);

      Path sst;
      try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
        sst = s.filter(p -> p.getFileName().toString().endsWith(".sst")).findFirst().orElseThrow();
      }
      try (RandomAccessFile raf = new RandomAccessFile(sst.toFile(), "rw")) {
        raf.seek(40);
        int b = raf.read();
        raf.seek(40);
        raf.write(b ^ 0x5A);
      }
      VerifyReport damaged = db.verify();
      assertThat(damaged).isEqualTo(f.engine.verify());
      assertThat(damaged.damages()).singleElement().satisfies(d -> {
        assertThat(d.file()).endsWith(sst.getFileName().toString());
        assertThat(d.offset()).isZero();
      });
    }
  }

  @Test
  void aCorruptionErrorCrossesTheWire() {
    BackgroundError e = new BackgroundError(BackgroundError.Kind.CORRUPTION, BackgroundError.Severity.HARD, "t",
        "tables/1-t/1/f/00000000000000000001.sst: checksum mismatch", Instant.ofEpochMilli(1_700_000_000_000L), 1);
    assertThat(Wire.fromWire(Wire.toWire(e))).isEqualTo(e);
  }
}
