package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import io.bellows.fs.MemFileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads that fail with EIO, at every kind of file a data directory holds, on {@link
 * FaultInjectingFileSystem} over {@link MemFileSystem}. The data directory holds rows in sorted
 * files (two flushes) and rows only in the log, left by a power loss. What must hold: an open that cannot read a file
 * fails, naming it; a read that cannot read a block fails, naming the file; nothing wrong is ever
 * returned (no row missing, no other value); and once the disk reads again, everything is there —
 * the failure changed nothing on disk.
 */
@ExtendWith(SeedExtension.class)
class ReadErrorTest {
  private static final Path DIR = Path.of("/read-errors/data");
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final int ROWS = 300;
  private static final String EIO = Error.EIO.message();

  private FaultInjectingFileSystem fs;

  @BeforeEach
  void dataDirectory() throws IOException {
    MemFileSystem disk = new MemFileSystem();
    AtomicFiles.createDirectories(disk, DIR.getParent());
    fs = new FaultInjectingFileSystem(disk);
    // Small blocks: a sorted file has many data blocks besides its index and Bloom block.
    Bellows db = open();
    db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f").blockSize(1024).build()).build());
    Table t = db.getTable("t");
    for (int i = 0; i < ROWS; i++) {
      t.put(new Put(row(i)).addColumn(F, Q, value(i)));
      if (i == ROWS / 3 || i == 2 * ROWS / 3) {
        db.flush("t"); // two sorted files; the last third only in the log
      }
    }
    // A power loss rather than a close (which would flush): the next open replays the log.
    fs = new FaultInjectingFileSystem(disk.crash(new Random(1), MemFileSystem.Tail.DROP));
    try {
      db.close();
    } catch (RuntimeException ignored) {
      // the machine is off
    }
  }

  private Bellows open() {
    return Bellows.open(DIR, EngineOptions.builder()
        .set(Knobs.DEFAULT_DURABILITY, Durability.FSYNC_WAL)
        .build(), fs);
  }

  private static byte[] row(int i) {
    return Bytes.of(String.format("r%05d", i));
  }

  private static byte[] value(int i) {
    return Bytes.of("value-" + i + "-".repeat(100)); // ten rows a block
  }

  /** The messages of an exception and its causes, in one string. */
  private static String messages(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      sb.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append('\n');
    }
    return sb.toString();
  }

  /** A failure caused by the injected read error: it names a file matching {@code kind} and says why. */
  private static void assertReadErrorNaming(RuntimeException e, String kind) {
    String m = messages(e);
    assertThat(m).as("the error says why").contains(EIO);
    assertThat(m.lines().anyMatch(l -> l.contains(DIR.toString()) && l.matches(".*" + kind + ".*")))
        .as("the error names the file it could not read:\n" + m).isTrue();
  }

  /** Every row is there with its value. */
  private static void assertAllRows(Bellows db) {
    Table t = db.getTable("t");
    for (int i = 0; i < ROWS; i++) {
      Result r = t.get(new Get(row(i)));
      assertThat(r.getValue(F, Q)).as("row %d", i).isEqualTo(value(i));
    }
    int n = 0;
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        assertThat(r.getValue(F, Q)).as("scanned row %d", n).isEqualTo(value(n));
        n++;
      }
    }
    assertThat(n).as("rows scanned").isEqualTo(ROWS);
  }

  @ParameterizedTest(name = "EIO reading ~{0}")
  @ValueSource(strings = {"/wal/", "/MANIFEST", "/CATALOG", "/OPTIONS", "\\.sst"})
  void aFileThatCannotBeReadFailsTheOpenOrTheReadNamingItAndNothingWrongIsReturned(String kind) {
    Fault eio = Fault.on(Error.EIO, Op.READ).paths(kind);
    fs.inject(eio);
    boolean surfaced = false;
    try (Bellows db = open()) {
      // The open read around the file (sorted files may be opened lazily): then its reads must fail.
      Table t = db.getTable("t");
      for (int i = 0; i < ROWS; i++) {
        try {
          assertThat(t.get(new Get(row(i))).getValue(F, Q)).as("row %d", i).isEqualTo(value(i));
        } catch (RuntimeException e) {
          assertReadErrorNaming(e, kind);
          surfaced = true;
        }
      }
    } catch (RuntimeException e) {
      assertReadErrorNaming(e, kind);
      surfaced = true;
    }
    assertThat(fs.injected(Op.READ)).as("reads of ~" + kind + " failed").isPositive();
    assertThat(surfaced).as("a failed read of ~" + kind + " surfaced").isTrue();
    eio.disable();
    try (Bellows db = open()) {
      assertAllRows(db);
    }
  }

  @Test
  void sortedFileReadsFailingAtRandomFailTheReadOrAnswerRight(Seed seed) {
    Random random = seed.random();
    try (Bellows db = open()) {
      Table t = db.getTable("t");
      Fault eio = Fault.on(Error.EIO, Op.READ).paths("\\.sst").probability(0.3, random.nextLong());
      fs.inject(eio);
      int failed = 0;
      for (int k = 0; k < 2000; k++) {
        int i = random.nextInt(ROWS);
        try {
          if (random.nextInt(4) == 0) {
            scanFrom(t, i, 1 + random.nextInt(50));
          } else {
            Result r = t.get(new Get(row(i)));
            assertThat(r.getValue(F, Q)).as("row %d", i).isEqualTo(value(i));
          }
        } catch (RuntimeException e) {
          assertReadErrorNaming(e, "\\.sst");
          failed++;
        }
      }
      System.out.println("ReadErrorTest: " + failed + " of 2000 reads failed, " + eio.fired() + " faults injected");
      assertThat(eio.fired()).as("faults injected").isPositive();
      assertThat(failed).as("reads that failed").isPositive();
      eio.disable();
      assertAllRows(db); // nothing cached from a failed read, nothing marked bad for good
    }
  }

  private static void scanFrom(Table t, int from, int limit) {
    int n = from;
    try (ResultScanner s = t.getScanner(new Scan().withStartRow(row(from)).setLimit(limit))) {
      for (Result r : s) {
        if (!Arrays.equals(r.row(), row(n)) || !Arrays.equals(r.getValue(F, Q), value(n))) {
          fail("the scan from row " + from + " returned " + Bytes.str(r.row()) + " where row " + n + " was due");
        }
        n++;
      }
    }
    assertThat(n - from).as("rows of the scan from %d", from).isEqualTo(Math.min(limit, ROWS - from));
  }
}
