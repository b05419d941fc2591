package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.cluster.LogPosition;
import io.bellows.engine.CallId;
import io.bellows.record.WriteRecord;
import io.bellows.region.Region;
import io.bellows.region.SequenceIds;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region's applier handed entries that name their calls, directly (no Raft): a call's second
 * entry is not applied and is answered with the first answer, and the table survives a restart
 * after a checkpoint, with the replay of the log after it deciding each entry as the first time.
 */
class RegionApplierCallsTest {
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();
  private static final int REGION_ID = 7;
  private static final long BASE = 1_000_000;
  private static final long TERM = 3;
  private static final byte[] ROW = Bytes.of("counter");
  private static final long CLIENT = 0x0123_4567_89ab_cdefL;

  @TempDir Path dir;
  private final AtomicLong files = new AtomicLong(1);
  private Region region;
  private RegionApplier applier;

  @AfterEach
  void close() {
    if (region != null) {
      region.close(false);
    }
  }

  private void open() {
    RaftRegionLog log = new RaftRegionLog();
    SequenceIds ids = SequenceIds.assignedByLog(BASE);
    ReplicaServices services = new ReplicaServices(log, ids, files);
    Path regionDir = dir.resolve("region");
    region = Files.exists(regionDir) ? new Region(REGION_ID, TABLE, regionDir, services)
        : Region.create(REGION_ID, TABLE, regionDir, services);
    applier = RegionApplier.open(region, ids, BASE, log, dir);
  }

  /** The entry of an increment's resolved record: the counter's new value, named as {@code call}. */
  private static byte[] increment(long call, long lowest, long newValue) {
    Cell c = Cells.put(ROW, Bytes.of("f"), Bytes.of("n"), 100 + newValue, Bytes.toBytes(newValue));
    return RegionEntry.encode(TERM, new CallId(CLIENT, 1, call, lowest), 1,
        new WriteRecord(REGION_ID, 0, List.of(c)));
  }

  private byte[] apply(long index, byte[] entry) {
    return applier.apply(new LogPosition(TERM, index), entry);
  }

  private static long answer(byte[] reply) {
    List<Cell> first = RegionEntry.duplicateAnswer(reply);
    assertThat(first).as("a duplicate's reply").isNotNull().hasSize(1);
    return Bytes.getLong(first.get(0).array(), first.get(0).valueOffset());
  }

  @Test
  void aCallsSecondEntryIsNotAppliedAndGetsTheFirstAnswer() {
    open();
    assertThat(apply(1, increment(1, 1, 5))).isEqualTo(RegionEntry.APPLIED);
    List<String> once = RegionCluster.contents(region);
    // The retry reached the log too (its first sending was pending on a leader that stepped down),
    // evaluated against a state that did not show the first yet: it would write 5 again, as a new version.
    assertThat(answer(apply(2, increment(1, 1, 5)))).isEqualTo(5);
    assertThat(RegionCluster.contents(region)).isEqualTo(once);
    // Entries without ids (older writers) are applied as before.
    Cell put = Cells.put(Bytes.of("other"), Bytes.of("f"), Bytes.of("q"), 9, Bytes.of("v"));
    assertThat(apply(3, RegionEntry.encode(TERM, new WriteRecord(REGION_ID, 0, List.of(put)))))
        .isEqualTo(RegionEntry.APPLIED);
    assertThat(RegionCluster.contents(region)).hasSize(2);
  }

  @Test
  void theTableSurvivesARestartAfterACheckpointAndTheReplayDecidesAsTheFirstTime() {
    open();
    apply(1, increment(1, 1, 1));
    apply(2, increment(2, 1, 2));
    apply(3, increment(2, 1, 2)); // a duplicate
    region.flush(true);
    // Applied after the flush, so in memory only: the checkpoint lies below them, the table's file above.
    List<byte[]> after = new ArrayList<>();
    after.add(increment(3, 2, 3));
    after.add(increment(3, 2, 3)); // a duplicate, skipped
    after.add(increment(4, 2, 4));
    after.add(increment(5, 2, 5)); // after the checkpoint's file too
    for (int i = 0; i < 3; i++) {
      apply(4 + i, after.get(i));
    }
    LogPosition checkpoint = applier.durablePosition();
    assertThat(checkpoint.index()).isEqualTo(3);
    applier.checkpointing(checkpoint);
    assertThat(dir.resolve(AnsweredCallsFile.NAME)).exists();
    apply(7, after.get(3));
    List<String> before = RegionCluster.contents(region);
    region.close(false); // a crash: what the memory stores held is lost
    region = null;

    // The restart: the table as it was written (after index 6), the log replayed after the checkpoint.
    open();
    List<byte[]> replies = new ArrayList<>();
    for (int i = 0; i < after.size(); i++) {
      replies.add(apply(4 + i, after.get(i)));
    }
    assertThat(replies.get(0)).isEqualTo(RegionEntry.APPLIED); // at the index that applied it: not a duplicate
    assertThat(RegionEntry.duplicateAnswer(replies.get(1))).isNotNull();
    assertThat(replies.get(2)).isEqualTo(RegionEntry.APPLIED);
    assertThat(replies.get(3)).isEqualTo(RegionEntry.APPLIED);
    assertThat(RegionCluster.contents(region)).isEqualTo(before);

    // Retries of calls answered before the checkpoint and after it apply nothing and get the first answers.
    assertThat(answer(apply(8, increment(2, 2, 99)))).isEqualTo(2);
    assertThat(answer(apply(9, increment(5, 2, 99)))).isEqualTo(5);
    assertThat(RegionCluster.contents(region)).isEqualTo(before);
    // A retry of call 1, below the client's watermark (it waits for nothing below 2), applies nothing either.
    assertThat(apply(10, increment(1, 1, 99))).isEqualTo(RegionEntry.STALE);
    assertThat(RegionCluster.contents(region)).isEqualTo(before);
  }
}
