package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.config.BloomType;
import io.bellows.config.Compression;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Random sorted cells written and read back, compared with a TreeSet reference. */
@ExtendWith(SeedExtension.class)
class SortedFileRoundTripTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(Compression.class)
  void scanSeekAndReseekMatchReference(Compression compression, Seed testSeed) {
    long seed = testSeed.value();
    Random rnd = new Random(seed);
    TreeSet<Cell> ref = TestCells.randomSorted(rnd, 3000);
    Path path = dir.resolve("f-" + compression);
    FileMetadata meta = TestCells.write(path, ref, SortedFileOptions.builder()
        .blockSize(200 + rnd.nextInt(400)).compression(compression).bloomType(BloomType.ROWCOL)
        .indexBlockSize(rnd.nextBoolean() ? 100 : 64 * 1024).build());
    assertThat(meta.cellCount()).as("seed %d", seed).isEqualTo(ref.size());
    assertThat(meta.dataBlockCount()).isGreaterThan(10);

    SortedFileReader r = SortedFileReader.open(path, 1);
    try {
      assertThat(r.metadata()).isEqualTo(meta);
      assertThat(TestCells.scanAll(r)).as("seed %d", seed).containsExactlyElementsOf(ref);

      try (SortedFileScanner s = r.scanner()) {
        for (int i = 0; i < 500; i++) {
          Cell key = TestCells.randomCell(rnd);
          Cell expected = ref.ceiling(key);
          assertThat(s.seek(key)).as("seed %d seek %s", seed, key).isEqualTo(expected != null);
          assertThat(s.peek()).as("seed %d seek %s", seed, key).isEqualTo(expected);
          // A few steps forward must follow the reference too.
          Cell want = expected;
          for (int j = 0; j < 3 && want != null; j++) {
            assertThat(s.next()).isEqualTo(want);
            want = ref.higher(want);
          }
          assertThat(s.peek()).isEqualTo(want);
        }
      }

      try (SortedFileScanner s = r.scanner()) {
        List<Cell> keys = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
          keys.add(TestCells.randomCell(rnd));
        }
        keys.sort(io.bellows.cell.CellComparator.INSTANCE);
        s.seek(keys.get(0));
        for (Cell key : keys) {
          Cell expected = ref.ceiling(key);
          Cell current = s.peek();
          if (current != null && io.bellows.cell.CellComparator.INSTANCE.compare(current, key) > 0) {
            expected = current; // reseek never moves backwards
          }
          assertThat(s.reseek(key)).as("seed %d reseek %s", seed, key).isEqualTo(expected != null);
          assertThat(s.peek()).as("seed %d reseek %s", seed, key).isEqualTo(expected);
        }
      }
      assertThat(r.bytesRead()).isGreaterThan(meta.dataSize() / 2);
    } finally {
      r.release();
    }
  }
}
