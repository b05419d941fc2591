package io.bellows.scan;

import static io.bellows.scan.RandomCase.cell;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.schema.ColumnFamilyDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One crafted case per retention rule; the property test covers their combinations. */
class RetentionFiltersTest {
  private static final ColumnFamilyDescriptor TWO = ColumnFamilyDescriptor.builder("f").maxVersions(2).build();

  private static Cell put(String q, long ts, long seq) {
    return cell("r", q, ts, CellType.PUT, seq);
  }

  private static List<String> kept(List<Cell> in, ColumnFamilyDescriptor fam, RetentionFilter.Mode mode, long sRP, long now) {
    List<String> out = new ArrayList<>();
    for (Cell c : RetentionFilterPropertyTest.filter(in, fam, mode, sRP, now)) {
      out.add(c.qualifier().length == 0 && c.type() == CellType.DELETE_FAMILY
          ? "DF" + c.timestamp() + "/" + c.seqId()
          : new String(c.qualifier()) + c.timestamp() + "/" + c.type() + "/" + c.seqId());
    }
    return out;
  }

  @Test
  void flushDropsMaskedOverwrittenAndExtraVersionsButKeepsMarkers() {
    List<Cell> in = List.of(
        cell("r", "", 5, CellType.DELETE_FAMILY, 1),
        put("x", 9, 2), put("x", 9, 3), put("x", 8, 4), put("x", 7, 5), put("x", 5, 6),
        cell("r", "y", 6, CellType.DELETE_COLUMN, 7), put("y", 6, 8), put("y", 7, 9));
    assertThat(kept(in, TWO, RetentionFilter.Mode.FLUSH, 100, 0)).containsExactly(
        "DF5/1",
        "x9/PUT/3", "x8/PUT/4", // x9/seq2 overwritten, x7 beyond VERSIONS, x5 masked by the family delete
        "y7/PUT/9", "y6/DELETE_COLUMN/7"); // y6 masked by the column delete
  }

  @Test
  void versionDeletedPutsKeepTheirSlotUntilMajor() {
    List<Cell> in = List.of(cell("r", "x", 9, CellType.DELETE, 5), put("x", 9, 1), put("x", 8, 2), put("x", 7, 3));
    assertThat(kept(in, TWO, RetentionFilter.Mode.MINOR, 100, 0))
        .containsExactly("x9/DELETE/5", "x9/PUT/1", "x8/PUT/2");
    assertThat(kept(in, TWO, RetentionFilter.Mode.MAJOR, 100, 0)).containsExactly("x8/PUT/2");
  }

  @Test
  void cellsAboveTheSmallestReadPointAreKeptAndMaskNothing() {
    List<Cell> in = List.of(
        cell("r", "", 9, CellType.DELETE_FAMILY, 50), // some reader does not see it yet
        put("x", 9, 40), put("x", 8, 2), put("x", 7, 3), put("x", 6, 4));
    // The put at 9 is above sRP too: it takes no slot, so 8 and 7 are the two counted versions.
    assertThat(kept(in, TWO, RetentionFilter.Mode.MAJOR, 10, 0))
        .containsExactly("DF9/50", "x9/PUT/40", "x8/PUT/2", "x7/PUT/3");
  }

  @Test
  void expiredVersionsGoUnlessMinVersionsKeepsThem() {
    ColumnFamilyDescriptor ttl = ColumnFamilyDescriptor.builder("f").maxVersions(3).minVersions(1).ttlSeconds(1).build();
    List<Cell> in = List.of(put("x", 3000, 1), put("x", 2000, 2), put("x", 1000, 3));
    assertThat(kept(in, ttl, RetentionFilter.Mode.FLUSH, 100, 2500)).containsExactly("x3000/PUT/1", "x2000/PUT/2");
    assertThat(kept(in, ttl, RetentionFilter.Mode.FLUSH, 100, 100_000)).containsExactly("x3000/PUT/1");
  }

  @Test
  void majorDropsEveryTombstoneAtOrBelowTheSmallestReadPoint() {
    List<Cell> in = List.of(
        cell("r", "", 5, CellType.DELETE_FAMILY, 1), cell("r", "x", 6, CellType.DELETE_COLUMN, 2),
        cell("r", "x", 7, CellType.DELETE, 3), put("x", 8, 4), put("x", 6, 5), put("y", 2, 6));
    assertThat(kept(in, TWO, RetentionFilter.Mode.MAJOR, 100, 0)).containsExactly("x8/PUT/4");
    assertThat(ReferenceReader.majorCompact(in, TWO, 100, 0)).hasSize(1);
  }
}
