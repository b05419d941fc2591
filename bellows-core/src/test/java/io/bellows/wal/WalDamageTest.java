package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.copyDir;
import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flat;
import static io.bellows.wal.WalTestSupport.walFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.bellows.record.WriteRecord;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Randomized damage: one changed byte anywhere in the log either makes replay fail with a {@link
 * CorruptionException} naming the file and the damaged record's offset, or (only for the final
 * record of the log) is cut as a torn tail; an intact record is never lost silently. A cut at any
 * point of the last file recovers exactly the records before the cut.
 *
 * <p>The seed is printed; replay a failure with {@code -Dbellows.test.seed=<seed>}.
 */
@ExtendWith(SeedExtension.class)
class WalDamageTest {
  /** This test's seed (one per test; {@link SeedExtension} prints it and takes a fixed one for replay). */
  private Seed seed;

  @BeforeEach
  void takeSeed(Seed seed) {
    this.seed = seed;
  }

  @TempDir Path tmp;

  /** One record as found in the pristine log. */
  private record Placed(Path file, long offset, long end, WriteRecord edit) {}

  private int dirs;

  /** Writes a random log (one or several files) and returns its records in log order. */
  private List<Placed> writeLog(Path dir, Random rnd) throws IOException {
    long roll = rnd.nextBoolean() ? 64L << 20 : 500 + rnd.nextInt(3000);
    int n = 1 + rnd.nextInt(120);
    try (Wal wal = Wal.open(dir, new WalOptions(roll, 3_600_000))) {
      for (int i = 0; i < n; i++) {
        wal.append(edit(1 + rnd.nextInt(3), 100 + i, rnd));
      }
    }
    List<Placed> placed = new ArrayList<>();
    for (Path f : walFiles(dir)) {
      WalFileReader.Outcome o = WalFileReader.read(io.bellows.fs.LocalFileSystem.INSTANCE, f, WalFormat.parseFileNumber(f),
          (off, len, e) -> placed.add(new Placed(f, off, off + WalFormat.RECORD_HEADER_SIZE + len, e)));
      assertThat(o.problem()).isNull();
    }
    assertThat(placed).hasSize(n);
    return placed;
  }

  private static List<String> flatEdits(List<Placed> ps) {
    List<String> out = new ArrayList<>();
    ps.forEach(p -> out.add(flat(p.edit())));
    return out;
  }

  private Path copy(Path pristine) throws IOException {
    Path d = tmp.resolve("case" + dirs++);
    copyDir(pristine, d);
    return d;
  }

  @Test
  void anyChangedByteIsReportedOrIsATornFinalRecord() throws IOException {
    Random rnd = seed.random();
    for (int round = 0; round < 15; round++) {
      Path pristine = tmp.resolve("pristine" + round);
      List<Placed> log = writeLog(pristine, rnd);
      List<Path> files = walFiles(pristine);
      for (int k = 0; k < 25; k++) {
        Path dir = copy(pristine);
        Path file = dir.resolve(files.get(rnd.nextInt(files.size())).getFileName());
        byte[] bytes = Files.readAllBytes(file);
        int at = rnd.nextInt(bytes.length);
        byte before = bytes[at];
        bytes[at] = rnd.nextBoolean() ? (byte) (before ^ (1 << rnd.nextInt(8))) : (byte) (before + 1 + rnd.nextInt(255));
        Files.write(file, bytes);
        String what = "seed " + seed.value() + " round " + round + " case " + k + ": byte " + at + " of " + file.getFileName()
            + " changed from " + before + " to " + bytes[at];

        // The record holding the damaged byte (or the file header: offset 0, before the file's first record).
        // The first record lost: the one holding the damaged byte, or the file's first record if the
        // byte is in the file header (then the damage is at offset 0). Every byte of a file is one or
        // the other: each file holds at least one record.
        int victim = -1;
        long victimOffset = -1;
        for (int i = 0; i < log.size() && victim < 0; i++) {
          Placed p = log.get(i);
          if (p.file().getFileName().equals(file.getFileName()) && at < p.end()) {
            victim = i;
            victimOffset = at >= p.offset() ? p.offset() : 0;
          }
        }
        List<WriteRecord> seen = new ArrayList<>();
        try (Wal wal = Wal.open(dir, WalTestSupport.quiet())) {
          wal.replay(seen::add);
          // Accepted silently: only a torn final record may be missing, nothing else.
          assertThat(victim).as(what + ": only the log's final record may be cut silently").isEqualTo(log.size() - 1);
          assertThat(victimOffset).as(what).isPositive();
          assertThat(flat(seen)).as(what).containsExactlyElementsOf(flatEdits(log.subList(0, log.size() - 1)));
        } catch (CorruptionException e) {
          assertThat(e.getMessage()).as(what).contains(file.toString()).contains("offset " + victimOffset + ":");
          assertThat(flat(seen)).as(what + ": every record before the damage is replayed")
              .containsExactlyElementsOf(flatEdits(log.subList(0, victim)));
          assertThat(Files.readAllBytes(file)).as(what + ": not modified").isEqualTo(bytes);
        } catch (RuntimeException e) {
          fail(what + ": unexpected " + e, e);
        }
      }
    }
  }

  @Test
  void cutAtAnyPointOfTheLastFileRecoversExactlyThePrefix() throws IOException {
    Random rnd = seed.random();
    for (int round = 0; round < 10; round++) {
      Path pristine = tmp.resolve("pristine" + round);
      List<Placed> log = writeLog(pristine, rnd);
      List<Path> files = walFiles(pristine);
      Path lastName = files.get(files.size() - 1).getFileName();
      for (int k = 0; k < 20; k++) {
        Path dir = copy(pristine);
        Path last = dir.resolve(lastName);
        long cut = rnd.nextInt((int) Files.size(last) + 1);
        try (FileChannel ch = FileChannel.open(last, StandardOpenOption.WRITE)) {
          ch.truncate(cut);
        }
        List<Placed> expected = new ArrayList<>();
        for (Placed p : log) {
          if (!p.file().getFileName().equals(lastName) || (cut >= WalFormat.HEADER_SIZE && p.end() <= cut)) {
            expected.add(p);
          }
        }
        String what = "seed " + seed.value() + " round " + round + ": last file cut at " + cut;
        List<WriteRecord> seen = new ArrayList<>();
        try (Wal wal = Wal.open(dir, WalTestSupport.quiet())) {
          wal.replay(seen::add);
        }
        assertThat(flat(seen)).as(what).containsExactlyElementsOf(flatEdits(expected));
      }
    }
  }
}
