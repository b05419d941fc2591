package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flat;
import static io.bellows.wal.WalTestSupport.quiet;
import static io.bellows.wal.WalTestSupport.reopenAndReplay;
import static io.bellows.wal.WalTestSupport.replayAll;
import static io.bellows.wal.WalTestSupport.walFiles;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.record.WriteRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalRollDeleteTest {
  private static final long ROLL = 2048;

  @TempDir Path dir;

  private final List<WriteRecord> written = new ArrayList<>();
  /** Highest sequence id per file, learnt from which file was current after each append. */
  private final Map<Path, Long> maxSeqPerFile = new LinkedHashMap<>();

  /** Appends edits with the given sequence ids, tracking which file each went to. */
  private void append(Wal wal, long... seqs) {
    Random rnd = new Random(42);
    for (long s : seqs) {
      WriteRecord e = edit(1, s, rnd);
      wal.append(e);
      written.add(e);
      List<Path> files = wal.files();
      maxSeqPerFile.merge(files.get(files.size() - 1), s, Math::max);
    }
  }

  private static long[] range(long from, int n) {
    long[] r = new long[n];
    for (int i = 0; i < n; i++) {
      r[i] = from + i;
    }
    return r;
  }

  @Test
  void rollingCreatesFilesAndReplayKeepsOrderAcrossThem() throws IOException {
    try (Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000))) {
      append(wal, range(1L << 32, 120));
      assertThat(wal.fileCount()).isGreaterThan(3);
      assertThat(wal.filesRolled()).isEqualTo(wal.fileCount() - 1);
    }
    List<Path> files = walFiles(dir);
    assertThat(files).hasSize(maxSeqPerFile.size());
    for (int i = 0; i < files.size(); i++) {
      assertThat(files.get(i).getFileName().toString()).isEqualTo(WalFormat.fileName(i + 1));
      if (i < files.size() - 1) {
        assertThat(Files.size(files.get(i))).as("a rolled file reached the roll size").isGreaterThanOrEqualTo(ROLL);
        // It is at most one record past it: the append that filled it was the last one.
        assertThat(Files.size(files.get(i))).isLessThan(ROLL + 1024);
      }
    }
    assertThat(flat(reopenAndReplay(dir))).containsExactlyElementsOf(flat(written));
  }

  @Test
  void deleteObsoleteDeletesExactlyTheFilesWhoseEditsAreAllFlushed() throws IOException {
    try (Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000))) {
      // Sequence ids are not monotonic in file order: concurrent writers take them before appending.
      append(wal, range(100, 40));
      append(wal, 95, 96);
      append(wal, range(140, 60));
      List<Path> files = new ArrayList<>(maxSeqPerFile.keySet());
      assertThat(files.size()).isGreaterThan(3);
      Path current = files.get(files.size() - 1);

      long threshold = maxSeqPerFile.get(files.get(1)) + 1;
      List<Path> expectedGone = new ArrayList<>();
      maxSeqPerFile.forEach((f, max) -> {
        if (!f.equals(current) && max < threshold) {
          expectedGone.add(f);
        }
      });
      assertThat(expectedGone).isNotEmpty();

      assertThat(wal.deleteObsolete(threshold)).isEqualTo(expectedGone.size());
      for (Path f : files) {
        assertThat(Files.exists(f)).as("%s exists", f).isEqualTo(!expectedGone.contains(f));
      }
      assertThat(wal.filesDeleted()).isEqualTo(expectedGone.size());
      assertThat(wal.fileCount()).isEqualTo(files.size() - expectedGone.size());

      // Everything flushed: only the current file remains.
      wal.deleteObsolete(Long.MAX_VALUE);
      assertThat(walFiles(dir)).containsExactly(current);
      assertThat(wal.fileCount()).isEqualTo(1);
    }
  }

  @Test
  void preExistingFilesAreDeletedOnlyOnceReplayLearntTheirSequenceIds() throws IOException {
    try (Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000))) {
      append(wal, range(10, 60));
    }
    int before = walFiles(dir).size();
    try (Wal wal = Wal.open(dir, quiet())) {
      assertThat(wal.deleteObsolete(Long.MAX_VALUE)).as("unknown before replay").isZero();
      assertThat(walFiles(dir)).hasSize(before);
      replayAll(wal);
      long lastFileMax = maxSeqPerFile.values().stream().reduce((a, b) -> b).orElseThrow();
      // Keep the file that holds seq id lastFileMax.
      assertThat(wal.deleteObsolete(lastFileMax)).isEqualTo(before - 1);
      assertThat(walFiles(dir)).hasSize(1);
      wal.deleteObsolete(lastFileMax + 1);
      assertThat(walFiles(dir)).isEmpty();
    }
  }

  @Test
  void closeAndDeleteObsoleteDropsTheCurrentFileWhenEverythingIsFlushed() throws IOException {
    Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000));
    append(wal, range(500, 50));
    assertThat(walFiles(dir).size()).isGreaterThan(1);
    int files = walFiles(dir).size();
    assertThat(wal.closeAndDeleteObsolete(Long.MAX_VALUE)).isEqualTo(files);
    assertThat(walFiles(dir)).as("the next open has nothing to read").isEmpty();
    assertThat(wal.filesDeleted()).isEqualTo(files);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> wal.append(edit(1, 1, "x", "y")))
        .isInstanceOf(IllegalStateException.class);
    assertThat(reopenAndReplay(dir)).isEmpty();
    // The next run starts numbering again and works as usual.
    try (Wal next = Wal.open(dir, quiet())) {
      replayAll(next);
      next.append(edit(1, 1000, "after", "restart"));
    }
    assertThat(flat(reopenAndReplay(dir))).containsExactly(flat(edit(1, 1000, "after", "restart")));
  }

  @Test
  void closeAndDeleteObsoleteKeepsEveryFileWithAnUnflushedEdit() throws IOException {
    Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000));
    append(wal, range(500, 50));
    List<Path> files = new ArrayList<>(maxSeqPerFile.keySet());
    Path current = files.get(files.size() - 1);
    long currentMax = maxSeqPerFile.get(current);
    // The newest edit is still only in memory: the current file must survive the close, and its
    // edits must have been written and forced by it (nothing is buffered in memory any more).
    assertThat(wal.closeAndDeleteObsolete(currentMax)).isEqualTo(files.size() - 1);
    assertThat(walFiles(dir)).containsExactly(current);
    List<WriteRecord> replayed = reopenAndReplay(dir);
    assertThat(replayed.get(replayed.size() - 1).seqId()).isEqualTo(currentMax);
  }

  @Test
  void closeAndDeleteObsoleteKeepsPreExistingFilesThatWereNeverRead() throws IOException {
    try (Wal wal = Wal.open(dir, quiet())) {
      append(wal, range(10, 5));
    }
    Wal wal = Wal.open(dir, quiet());
    assertThat(wal.closeAndDeleteObsolete(Long.MAX_VALUE)).as("seq ids unknown without replay").isZero();
    assertThat(reopenAndReplay(dir)).hasSize(5);
  }
}
