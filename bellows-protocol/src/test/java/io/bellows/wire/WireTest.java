package io.bellows.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.BloomType;
import io.bellows.config.Durability;
import io.bellows.engine.RowMutation;
import io.bellows.protocol.Query;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireTest {
  @Test
  void cellsOfEveryTypeTravelUnchanged() {
    for (CellType t : List.of(CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN, CellType.DELETE_FAMILY)) {
      Cell c = Cells.create(Bytes.of("row"), Bytes.of("f"), Bytes.of("q"), 42, t, t == CellType.PUT ? Bytes.of("v") : Bytes.EMPTY);
      Cell back = Wire.fromWire(Wire.toWire(c));
      assertThat(back.type()).isEqualTo(t);
      assertThat(back.timestamp()).isEqualTo(42);
      assertThat(back.toBytes()).isEqualTo(c.toBytes());
    }
  }

  @Test
  void mutationsKeepWholeRowDeletesAndDurability() {
    RowMutation whole = new RowMutation(Bytes.of("r"), List.of(), 7, Durability.FSYNC_WAL);
    RowMutation back = Wire.fromWire(Wire.toWire(whole));
    assertThat(back.wholeRowDeleteTs()).isEqualTo(7);
    assertThat(back.durability()).isEqualTo(Durability.FSYNC_WAL);

    RowMutation put = RowMutation.of(Bytes.of("r"),
        List.of(Cells.create(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), Long.MAX_VALUE, CellType.PUT, Bytes.of("v"))),
        Durability.USE_DEFAULT);
    RowMutation putBack = Wire.fromWire(Wire.toWire(put));
    assertThat(putBack.wholeRowDeleteTs()).isEqualTo(-1);
    assertThat(putBack.cells()).hasSize(1);
    assertThat(putBack.cells().get(0).timestamp()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aCellOfAnotherRowIsRefused() {
    RowMutation m = RowMutation.of(Bytes.of("r"),
        List.of(Cells.create(Bytes.of("other"), Bytes.of("f"), Bytes.of("q"), 1, CellType.PUT, Bytes.of("v"))),
        Durability.USE_DEFAULT);
    assertThatThrownBy(() -> Wire.fromWire(Wire.toWire(m))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void queriesKeepRangeColumnsTimeVersionsAndLimit() {
    ScanQuery q = ScanQuery.builder()
        .startRow(Bytes.of("a"), false)
        .stopRow(Bytes.of("m"), true)
        .addFamily(Bytes.of("f"))
        .addColumn(Bytes.of("g"), Bytes.of("q1"))
        .addColumn(Bytes.of("g"), Bytes.of("q2"))
        .timeRange(5, 10)
        .maxVersions(3)
        .limit(17)
        .build();
    ScanQuery back = Wire.fromWire(Wire.toWire(q));
    assertThat(back.startRow()).isEqualTo(Bytes.of("a"));
    assertThat(back.startInclusive()).isFalse();
    assertThat(back.stopRow()).isEqualTo(Bytes.of("m"));
    assertThat(back.stopInclusive()).isTrue();
    assertThat(back.qualifiers(Bytes.of("f"))).isNull();
    assertThat(back.wantsFamily(Bytes.of("f"))).isTrue();
    assertThat(back.qualifiers(Bytes.of("g"))).containsExactly(Bytes.of("q1"), Bytes.of("q2"));
    assertThat(back.minTimestamp()).isEqualTo(5);
    assertThat(back.maxTimestamp()).isEqualTo(10);
    assertThat(back.maxVersions()).isEqualTo(3);
    assertThat(back.limit()).isEqualTo(17);

    ScanQuery all = Wire.fromWire(Wire.toWire(ScanQuery.builder().build()));
    assertThat(all.maxTimestamp()).isEqualTo(Long.MAX_VALUE);
    assertThat(all.limit()).isEqualTo(Long.MAX_VALUE);
    assertThat(all.columns()).isEmpty();

    ScanQuery get = Wire.fromWire(Wire.toWire(ScanQuery.builder().singleRow(Bytes.of("r")).build()));
    assertThat(get.isSingleRow()).isTrue();
  }

  @Test
  void badQueriesAreInvalidArguments() {
    assertThatThrownBy(() -> Wire.fromWire(Query.newBuilder().setMinTimestamp(9).setMaxTimestamp(3).build()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Wire.fromWire(Query.newBuilder().setLimit(-1).build()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Wire.fromWire(Query.newBuilder().setSingleRow(true).build()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void descriptorsKeepTheirSettings() {
    TableDescriptor d = TableDescriptor.builder("t")
        .flushSize(1 << 20)
        .family(ColumnFamilyDescriptor.builder("f").maxVersions(5).ttlSeconds(3600).bloomType(BloomType.NONE).build())
        .family("g")
        .build();
    TableDescriptor back = Wire.fromWire(Wire.toWire(d));
    assertThat(back.toString()).isEqualTo(d.toString());
    assertThat(back.family("f").maxVersions()).isEqualTo(5);
    assertThat(back.flushSize()).isEqualTo(1 << 20);
  }
}
