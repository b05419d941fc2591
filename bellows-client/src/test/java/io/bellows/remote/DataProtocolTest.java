package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.CheckAndMutateRequest;
import io.bellows.protocol.ColumnUpdate;
import io.bellows.protocol.CompareOp;
import io.bellows.protocol.Condition;
import io.bellows.protocol.IncrementRequest;
import io.bellows.protocol.MutateRowRequest;
import io.bellows.protocol.MutateRowResponse;
import io.bellows.protocol.ColumnSelection;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.GetRequest;
import io.bellows.protocol.MultiGetRequest;
import io.bellows.protocol.MultiGetResponse;
import io.bellows.protocol.Query;
import io.bellows.protocol.TableId;
import io.bellows.protocol.TableName;
import io.bellows.protocol.TableRef;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.wire.Wire;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls of the protocol that the Java API does not use (MultiGet, Get's answer for no row, the older
 * CheckAndMutate and Increment) and MutateRow's fields as they travel.
 */
class DataProtocolTest {
  @TempDir
  Path dir;

  @Test
  void aSingleServerTakesCallIdsButDoesNotDeduplicateAndRefusesBadOnes() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      ManagedChannel channel = NettyChannelBuilder.forTarget(f.target()).usePlaintext().build();
      try {
        TableRef ref = AdminGrpc.newBlockingStub(channel).getTable(TableName.newBuilder().setName("t").build());
        TableId id = TableId.newBuilder().setName("t").setId(ref.getId()).build();
        io.bellows.protocol.CallId call = Wire.toWire(new io.bellows.engine.CallId(1, 2, 1, 1));
        MutateRowRequest increment = MutateRowRequest.newBuilder().setTable(id)
            .setMutation(io.bellows.protocol.RowMutation.newBuilder().setRow(Wire.bytes(Bytes.of("r"))))
            .addUpdates(ColumnUpdate.newBuilder().setFamily(Wire.bytes(Bytes.of("f"))).setQualifier(Wire.bytes(Bytes.of("n")))
                .setIncrement(1))
            .setReturnValues(true).setCall(call).build();
        DataGrpc.DataBlockingStub data = DataGrpc.newBlockingStub(channel);
        MutateRowResponse first = data.mutateRow(increment);
        assertThat(first.getDeduplicated()).isFalse();
        // Without deduplication the same ids apply again: the client must not send them again.
        MutateRowResponse again = data.mutateRow(increment);
        assertThat(Bytes.getLong(again.getValues().getCells(0).getValue().toByteArray(), 0)).isEqualTo(2);

        MutateRowRequest bad = increment.toBuilder()
            .setCall(call.toBuilder().setClient(com.google.protobuf.ByteString.copyFrom(new byte[3]))).build();
        assertThatThrownBy(() -> data.mutateRow(bad)).isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
        assertThat(Bytes.getLong(data.mutateRow(increment.toBuilder().clearCall().build())
            .getValues().getCells(0).getValue().toByteArray(), 0)).isEqualTo(3);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void multiGetAnswersEachQueryInOrder() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").family("g").build());
      db.getTable("t").put(new Put("a").addColumn("f", "q", "1").addColumn("g", "q", "2"));
      db.getTable("t").put(new Put("c").addColumn("f", "q", "3"));
      ManagedChannel channel = NettyChannelBuilder.forTarget(f.target()).usePlaintext().build();
      try {
        TableRef ref = AdminGrpc.newBlockingStub(channel).getTable(TableName.newBuilder().setName("t").build());
        TableId id = TableId.newBuilder().setName("t").setId(ref.getId()).build();
        MultiGetResponse r = DataGrpc.newBlockingStub(channel).multiGet(MultiGetRequest.newBuilder()
            .setTable(id)
            .addQueries(Query.newBuilder().setStartRow(Wire.bytes(Bytes.of("c"))))
            .addQueries(Query.newBuilder().setStartRow(Wire.bytes(Bytes.of("b"))))
            .addQueries(Query.newBuilder().setStartRow(Wire.bytes(Bytes.of("a")))
                .addColumns(ColumnSelection.newBuilder().setFamily(Wire.bytes(Bytes.of("g")))))
            .build());
        assertThat(r.getRowsList()).extracting(row -> row.getRow().toStringUtf8()).containsExactly("c", "b", "a");
        assertThat(r.getRows(0).getCellsCount()).isEqualTo(1);
        assertThat(r.getRows(1).getCellsCount()).isZero();
        assertThat(r.getRows(2).getCellsList()).extracting(c -> c.getFamily().toStringUtf8()).containsExactly("g");

        assertThat(DataGrpc.newBlockingStub(channel).get(GetRequest.newBuilder().setTable(id)
            .setQuery(Query.newBuilder().setStartRow(Wire.bytes(Bytes.of("zz")))).build()).hasRow()).isFalse();
      } finally {
        channel.shutdownNow();
      }
    }
  }

  /**
   * The older CheckAndMutate and Increment calls still answer as before (clients of earlier versions
   * use them); MutateRow answers with values only when asked.
   */
  @Test
  void checkAndMutateIncrementAndMutateRowOnTheWire() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      ManagedChannel channel = NettyChannelBuilder.forTarget(f.target()).usePlaintext().build();
      try {
        TableRef ref = AdminGrpc.newBlockingStub(channel).getTable(TableName.newBuilder().setName("t").build());
        TableId id = TableId.newBuilder().setName("t").setId(ref.getId()).build();
        DataGrpc.DataBlockingStub data = DataGrpc.newBlockingStub(channel);
        io.bellows.protocol.RowMutation put = io.bellows.protocol.RowMutation.newBuilder().setRow(Wire.bytes(Bytes.of("r")))
            .addCells(io.bellows.protocol.Cell.newBuilder().setRow(Wire.bytes(Bytes.of("r"))).setFamily(Wire.bytes(Bytes.of("f")))
                .setQualifier(Wire.bytes(Bytes.of("q"))).setTimestamp(Long.MAX_VALUE)
                .setType(io.bellows.protocol.CellType.PUT).setValue(Wire.bytes(Bytes.of("v"))))
            .build();
        CheckAndMutateRequest.Builder cam = CheckAndMutateRequest.newBuilder().setTable(id)
            .setFamily(Wire.bytes(Bytes.of("f"))).setQualifier(Wire.bytes(Bytes.of("q"))).setMutation(put);
        assertThat(data.checkAndMutate(cam.build()).getValue()).as("absent").isTrue();
        assertThat(data.checkAndMutate(cam.build()).getValue()).as("present now").isFalse();
        assertThat(data.checkAndMutate(cam.setExpected(Wire.bytes(Bytes.of("v"))).build()).getValue()).isTrue();
        IncrementRequest inc = IncrementRequest.newBuilder().setTable(id).setRow(Wire.bytes(Bytes.of("r")))
            .setFamily(Wire.bytes(Bytes.of("f"))).setQualifier(Wire.bytes(Bytes.of("n"))).setAmount(5).build();
        assertThat(data.increment(inc).getValue()).isEqualTo(5);

        MutateRowRequest.Builder row = MutateRowRequest.newBuilder().setTable(id)
            .setMutation(io.bellows.protocol.RowMutation.newBuilder().setRow(Wire.bytes(Bytes.of("r"))))
            .addUpdates(ColumnUpdate.newBuilder().setFamily(Wire.bytes(Bytes.of("f"))).setQualifier(Wire.bytes(Bytes.of("n")))
                .setIncrement(2))
            .addUpdates(ColumnUpdate.newBuilder().setFamily(Wire.bytes(Bytes.of("f"))).setQualifier(Wire.bytes(Bytes.of("s")))
                .setAppend(Wire.bytes(Bytes.of("ab"))));
        MutateRowResponse silent = data.mutateRow(row.build());
        assertThat(silent.getApplied()).isTrue();
        assertThat(silent.hasValues()).as("values not asked for").isFalse();
        MutateRowResponse loud = data.mutateRow(row.setReturnValues(true).setCondition(Condition.newBuilder()
            .setFamily(Wire.bytes(Bytes.of("f"))).setQualifier(Wire.bytes(Bytes.of("q"))).setOp(CompareOp.LESS)
            .setExpected(Wire.bytes(Bytes.of("u")))).build());
        assertThat(loud.getApplied()).as("'u' < 'v'").isTrue();
        assertThat(loud.getValues().getCellsList()).extracting(c -> c.getQualifier().toStringUtf8()).containsExactly("n", "s");
        assertThat(Bytes.getLong(loud.getValues().getCells(0).getValue().toByteArray(), 0)).isEqualTo(9);
        assertThat(loud.getValues().getCells(1).getValue().toStringUtf8()).isEqualTo("abab");
        MutateRowResponse refused = data.mutateRow(row.setCondition(Condition.newBuilder()
            .setFamily(Wire.bytes(Bytes.of("f"))).setQualifier(Wire.bytes(Bytes.of("q"))).setOp(CompareOp.GREATER)
            .setExpected(Wire.bytes(Bytes.of("u")))).build());
        assertThat(refused.getApplied()).isFalse();
        assertThat(refused.hasValues()).isFalse();
        assertThatThrownBy(() -> data.mutateRow(row.clearCondition().addUpdates(ColumnUpdate.newBuilder()
            .setFamily(Wire.bytes(Bytes.of("f"))).setQualifier(Wire.bytes(Bytes.of("s"))).setIncrement(1)).build()))
            .isInstanceOf(StatusRuntimeException.class)
            .satisfies(e -> assertThat(((StatusRuntimeException) e).getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
      } finally {
        channel.shutdownNow();
      }
    }
  }
}
