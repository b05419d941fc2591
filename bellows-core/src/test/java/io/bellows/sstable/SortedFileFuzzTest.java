package io.bellows.sstable;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bellows.cell.Cell;
import io.bellows.config.BloomType;
import io.bellows.config.Compression;
import io.bellows.testing.FuzzInputs;
import io.bellows.testing.ReaderGuard;
import io.bellows.testing.Reseal;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzing of the sorted-file reader: open, a full scan, seeks and Bloom checks of what was read,
 * the split point and the index. Any input ends in data or a CorruptionException ({@link
 * ReaderGuard}). The Jazzer target replays its corpus in the default build and fuzzes with {@code
 * JAZZER_FUZZ=1}; the seeded test mutates the corpus's valid files in the default build.
 */
@ExtendWith(SeedExtension.class)
class SortedFileFuzzTest {
  private static final ReaderGuard GUARD = new ReaderGuard();

  @FuzzTest(maxDuration = "5m")
  void sortedFile(byte[] input) {
    read(input);
  }

  @Test
  void seededMutationsOfValidFiles(Seed seed) {
    FuzzInputs.mutate(seed, FuzzInputs.corpus(SortedFileFuzzTest.class, "sortedFile"), SortedFileFuzzTest::read);
  }

  static void read(byte[] input) {
    byte[] file = FuzzInputs.file(input);
    if (FuzzInputs.resealed(input)) {
      Reseal.sortedFile(file);
    }
    Path p = FuzzInputs.temp(file, "1.sf");
    try {
      GUARD.check("sorted file", input, () -> readAll(p));
    } finally {
      FuzzInputs.delete(p);
    }
  }

  private static void readAll(Path p) throws IOException {
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      List<Cell> seen = new ArrayList<>();
      try (SortedFileScanner s = r.uncachedScanner()) {
        for (Cell c = s.next(); c != null; c = s.next()) {
          if (seen.size() < 64) {
            seen.add(c);
          }
        }
      }
      for (Cell c : seen) {
        try (SortedFileScanner s = r.uncachedScanner()) {
          s.seek(c);
          s.peek();
        }
        r.mayContainRow(c.row());
        r.mayContainColumn(c.row(), c.family(), c.qualifier());
      }
      r.midRow();
      r.dataBlockIndex();
      r.metadata();
    } finally {
      r.release();
    }
  }

  /**
   * Writes the valid files of the corpus: every compression and Bloom type, one and several index
   * levels. The {@code valid-v2-} files are the same in format version 2 (classic Bloom filters),
   * written by builds before version 3 and kept.
   */
  @Test
  @EnabledIfSystemProperty(named = "bellows.fuzz.writeCorpus", matches = "true")
  void writeCorpus() throws IOException {
    Path dir = Files.createTempDirectory("corpus");
    int n = 0;
    for (Compression c : Compression.values()) {
      for (BloomType b : BloomType.values()) {
        List<Cell> cells = new ArrayList<>();
        int rows = 20 + 15 * n;
        for (int i = 0; i < rows; i++) {
          cells.add(TestCells.put(String.format("row%03d", i), "q" + (i % 3), 10 + i % 4, i + 1));
        }
        Path p = dir.resolve("f" + n);
        TestCells.write(p, cells, SortedFileOptions.builder().blockSize(n % 2 == 0 ? 128 : 1024)
            .indexBlockSize(n % 3 == 0 ? 64 : 4096).compression(c).bloomType(b).build());
        FuzzInputs.writeCorpusFile(SortedFileFuzzTest.class, "sortedFile", "valid-" + c + "-" + b, Files.readAllBytes(p));
        n++;
      }
    }
  }
}
