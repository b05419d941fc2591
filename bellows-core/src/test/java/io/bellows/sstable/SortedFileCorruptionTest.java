package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.config.BloomType;
import io.bellows.config.Compression;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Damaged files are reported as corruption naming the file and offset, never as index errors. */
@ExtendWith(SeedExtension.class)
class SortedFileCorruptionTest {
  @TempDir Path dir;

  private Path writeFile(Compression c) {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      cells.add(TestCells.put(String.format("row%05d", i), "q", 10, i + 1));
    }
    Path p = dir.resolve("f-" + c);
    TestCells.write(p, cells, SortedFileOptions.builder().blockSize(256).indexBlockSize(100).compression(c)
        .bloomType(BloomType.ROW).build());
    return p;
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void flippedByteInDataBlockNamesFileAndOffset(Compression c) throws IOException {
    Path p = writeFile(c);
    IndexEntry victim;
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      List<List<IndexEntry>> levels = r.index().allLevels();
      victim = levels.get(levels.size() - 1).get(3);
    } finally {
      r.release();
    }
    byte[] bytes = Files.readAllBytes(p);
    bytes[(int) victim.offset() + victim.onDiskSize() / 2] ^= 0x10;
    Files.write(p, bytes);

    SortedFileReader damaged = SortedFileReader.open(p, 1);
    try {
      assertThatThrownBy(() -> TestCells.scanAll(damaged))
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(p.toString())
          .hasMessageContaining("offset " + victim.offset());
      assertThat(damaged.refCount()).isEqualTo(1); // the failed scanner was closed by try-with-resources
    } finally {
      damaged.release();
    }
  }

  @Test
  void truncatedFilesAreCorruption() throws IOException {
    Path good = writeFile(Compression.NONE);
    byte[] bytes = Files.readAllBytes(good);
    int[] lengths = {0, 1, 7, Trailer.SIZE - 1, Trailer.SIZE, 100, bytes.length / 2, bytes.length - Trailer.SIZE - 1,
        bytes.length - Trailer.SIZE, bytes.length - 9, bytes.length - 1};
    for (int len : lengths) {
      Path p = dir.resolve("trunc-" + len);
      Files.write(p, java.util.Arrays.copyOf(bytes, len));
      assertThatThrownBy(() -> SortedFileReader.open(p, 1).release())
          .as("truncated to %d bytes", len)
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(p.toString());
    }
  }

  @Test
  void garbageFilesAreCorruption(Seed s) throws IOException {
    long seed = s.value();
    Random rnd = new Random(seed);
    for (int i = 0; i < 50; i++) {
      byte[] junk = new byte[rnd.nextInt(500)];
      rnd.nextBytes(junk);
      Path p = dir.resolve("junk-" + i);
      Files.write(p, junk);
      assertThatThrownBy(() -> SortedFileReader.open(p, 1).release()).as("seed %d file %d", seed, i)
          .isInstanceOf(CorruptionException.class);
    }
  }

  @Test
  void everySingleByteFlipIsDetected() throws IOException {
    List<Cell> cells = List.of(TestCells.put("a", "q", 1, 1), TestCells.put("b", "q", 1, 2));
    Path good = dir.resolve("small");
    TestCells.write(good, cells, SortedFileOptions.builder().creationTimeMillis(1).build());
    byte[] bytes = Files.readAllBytes(good);
    for (int i = 0; i < bytes.length; i++) {
      byte[] copy = bytes.clone();
      copy[i] ^= 0x01;
      Path p = dir.resolve("flip-" + i);
      Files.write(p, copy);
      int at = i;
      // Either opening or reading every cell fails.
      assertThatThrownBy(() -> {
        SortedFileReader r = SortedFileReader.open(p, 1);
        try {
          TestCells.scanAll(r);
        } finally {
          r.release();
        }
      }).as("flip at %d", at).isInstanceOf(StorageException.class);
    }
  }

  @Test
  void futureVersionIsRejectedClearly() throws IOException {
    Path p = writeFile(Compression.NONE);
    byte[] bytes = Files.readAllBytes(p);
    byte[] trailer = java.util.Arrays.copyOfRange(bytes, bytes.length - Trailer.SIZE, bytes.length);
    Bytes.putInt(trailer, 52, 5); // a future version that keeps the trailer checksum rule
    Bytes.putInt(trailer, 48, Trailer.checksum(trailer));
    System.arraycopy(trailer, 0, bytes, bytes.length - Trailer.SIZE, Trailer.SIZE);
    Files.write(p, bytes);
    assertThatThrownBy(() -> SortedFileReader.open(p, 1))
        .isInstanceOf(StorageException.class)
        .isNotInstanceOf(CorruptionException.class)
        .hasMessageContaining("format version 5 is not supported (this build reads versions 1 to 4)");
  }

  /** The version field is checked by the checksum first: a flip there is corruption, not "unsupported". */
  @Test
  void everyChangedTrailerByteIsCorruptionNamingTheFile(Seed s) throws IOException {
    long seed = s.value();
    Random rnd = new Random(seed);
    Path good = writeFile(Compression.NONE);
    byte[] bytes = Files.readAllBytes(good);
    for (int i = bytes.length - Trailer.SIZE; i < bytes.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] copy = bytes.clone();
        copy[i] ^= (byte) (1 << bit);
        check(copy, "bit " + bit + " of byte " + i);
      }
      byte[] copy = bytes.clone();
      copy[i] = (byte) (copy[i] + 1 + rnd.nextInt(255));
      check(copy, "byte " + i + " set to " + copy[i] + " (seed " + seed + ")");
    }
  }

  private void check(byte[] content, String what) throws IOException {
    Path p = dir.resolve("damaged-trailer");
    Files.write(p, content);
    assertThatThrownBy(() -> SortedFileReader.open(p, 1).release()).as(what)
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(p.toString());
  }

  /**
   * Files written before the trailer checksum covered the version stay readable: the version 2 golden
   * file (a classic Bloom filter, as version 1 had) with a version 1 trailer.
   */
  @Test
  void versionOneFilesAreStillRead() throws IOException {
    Path p = dir.resolve("version-1");
    byte[] bytes = java.util.HexFormat.of().parseHex(GoldenFileTest.GOLDEN_V2);
    int t = bytes.length - Trailer.SIZE;
    Bytes.putInt(bytes, t + 52, 1);
    Bytes.putInt(bytes, t + 48, BlockFormat.crc(bytes, t, 48));
    Files.write(p, bytes);
    SortedFileReader r = SortedFileReader.open(p, 1);
    try {
      assertThat(r.trailer().version()).isEqualTo(1);
      assertThat(TestCells.scanAll(r)).containsExactlyElementsOf(GoldenFileTest.cells());
    } finally {
      r.release();
    }
    bytes[t + 55] = 0; // the version field of a version 1 file, damaged
    Files.write(p, bytes);
    assertThatThrownBy(() -> SortedFileReader.open(p, 1)).isInstanceOf(CorruptionException.class);
  }
}
