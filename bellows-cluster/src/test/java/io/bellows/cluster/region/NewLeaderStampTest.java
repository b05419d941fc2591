package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.cluster.region.RegionCluster.Replica;
import io.bellows.region.Region;
import io.bellows.region.RegionScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new leader whose clock lies an hour behind its predecessor's stamps a put of {@code LATEST}
 * above the newest timestamp the region holds (its clock moved ahead by what it lacks), so the
 * later put wins after the failover (with its own clock it would sort an hour below the earlier
 * put and stay hidden), and a later delete of the column hides both; every replica ends with the
 * same cells.
 */
@Timeout(120)
class NewLeaderStampTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final byte[] ROW = Bytes.of("r");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t")
      .family(ColumnFamilyDescriptor.builder("f").maxVersions(5).build()).build();

  @TempDir Path dir;

  @Test
  void aLaterPutOnALeaderWhoseClockIsBehindWinsAfterAFailover() throws Exception {
    try (RegionCluster cluster = new RegionCluster(dir, TABLE)) {
      Replica first = cluster.onLeaderReplica(region -> {
        region.mutate(ROW, List.of(Cells.put(ROW, F, Q, Long.MAX_VALUE, Bytes.of("old"))), -1, null);
        return null;
      });
      long oldTs = row(first.region()).get(0).timestamp();
      for (String id : RegionCluster.IDS) {
        if (!id.equals(first.id())) {
          cluster.skewClock(id, -TimeUnit.HOURS.toMillis(1));
        }
      }
      cluster.stop(first.id());

      Replica second = cluster.onLeaderReplica(region -> {
        region.mutate(ROW, List.of(Cells.put(ROW, F, Q, Long.MAX_VALUE, Bytes.of("new"))), -1, null);
        return null;
      });
      assertThat(second.id()).isNotEqualTo(first.id());
      List<Cell> versions = row(second.region());
      assertThat(versions).extracting(c -> Bytes.str(c.value())).containsExactly("new", "old");
      assertThat(versions.get(0).timestamp()).as("above the predecessor's stamp, not an hour below it")
          .isGreaterThan(oldTs).isLessThan(oldTs + TimeUnit.MINUTES.toMillis(30));

      cluster.onLeader(region -> {
        region.mutate(ROW, List.of(Cells.create(ROW, F, Q, Long.MAX_VALUE, CellType.DELETE_COLUMN, Bytes.EMPTY)), -1,
            null);
        return null;
      });
      assertThat(row(second.region())).as("the delete hides both versions").isEmpty();
      for (Replica r : cluster.live()) {
        r.applier().awaitIndex(second.applier().last());
        assertThat(RegionCluster.contents(r.region())).as(r.id()).isEqualTo(RegionCluster.contents(second.region()));
      }
    }
  }

  /** Every version of the row's column, newest first. */
  private static List<Cell> row(Region region) {
    List<Cell> out = new ArrayList<>();
    try (RegionScanner s = region.scanner(ScanQuery.builder().singleRow(ROW).maxVersions(Integer.MAX_VALUE).build())) {
      s.nextRow(out);
    }
    return out;
  }
}
