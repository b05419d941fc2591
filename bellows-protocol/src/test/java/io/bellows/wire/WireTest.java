package io.bellows.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.BloomType;
import io.bellows.config.Durability;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.ValueFilter;
import io.bellows.protocol.MutateRowRequest;
import io.bellows.protocol.TableId;
import io.bellows.protocol.Query;
import io.bellows.scan.Consistency;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireTest {
  @Test
  void callIdsTravelUnchangedAndBadOnesAreRefused() {
    io.bellows.engine.CallId id = new io.bellows.engine.CallId(0x8000_0000_0000_0001L, -2, 17, 9);
    assertThat(Wire.fromWire(Wire.toWire(id))).isEqualTo(id);
    io.bellows.protocol.CallId wire = Wire.toWire(id);
    assertThatThrownBy(() -> Wire.fromWire(wire.toBuilder().setClient(com.google.protobuf.ByteString.copyFrom(new byte[15])).build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 bytes");
    assertThatThrownBy(() -> Wire.fromWire(wire.toBuilder().setLowestOutstanding(18).build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lowest outstanding");
    assertThatThrownBy(() -> Wire.fromWire(wire.toBuilder().setCall(0).setLowestOutstanding(0).build()))
        .isInstanceOf(IllegalArgumentException.class);
  }

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
  void aTimelineReadKeepsItsConsistencyAndAStrongOneIsTheDefault() {
    ScanQuery timeline = ScanQuery.builder().singleRow(Bytes.of("r")).consistency(Consistency.TIMELINE).build();
    assertThat(Wire.toWire(timeline).getConsistency()).isEqualTo(io.bellows.protocol.Consistency.TIMELINE);
    assertThat(Wire.fromWire(Wire.toWire(timeline)).consistency()).isEqualTo(Consistency.TIMELINE);
    // A query without the field (an older client's) is a strong read.
    assertThat(Wire.fromWire(Query.newBuilder().build()).consistency()).isEqualTo(Consistency.STRONG);
    assertThat(Wire.toWire(ScanQuery.builder().build()).getConsistency()).isEqualTo(io.bellows.protocol.Consistency.STRONG);
    assertThatThrownBy(() -> Wire.fromWire(Query.newBuilder().setConsistencyValue(7).build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("consistency 7");
  }

  @Test
  void aClusterStatusTravelsWithMetaAsNoTableAndAStandaloneServersAnswerIsNone() {
    io.bellows.engine.ClusterStatus status = new io.bellows.engine.ClusterStatus(
        List.of(new io.bellows.engine.ClusterStatus.Member("m1", "h:1", true),
            new io.bellows.engine.ClusterStatus.Member("m2", "h:2", false)),
        List.of(new io.bellows.engine.ClusterStatus.Replica(null, 0, "m1", "FOLLOWER", null, 2, 5, 0, 0, 0),
            new io.bellows.engine.ClusterStatus.Replica("t", 3, "m1", "LEADER", "m1", 4, 9, 100, 2, 30)));
    assertThat(Wire.fromWire(Wire.toWire(status))).contains(status);
    assertThat(Wire.fromWire(io.bellows.protocol.ClusterStatusResponse.getDefaultInstance())).isEmpty();
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

  @Test
  void atomicRowOperationsTravelWithConditionsUpdatesAndOutcome() {
    Condition column = Condition.column(Bytes.of("f"), Bytes.of("q"), CompareOperator.GREATER_OR_EQUAL, Bytes.of("v"))
        .timeRange(5, 10);
    RowMutation put = RowMutation.of(Bytes.of("r"),
        List.of(Cells.create(Bytes.of("r"), Bytes.of("f"), Bytes.of("p"), Long.MAX_VALUE, CellType.PUT, Bytes.of("x"))),
        Durability.SYNC_WAL);
    RowOperation op = new RowOperation(put, column, List.of(ColumnUpdate.increment(Bytes.of("f"), Bytes.of("n"), -7),
        ColumnUpdate.append(Bytes.of("g"), Bytes.EMPTY, Bytes.of("ab")).timeRange(3, 4)), true);
    TableId table = TableId.newBuilder().setName("t").setId(3).build();
    MutateRowRequest wire = WireAtomic.toWire(table, op);
    assertThat(wire.getTable()).isEqualTo(table);
    RowOperation back = WireAtomic.fromWire(wire);
    assertThat(back.row()).isEqualTo(Bytes.of("r"));
    assertThat(back.mutation().durability()).isEqualTo(Durability.SYNC_WAL);
    assertThat(back.mutation().cells()).hasSize(1);
    assertThat(back.condition().toString()).isEqualTo(column.toString());
    assertThat(back.condition().minTimestamp()).isEqualTo(5);
    assertThat(back.condition().maxTimestamp()).isEqualTo(10);
    assertThat(back.updates()).isEqualTo(op.updates());
    assertThat(back.updates().get(0).amount()).isEqualTo(-7);
    assertThat(back.updates().get(0).isAllTime()).isTrue();
    assertThat(back.updates().get(1).minTimestamp()).isEqualTo(3);
    assertThat(back.updates().get(1).maxTimestamp()).isEqualTo(4);
    assertThat(back.returnValues()).isTrue();

    RowOperation plain = WireAtomic.fromWire(WireAtomic.toWire(table, RowOperation.conditional(
        Condition.ifAbsent(Bytes.of("f"), Bytes.of("q")), put)));
    assertThat(plain.condition().isAllTime()).isTrue();
    assertThat(plain.condition().expected()).isEmpty();
    assertThat(plain.condition().operator()).isEqualTo(CompareOperator.EQUAL);
    assertThat(plain.updates()).isEmpty();
    assertThat(plain.returnValues()).isFalse();
    assertThat(WireAtomic.fromWire(WireAtomic.toWire(table, RowOperation.updates(Bytes.of("r"), List.of(), Durability.USE_DEFAULT,
        false))).condition()).as("no condition").isNull();

    Condition emptyRange = Condition.ifRowPasses(new ValueFilter(CompareOperator.LESS, ByteComparator.binary(Bytes.of("m"))))
        .timeRange(0, 0);
    Condition filterBack = WireAtomic.fromWire(WireAtomic.toWire(emptyRange));
    assertThat(filterBack.isFilter()).isTrue();
    assertThat(filterBack.filter().toString()).isEqualTo(emptyRange.filter().toString());
    assertThat(filterBack.maxTimestamp()).as("an upper bound of 0 stays one").isZero();

    Outcome outcome = new Outcome(true, List.of(Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("n"), 42, Bytes.toBytes(3L))));
    Outcome outcomeBack = WireAtomic.fromWire(WireAtomic.toWire(outcome));
    assertThat(outcomeBack.applied()).isTrue();
    assertThat(outcomeBack.values().get(0).toBytes()).isEqualTo(outcome.values().get(0).toBytes());
    assertThat(WireAtomic.fromWire(WireAtomic.toWire(Outcome.NOT_APPLIED))).isEqualTo(Outcome.NOT_APPLIED);
  }

  @Test
  void malformedAtomicOperationsAreInvalidArguments() {
    assertThatThrownBy(() -> WireAtomic.fromWire(io.bellows.protocol.Condition.newBuilder().build()))
        .as("neither a column nor a filter").isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WireAtomic.fromWire(io.bellows.protocol.Condition.newBuilder().setFamily(Wire.bytes(Bytes.of("f")))
        .setOpValue(99).build())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WireAtomic.fromWire(io.bellows.protocol.Condition.newBuilder().setFamily(Wire.bytes(Bytes.of("f")))
        .setMinTimestamp(9).setMaxTimestamp(3).build())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WireAtomic.fromWire(io.bellows.protocol.ColumnUpdate.newBuilder()
        .setFamily(Wire.bytes(Bytes.of("f"))).build())).as("no kind").isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WireAtomic.fromWire(MutateRowRequest.newBuilder().build()))
        .as("no row").isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRegionsIdentityAndSequenceBaseTravelAndAnOlderServersAnswerHasNone() {
    java.util.UUID identity = java.util.UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
    io.bellows.engine.RegionInfo r = new io.bellows.engine.RegionInfo(7, Bytes.of("a"), Bytes.of("m"), 1234, 2, 99,
        identity, 1_000_000L);
    io.bellows.protocol.RegionInfo wire = Wire.toWire(r);
    assertThat(wire.getIdentity().toByteArray()).as("most significant first")
        .startsWith(0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78).endsWith(0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0);
    io.bellows.engine.RegionInfo back = Wire.fromWire(wire);
    assertThat(back.identity()).isEqualTo(identity);
    assertThat(back.seqIdBase()).isEqualTo(1_000_000L);
    assertThat(back.id()).isEqualTo(7);
    assertThat(back.startKey()).isEqualTo(Bytes.of("a"));

    io.bellows.engine.RegionInfo older = Wire.fromWire(wire.toBuilder().clearIdentity().clearSeqIdBase().build());
    assertThat(older.identity()).isNull();
    assertThat(older.seqIdBase()).isZero();
    assertThatThrownBy(() -> Wire.fromWire(wire.toBuilder()
        .setIdentity(com.google.protobuf.ByteString.copyFrom(new byte[5])).build()))
        .hasMessageContaining("16 bytes");
  }
}
