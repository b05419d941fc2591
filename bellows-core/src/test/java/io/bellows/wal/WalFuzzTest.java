package io.bellows.wal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bellows.cell.Cell;
import io.bellows.record.WriteRecord;
import io.bellows.testing.FuzzInputs;
import io.bellows.testing.ReaderGuard;
import io.bellows.testing.Reseal;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzing of the WAL reader: a file read front to back and on after the first damage (as {@code
 * wal-dump} does, printing), and replayed by a {@link Wal} opened on its directory (which applies
 * the torn-tail rule). Any input ends in edits or a CorruptionException ({@link ReaderGuard}).
 */
@ExtendWith(SeedExtension.class)
class WalFuzzTest {
  private static final ReaderGuard GUARD = new ReaderGuard();
  private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

  @FuzzTest(maxDuration = "5m")
  void walFile(byte[] input) {
    read(input);
  }

  @Test
  void seededMutationsOfValidFiles(Seed seed) {
    FuzzInputs.mutate(seed, FuzzInputs.corpus(WalFuzzTest.class, "walFile"), WalFuzzTest::read);
  }

  static void read(byte[] input) {
    byte[] file = FuzzInputs.file(input);
    if (FuzzInputs.resealed(input)) {
      Reseal.wal(file);
    }
    Path p = FuzzInputs.temp(file, WalFormat.fileName(1));
    try {
      GUARD.check("WAL file", input, () -> {
        WalFileReader.Outcome o = WalFileReader.read(io.bellows.fs.LocalFileSystem.INSTANCE, p, 1, (offset, length, edit) -> touch(edit));
        for (int i = 0; i < 100 && o.problem() != null && o.problem().resumeAt() >= 0; i++) {
          o = WalFileReader.readFrom(io.bellows.fs.LocalFileSystem.INSTANCE, p, o.problem().resumeAt(), (offset, length, edit) -> touch(edit));
        }
        WalDump.print(p, NOWHERE);
        try (Wal wal = Wal.open(p.getParent(), WalTestSupport.quiet())) {
          wal.replay(WalFuzzTest::touch);
        }
      });
    } finally {
      FuzzInputs.delete(p);
    }
  }

  private static void touch(WriteRecord edit) {
    for (Cell c : edit.cells()) {
      c.row();
      c.value();
    }
  }

  /** Writes the valid files of the corpus: one edit, several, many cells, an empty file with a header only. */
  @Test
  @EnabledIfSystemProperty(named = "bellows.fuzz.writeCorpus", matches = "true")
  void writeCorpus() throws IOException {
    int[] edits = {0, 1, 5, 20};
    for (int n : edits) {
      Path dir = Files.createTempDirectory("corpus");
      Random rnd = new Random(n);
      try (Wal wal = Wal.open(dir, WalTestSupport.quiet())) {
        if (n == 0) {
          wal.append(WalTestSupport.edit(1, 1, rnd)); // creates the file; cut back to its header below
        }
        for (int i = 0; i < n; i++) {
          wal.append(WalTestSupport.edit(1 + i % 3, 1 + i, rnd));
        }
      }
      byte[] bytes = Files.readAllBytes(WalTestSupport.walFiles(dir).get(0));
      if (n == 0) {
        bytes = java.util.Arrays.copyOf(bytes, WalFormat.HEADER_SIZE);
      }
      FuzzInputs.writeCorpusFile(WalFuzzTest.class, "walFile", "valid-" + n + "-edits", bytes);
    }
  }
}
