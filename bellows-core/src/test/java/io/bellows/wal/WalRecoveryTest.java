package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.copyDir;
import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flat;
import static io.bellows.wal.WalTestSupport.flipByte;
import static io.bellows.wal.WalTestSupport.quiet;
import static io.bellows.wal.WalTestSupport.record;
import static io.bellows.wal.WalTestSupport.reopenAndReplay;
import static io.bellows.wal.WalTestSupport.replayAll;
import static io.bellows.wal.WalTestSupport.walFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.record.WriteRecord;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Torn tails are cut, corruption elsewhere is reported with file and offset. */
class WalRecoveryTest {
  @TempDir Path tmp;

  private final List<WriteRecord> written = new ArrayList<>();
  /** Start offset (in the file) of each written record. */
  private final List<Long> starts = new ArrayList<>();

  /** Writes {@code n} edits to one file in {@code dir} and returns the file. */
  private Path writeFile(Path dir, int n) throws IOException {
    try (Wal wal = Wal.open(dir, quiet())) {
      long prev = 0;
      for (int i = 0; i < n; i++) {
        WriteRecord e = edit(3, (1L << 33) + i, "row" + i, "value-" + i);
        starts.add(WalFormat.HEADER_SIZE + prev);
        prev = wal.append(e);
        written.add(e);
      }
    }
    List<Path> files = walFiles(dir);
    assertThat(files).hasSize(1);
    return files.get(0);
  }

  private static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }

  @Test
  void tornTailAtEveryOffsetOfTheLastRecordIsCutAndTheLogStaysUsable() throws IOException {
    Path pristine = tmp.resolve("pristine");
    Path file = writeFile(pristine, 5);
    long lastStart = starts.get(4);
    long end = Files.size(file);
    List<String> kept = flat(written.subList(0, 4));
    for (long cut = lastStart; cut < end; cut++) {
      Path dir = tmp.resolve("cut" + cut);
      copyDir(pristine, dir);
      Path f = dir.resolve(file.getFileName());
      truncate(f, cut);
      WriteRecord extra = edit(9, 1L << 40, "extra", "after-" + cut);
      try (Wal wal = Wal.open(dir, quiet())) {
        assertThat(flat(replayAll(wal))).as("cut at %d", cut).containsExactlyElementsOf(kept);
        assertThat(Files.size(f)).as("file cut back to the last good record").isEqualTo(lastStart);
        wal.append(extra);
      }
      List<String> expected = new ArrayList<>(kept);
      expected.add(flat(extra));
      assertThat(flat(reopenAndReplay(dir))).as("cut at %d, reopened", cut).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void checksumMismatchOnTheFinalRecordIsATornTail() throws IOException {
    Path dir = tmp.resolve("w");
    Path file = writeFile(dir, 4);
    flipByte(file, Files.size(file) - 1);
    assertThat(flat(reopenAndReplay(dir))).containsExactlyElementsOf(flat(written.subList(0, 3)));
    assertThat(Files.size(file)).isEqualTo(starts.get(3));
  }

  @Test
  void zeroFilledTailIsCut() throws IOException {
    Path dir = tmp.resolve("w");
    Path file = writeFile(dir, 3);
    long size = Files.size(file);
    Files.write(file, new byte[5000], StandardOpenOption.APPEND);
    assertThat(flat(reopenAndReplay(dir))).containsExactlyElementsOf(flat(written));
    assertThat(Files.size(file)).isEqualTo(size);
  }

  @Test
  void flippedByteInAMiddleRecordIsCorruptionNamingFileAndOffset() throws IOException {
    Path dir = tmp.resolve("w");
    Path file = writeFile(dir, 5);
    long bad = starts.get(2);
    flipByte(file, bad + WalFormat.RECORD_HEADER_SIZE + 10); // inside the payload
    long size = Files.size(file);
    List<WriteRecord> seen = new ArrayList<>();
    try (Wal wal = Wal.open(dir, quiet())) {
      assertThatThrownBy(() -> wal.replay(seen::add))
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("offset " + bad);
    }
    assertThat(flat(seen)).containsExactlyElementsOf(flat(written.subList(0, 2)));
    assertThat(Files.size(file)).as("a corrupt log is not modified").isEqualTo(size);
  }

  @Test
  void badRecordInAnOlderFileIsCorruptionEvenAtItsEnd() throws IOException {
    Path dir = tmp.resolve("w");
    Path first = writeFile(dir, 3);
    try (Wal wal = Wal.open(dir, quiet())) {
      replayAll(wal);
      wal.append(edit(1, 100, "later", "file"));
    }
    // Damage that would be a torn tail in the last file.
    flipByte(first, Files.size(first) - 1);
    assertThatThrownBy(() -> reopenAndReplay(dir))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(first.toString())
        .hasMessageContaining("offset " + starts.get(2));
    flipByte(first, Files.size(first) - 1);
    truncate(first, Files.size(first) - 3);
    assertThatThrownBy(() -> reopenAndReplay(dir))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(first.toString());
  }

  @Test
  void wellChecksummedButMalformedRecordIsCorruptionNotATornTail() throws IOException {
    Path dir = tmp.resolve("w");
    Path file = writeFile(dir, 2);
    // A record whose payload claims 3 cells but holds none, with a correct checksum.
    byte[] payload = new byte[WalFormat.MIN_PAYLOAD];
    Bytes.putInt(payload, 0, 1);
    Bytes.putLong(payload, 4, 99);
    Bytes.putInt(payload, 12, 3);
    byte[] rec = record(payload);
    long at = Files.size(file);
    Files.write(file, rec, StandardOpenOption.APPEND);
    assertThatThrownBy(() -> reopenAndReplay(dir))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining("offset " + at)
        .hasMessageContaining("cell count");
  }

  @Test
  void lastFileWithATornHeaderIsDropped() throws IOException {
    Path dir = tmp.resolve("w");
    writeFile(dir, 2);
    Path torn = dir.resolve(WalFormat.fileName(2));
    Files.write(torn, new byte[] {'B', 'W', 'A'});
    try (Wal wal = Wal.open(dir, quiet())) {
      assertThat(flat(replayAll(wal))).containsExactlyElementsOf(flat(written));
      assertThat(torn).doesNotExist();
      wal.append(edit(1, 50, "x", "y"));
    }
    assertThat(reopenAndReplay(dir)).hasSize(3);
  }

  @Test
  void badHeaderOfAnOlderFileIsCorruption() throws IOException {
    Path dir = tmp.resolve("w");
    Path first = writeFile(dir, 2);
    try (Wal wal = Wal.open(dir, quiet())) {
      replayAll(wal);
      wal.append(edit(1, 100, "later", "file"));
    }
    flipByte(first, 9);
    assertThatThrownBy(() -> reopenAndReplay(dir))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(first.toString())
        .hasMessageContaining("offset 0");
  }

  /** Appending without replay must not leave the torn record in a file that is no longer last. */
  @Test
  void appendBeforeReplayRepairsTheTornTailFirst() throws IOException {
    Path dir = tmp.resolve("w");
    Path file = writeFile(dir, 3);
    truncate(file, Files.size(file) - 2);
    try (Wal wal = Wal.open(dir, quiet())) {
      wal.append(edit(1, 100, "x", "y"));
    }
    List<String> expected = new ArrayList<>(flat(written.subList(0, 2)));
    expected.add(flat(edit(1, 100, "x", "y")));
    assertThat(flat(reopenAndReplay(dir))).containsExactlyElementsOf(expected);
  }

  /**
   * The defect report's case: a flipped bit in the high byte of a middle record's length made the
   * record seem to run past the end of the file, and everything from it on was cut as a torn tail.
   */
  @Test
  void flippedLengthBitInAMiddleRecordIsCorruptionNotATornTail() throws IOException {
    Path live = tmp.resolve("live");
    Path crashed = tmp.resolve("crashed");
    try (Wal wal = Wal.open(live, quiet())) {
      long prev = 0;
      for (int i = 0; i < 1000; i++) {
        WriteRecord e = edit(3, 1000 + i, "row" + i, "value-" + i);
        starts.add(WalFormat.HEADER_SIZE + prev);
        prev = wal.append(e);
        wal.sync(prev, io.bellows.config.Durability.FSYNC_WAL);
        written.add(e);
      }
      copyDir(live, crashed); // the state a SIGKILL leaves: every record forced, the log never closed
    }
    Path file = walFiles(crashed).get(0);
    long bad = starts.get(500);
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) bad] ^= 0x10; // high byte of the length: the record now "runs past the end"
    Files.write(file, bytes);
    List<WriteRecord> seen = new ArrayList<>();
    try (Wal wal = Wal.open(crashed, quiet())) {
      assertThatThrownBy(() -> wal.replay(seen::add))
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("offset " + bad + ":")
          .hasMessageContaining("valid record follows at byte offset " + starts.get(501))
          .hasMessageContaining("wal-dump");
    }
    assertThat(seen).hasSize(500);
    assertThat(Files.size(file)).as("a corrupt log is not modified").isEqualTo(bytes.length);
  }

  @Test
  void zeroedHoleFollowedByValidRecordsIsCorruption() throws IOException {
    Path dir = tmp.resolve("w");
    Path file = writeFile(dir, 5);
    byte[] bytes = Files.readAllBytes(file);
    java.util.Arrays.fill(bytes, starts.get(2).intValue(), starts.get(3).intValue(), (byte) 0);
    Files.write(file, bytes);
    assertThatThrownBy(() -> reopenAndReplay(dir))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining("offset " + starts.get(2) + ":");
  }

  @Test
  void damagedHeaderOfTheFinalRecordIsATornTail() throws IOException {
    Path dir = tmp.resolve("w");
    Path file = writeFile(dir, 4);
    flipByte(file, starts.get(3) + 1);
    assertThat(flat(reopenAndReplay(dir))).containsExactlyElementsOf(flat(written.subList(0, 3)));
    assertThat(Files.size(file)).isEqualTo(starts.get(3));
  }

  @Test
  void fileOfTheOldFormatVersionIsRefusedClearly() throws IOException {
    Path dir = tmp.resolve("w");
    Path file = writeFile(dir, 1);
    byte[] bytes = Files.readAllBytes(file);
    Bytes.putInt(bytes, 4, 1);
    Bytes.putInt(bytes, 16, WalFormat.crc(bytes, 0, 16));
    Files.write(file, bytes);
    assertThatThrownBy(() -> reopenAndReplay(dir))
        .isInstanceOf(io.bellows.util.StorageException.class)
        .isNotInstanceOf(CorruptionException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("WAL format version 1 is not supported (this build reads versions 2 to 4)");
  }
}
