package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.cluster.LogPosition;
import io.bellows.record.WriteRecord;
import io.bellows.region.Region;
import io.bellows.region.SequenceIds;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command entries of a region's log, handed to its applier directly (no Raft): a split entry
 * goes to the member's commands and every write after it in the log is answered MOVED with nothing
 * applied, in any term; a command on a replica without
 * commands, or of no known kind, stops the applier rather than being skipped.
 */
class RegionApplierSplitTest {
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();
  private static final int REGION_ID = 7;
  private static final long BASE = 1_000_000;
  private static final long TERM = 3;

  @TempDir Path dir;
  private Region region;
  private RegionApplier applier;

  @AfterEach
  void close() {
    if (region != null && !region.isClosedForWork()) {
      region.close(false);
    }
  }

  private void open() {
    RaftRegionLog log = new RaftRegionLog();
    SequenceIds ids = SequenceIds.assignedByLog(BASE);
    region = Region.create(REGION_ID, TABLE, dir.resolve("region"), new ReplicaServices(log, ids, new AtomicLong(1)));
    applier = RegionApplier.open(region, ids, BASE, log, dir);
  }

  private static byte[] put(String row, long ts) {
    Cell c = Cells.put(Bytes.of(row), Bytes.of("f"), Bytes.of("q"), ts, Bytes.of("v"));
    return RegionEntry.encode(TERM, new WriteRecord(REGION_ID, 0, List.of(c)));
  }

  @Test
  void writesAfterTheSplitEntryAreAnsweredMovedAndNotApplied() {
    open();
    List<String> commands = new ArrayList<>();
    applier.commands(new RegionApplier.Commands() {
      @Override
      public void split(String text, LogPosition at) {
        commands.add("split@" + at.index() + ":" + text);
      }

    });
    assertThat(applier.apply(new LogPosition(TERM, 1), put("a", 10))).isEqualTo(RegionEntry.APPLIED);
    List<String> before = RegionCluster.contents(region);
    assertThat(RegionEntry.commandText(put("a", 10))).as("a write is no command").isNull();

    byte[] split = RegionEntry.command(TERM, "split\tx");
    assertThat(RegionEntry.commandText(split)).isEqualTo("split\tx");
    assertThat(applier.apply(new LogPosition(TERM, 2), split)).isEqualTo(RegionEntry.APPLIED);
    assertThat(applier.isSplit()).isTrue();
    byte[] moved = applier.apply(new LogPosition(TERM, 3), put("b", 11));
    assertThat(RegionEntry.moved(moved)).isTrue();
    assertThat(RegionEntry.moved(applier.apply(new LogPosition(TERM + 1, 4), put("c", 12))))
        .as("a write of a later term too").isTrue();
    assertThat(RegionCluster.contents(region)).as("nothing applied after the split").isEqualTo(before);
    assertThat(commands).containsExactly("split@2:split\tx");
  }

  @Test
  void aCommandWithoutCommandsOrOfNoKnownKindStopsTheApplier() {
    open();
    assertThatThrownBy(() -> applier.apply(new LogPosition(TERM, 1), RegionEntry.command(TERM, "split\tx")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("has no commands here");
    applier.commands(new RegionApplier.Commands() {
      @Override
      public void split(String text, LogPosition at) {}

    });
    assertThatThrownBy(() -> applier.apply(new LogPosition(TERM, 1), RegionEntry.command(TERM, "merge\tx")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("unknown command");
    assertThat(applier.isSplit()).isFalse();
  }
}
