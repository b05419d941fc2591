package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.Durability;
import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import io.bellows.fs.MemFileSystem;
import io.bellows.record.WriteRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log file goes once each region whose edits it holds has flushed past them, judged region by
 * region: a region written slowly keeps only the files holding its edits, and retention does not
 * compare sequence ids of different regions (which may come from counters of their own). A fenced
 * file and the next one, which names its fence, go together.
 */
class WalRegionRetentionTest {
  private static final long ROLL = 2048;
  private static final int COLD = 1;
  private static final int HOT = 2;

  @TempDir Path dir;
  private final Random rnd = new Random(7);

  /** Appends edits of {@code region} until the log has rolled {@code rolls} more times. */
  private long fill(Wal wal, int region, long seq, int rolls) {
    long target = wal.filesRolled() + rolls;
    while (wal.filesRolled() < target) {
      wal.append(edit(region, seq++, rnd));
    }
    return seq;
  }

  @Test
  void aSlowRegionPinsOnlyTheFilesHoldingItsEdits() {
    try (Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000))) {
      wal.append(edit(COLD, 10, rnd)); // one edit of a region written slowly, still in memory
      long hot = fill(wal, HOT, 11, 3); // files 1..3 hold the hot region's edits; file 1 also the cold one
      List<Path> before = wal.files();
      assertThat(before).hasSize(4);
      // The hot region flushed everything; the cold one still needs its edit 10.
      long hotNeeds = hot;
      OldestNeeded needed = region -> region == COLD ? 10 : region == HOT ? hotNeeds : Long.MAX_VALUE;
      assertThat(wal.regionsPinningOldestFile(needed)).containsExactly(COLD);
      // One engine-wide threshold (the smallest a region needs, 10) would keep every file.
      assertThat(wal.deleteObsolete(needed)).isEqualTo(2);
      assertThat(wal.files()).containsExactly(before.get(0), before.get(3));
      // Once the cold region flushes, its file goes too.
      assertThat(wal.deleteObsolete(region -> region == COLD ? 11 : hotNeeds)).isEqualTo(1);
      assertThat(wal.files()).containsExactly(before.get(3));
    }
  }

  @Test
  void aFileIsKeptWhileAnyRegionNeedsAnEditOfItWhateverTheIdsOfOthers() {
    try (Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000))) {
      // Two regions with counters of their own: the hot one's ids are far above the cold one's.
      wal.append(edit(COLD, 5, rnd));
      fill(wal, HOT, 1_000_000, 1);
      wal.append(edit(COLD, 6, rnd)); // in the current file
      fill(wal, HOT, 2_000_000, 1);
      List<Path> before = wal.files();
      assertThat(before).hasSize(3);
      // The cold region needs 5 onwards; the hot one nothing below 3,000,000. File 1 holds cold 5.
      assertThat(wal.deleteObsolete(region -> region == COLD ? 5 : 3_000_000)).isZero();
      // The cold region flushed 5 but not 6 (in file 2): file 1 goes, file 2 stays.
      assertThat(wal.deleteObsolete(region -> region == COLD ? 6 : 3_000_000)).isEqualTo(1);
      assertThat(wal.files()).containsExactly(before.get(1), before.get(2));
    }
  }

  @Test
  void afterAReopenTheFilesAreJudgedByTheRegionsTheirReplayFound() {
    long hot;
    try (Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000))) {
      wal.append(edit(COLD, 10, rnd));
      hot = fill(wal, HOT, 11, 2);
    }
    long hotNeeds = hot;
    try (Wal wal = Wal.open(dir, new WalOptions(ROLL, 3_600_000))) {
      List<Path> before = wal.files();
      wal.replay(e -> { });
      Map<Integer, Long> needs = Map.of(COLD, 10L, HOT, hotNeeds);
      // Every file of the last run but the one holding the cold region's edit (no file is current yet).
      assertThat(wal.deleteObsolete(region -> needs.getOrDefault(region, Long.MAX_VALUE))).isEqualTo(before.size() - 1);
      assertThat(wal.files()).containsExactly(before.get(0));
    }
  }

  /**
   * A file fenced after a failed write, and the next one, whose header says where the fenced one's
   * forced part ends, go together: had the fenced file gone alone (its region flushed) while an
   * older file stayed (a cold region's), replay would take the fence for the older file and cut it
   * there, dropping acknowledged edits.
   */
  @Test
  void aFencedFileGoesOnlyTogetherWithTheFileNamingItsFence() {
    MemFileSystem disk = new MemFileSystem();
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(disk);
    Path walDir = Path.of("/wal");
    int flushed = 3;
    List<WriteRecord> kept = new ArrayList<>(); // acknowledged edits of the regions that did not flush
    long seq = 1;
    try (Wal wal = Wal.open(fs, walDir, WalTestSupport.quiet())) { // the oldest file: longer than the fence below
      for (int i = 0; i < 20; i++) {
        WriteRecord e = edit(i % 2 == 0 ? COLD : HOT, seq++, rnd);
        wal.sync(wal.append(e), Durability.FSYNC_WAL);
        kept.add(e);
      }
    }
    try (Wal wal = Wal.open(fs, walDir, WalTestSupport.quiet())) {
      wal.replay(e -> { });
      wal.sync(wal.append(edit(flushed, seq++, rnd)), Durability.FSYNC_WAL); // a new file
      fs.inject(Fault.on(Error.EIO, Op.WRITE).paths("/wal/").nth(1));
      wal.sync(wal.append(edit(flushed, seq++, rnd)), Durability.FSYNC_WAL); // fails, heals to a third file
      assertThat(wal.filesFenced()).isEqualTo(1);
      WriteRecord hot = edit(HOT, seq++, rnd);
      wal.sync(wal.append(hot), Durability.FSYNC_WAL);
      kept.add(hot);
      assertThat(wal.files()).hasSize(3);
      // The fenced file's only region flushed; the file after it is the current one; the oldest
      // file is still needed.
      assertThat(wal.deleteObsolete(region -> region == flushed ? Long.MAX_VALUE : 0)).isZero();
    }
    List<WriteRecord> replayed = new ArrayList<>();
    try (Wal wal = Wal.open(disk, walDir, WalTestSupport.quiet())) {
      wal.replay(replayed::add);
    }
    assertThat(WalTestSupport.flat(replayed.stream().filter(e -> e.regionId() != flushed).toList()))
        .isEqualTo(WalTestSupport.flat(kept));
  }
}
