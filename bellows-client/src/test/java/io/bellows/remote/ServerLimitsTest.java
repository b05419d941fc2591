package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.bellows.client.Put;
import io.bellows.config.Durability;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.Cell;
import io.bellows.protocol.CellType;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.Filter;
import io.bellows.protocol.FilterList;
import io.bellows.protocol.GetRequest;
import io.bellows.protocol.MultiGetRequest;
import io.bellows.protocol.MutateRequest;
import io.bellows.protocol.Query;
import io.bellows.protocol.ScanRequest;
import io.bellows.protocol.ScanResponse;
import io.bellows.protocol.TableId;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.util.Bytes;
import io.bellows.wire.WireErrors;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's limits seen over the wire with raw gRPC stubs (so that nothing the client library
 * checks first hides what the server does): requests the Java API refuses are INVALID_ARGUMENT;
 * answers and batches over their budgets are RESOURCE_EXHAUSTED with nothing applied; stalled scans
 * neither lock out admin calls nor outlive their lease.
 */
@Timeout(120)
class ServerLimitsTest {
  private static final byte[] F = Bytes.of("f");
  @TempDir Path dir;

  private static TableId table(ServerFixture f) {
    f.engine.createTable(TableDescriptor.builder("t").family("f").build());
    TableRef t = f.engine.table("t");
    return TableId.newBuilder().setName(t.name()).setId(t.id()).build();
  }

  private static void fill(ServerFixture f, int rows, int valueBytes) {
    TableRef t = f.engine.table("t");
    byte[] value = new byte[valueBytes];
    Arrays.fill(value, (byte) 'v');
    List<RowMutation> batch = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      String row = String.format("r%05d", i);
      batch.add(RowMutation.of(Bytes.of(row), new Put(row).addColumn(F, Bytes.of("q"), value).cells(),
          Durability.SYNC_WAL));
    }
    f.engine.mutate(t, batch);
  }

  private static ManagedChannel channel(ServerFixture f) {
    return NettyChannelBuilder.forTarget(f.target()).usePlaintext().build();
  }

  private static io.bellows.protocol.RowMutation put(String row, long ts) {
    return io.bellows.protocol.RowMutation.newBuilder().setRow(ByteString.copyFromUtf8(row))
        .addCells(Cell.newBuilder().setRow(ByteString.copyFromUtf8(row)).setFamily(ByteString.copyFrom(F))
            .setQualifier(ByteString.copyFromUtf8("q")).setTimestamp(ts).setType(CellType.PUT)
            .setValue(ByteString.copyFromUtf8("v")))
        .build();
  }

  private static Filter nested(int depth) {
    Filter f = Filter.newBuilder().setPrefix(ByteString.copyFromUtf8("r")).build();
    for (int i = 1; i < depth; i++) {
      f = Filter.newBuilder().setList(FilterList.newBuilder().addFilters(f)).build();
    }
    return f;
  }

  private static Query get(String row) {
    return Query.newBuilder().setStartRow(ByteString.copyFromUtf8(row)).setSingleRow(true).build();
  }

  private static Status.Code code(Runnable call) {
    try {
      call.run();
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }

  /** Counts the scans that started and those whose lease ran out, for a test to wait on. */
  private static final class ScanCounts implements ServerEvents {
    final CountDownLatch started;
    final CountDownLatch expired;

    ScanCounts(int scans) {
      started = new CountDownLatch(scans);
      expired = new CountDownLatch(scans);
    }

    @Override
    public void scanStarted() {
      started.countDown();
    }

    @Override
    public void scanLeaseExpired(long rowsSent) {
      expired.countDown();
    }

    /** Waits for {@code latch}, for at most 30 s (a bound against a hang, not a timing assumption). */
    static void await(CountDownLatch latch, String what) throws InterruptedException {
      assertThat(latch.await(30, TimeUnit.SECONDS)).as(what).isTrue();
    }
  }

  @Test
  void anEmptyRowKeyANegativeTimestampAndTooDeepFiltersAreInvalidArguments() {
    try (ServerFixture f = new ServerFixture(dir)) {
      TableId t = table(f);
      ManagedChannel ch = channel(f);
      try {
        DataGrpc.DataBlockingStub data = DataGrpc.newBlockingStub(ch);
        assertThat(code(() -> data.mutate(MutateRequest.newBuilder().setTable(t).addRows(put("", 5)).build())))
            .isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(code(() -> data.mutate(MutateRequest.newBuilder().setTable(t).addRows(put("r", -5)).build())))
            .isEqualTo(Status.Code.INVALID_ARGUMENT);
        // Deeper than the server's limit of 32, and deeper than protobuf parses (100).
        for (int depth : new int[] {40, 150}) {
          Query q = get("r").toBuilder().setFilter(nested(depth)).build();
          assertThat(code(() -> data.get(GetRequest.newBuilder().setTable(t).setQuery(q).build())))
              .as("depth " + depth).isEqualTo(Status.Code.INVALID_ARGUMENT);
        }
        Query fine = get("r").toBuilder().setFilter(nested(10)).build();
        assertThat(code(() -> data.get(GetRequest.newBuilder().setTable(t).setQuery(fine).build())))
            .isEqualTo(Status.Code.OK);
        assertThat(f.engine.scan(f.engine.table("t"), io.bellows.scan.ScanQuery.builder().build())
            .nextRow(new ArrayList<>())).as("nothing written").isFalse();
      } finally {
        ch.shutdownNow();
      }
    }
  }

  @Test
  void answersAndBatchesOverTheirBudgetsAreRefusedWithNothingApplied() {
    ServerConfig config = ServerConfig.defaults().withLimits(Map.of("max.response.bytes", 64L << 10,
        "max.batch.rows", 100L, "max.request.bytes", 256L << 10));
    try (ServerFixture f = new ServerFixture(dir, config, ServerEvents.NONE)) {
      TableId t = table(f);
      fill(f, 12, 16 << 10);
      ManagedChannel ch = channel(f);
      try {
        DataGrpc.DataBlockingStub data = DataGrpc.newBlockingStub(ch);
        MultiGetRequest.Builder twelve = MultiGetRequest.newBuilder().setTable(t);
        for (int i = 0; i < 12; i++) {
          twelve.addQueries(get(String.format("r%05d", i)));
        }
        StatusRuntimeException e = null;
        try {
          data.multiGet(twelve.build());
        } catch (StatusRuntimeException thrown) {
          e = thrown;
        }
        assertThat(e).isNotNull();
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(e.getStatus().getDescription()).contains("max.response.bytes");
        assertThat(e.getTrailers().get(WireErrors.KIND)).as("not THROTTLED: not retried").isNull();
        assertThat(data.multiGet(MultiGetRequest.newBuilder().setTable(t).addQueries(get("r00000")).build())
            .getRowsCount()).isEqualTo(1);

        MutateRequest.Builder tooMany = MutateRequest.newBuilder().setTable(t);
        for (int i = 0; i < 101; i++) {
          tooMany.addRows(put("new" + i, 1));
        }
        assertThat(code(() -> data.mutate(tooMany.build()))).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        MutateRequest.Builder tooBig = MutateRequest.newBuilder().setTable(t);
        io.bellows.protocol.RowMutation big = put("big", 1).toBuilder()
            .setCells(0, put("big", 1).getCells(0).toBuilder().setValue(ByteString.copyFrom(new byte[300 << 10])))
            .build();
        tooBig.addRows(big);
        assertThat(code(() -> data.mutate(tooBig.build()))).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(data.get(GetRequest.newBuilder().setTable(t).setQuery(get("new0")).build()).hasRow())
            .as("nothing of the refused batch applied").isFalse();
        assertThat(data.get(GetRequest.newBuilder().setTable(t).setQuery(get("big")).build()).hasRow()).isFalse();
      } finally {
        ch.shutdownNow();
      }
    }
  }

  /** A scan that never reads: takes no message, so its flow-control window fills and the server waits. */
  private static void stalledScan(ManagedChannel ch, TableId t, List<String> ends) {
    DataGrpc.newStub(ch).scan(ScanRequest.newBuilder().setTable(t).setQuery(Query.newBuilder()).build(),
        new ClientResponseObserver<ScanRequest, ScanResponse>() {
          @Override
          public void beforeStart(ClientCallStreamObserver<ScanRequest> requestStream) {
            requestStream.disableAutoRequestWithInitial(0);
          }

          @Override
          public void onNext(ScanResponse value) {}

          @Override
          public void onError(Throwable t) {
            ends.add(Status.fromThrowable(t).getCode().name());
          }

          @Override
          public void onCompleted() {
            ends.add("OK");
          }
        });
  }

  @Test
  void stalledScansLeaveRoomForAdminCalls() throws Exception {
    ServerConfig config = ServerConfig.defaults().withMaxCalls(2).withLimits(Map.of("admin.reserved.calls", 1L));
    ScanCounts scans = new ScanCounts(2);
    try (ServerFixture f = new ServerFixture(dir, config, scans)) {
      TableId t = table(f);
      fill(f, 600, 8 << 10); // 4.8 MB: more than the client's window and the server's buffer
      ManagedChannel stalled = channel(f);
      ManagedChannel other = channel(f);
      List<String> ends = java.util.Collections.synchronizedList(new ArrayList<>());
      try {
        stalledScan(stalled, t, ends);
        stalledScan(stalled, t, ends);
        ScanCounts.await(scans.started, "both scans started");
        assertThat(f.server.openScans()).isEqualTo(2);
        assertThat(f.server.callsInProgress()).isEqualTo(2);
        DataGrpc.DataBlockingStub data = DataGrpc.newBlockingStub(other);
        AdminGrpc.AdminBlockingStub admin = AdminGrpc.newBlockingStub(other);
        assertThat(code(() -> data.get(GetRequest.newBuilder().setTable(t).setQuery(get("r00001")).build())))
            .isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(code(() -> admin.listTables(io.bellows.protocol.ListTablesRequest.getDefaultInstance())))
            .isEqualTo(Status.Code.OK);
        assertThat(ends).isEmpty();
      } finally {
        stalled.shutdownNow();
        other.shutdownNow();
      }
    }
  }

  @Test
  void aScanWhoseClientDoesNotReadEndsWithItsLease() throws Exception {
    ServerConfig config = ServerConfig.defaults().withMaxCalls(2).withLimits(Map.of("scanner.lease.ms", 200L));
    ScanCounts scans = new ScanCounts(2);
    try (ServerFixture f = new ServerFixture(dir, config, scans)) {
      TableId t = table(f);
      fill(f, 600, 8 << 10);
      ManagedChannel stalled = channel(f);
      ManagedChannel other = channel(f);
      List<String> ends = java.util.Collections.synchronizedList(new ArrayList<>());
      try {
        stalledScan(stalled, t, ends);
        stalledScan(stalled, t, ends);
        DataGrpc.DataBlockingStub data = DataGrpc.newBlockingStub(other);
        // The leases run out: the scans end and give their slots and files back.
        ScanCounts.await(scans.expired, "both leases ran out");
        assertThat(f.server.expiredScans()).isEqualTo(2);
        assertThat(f.server.openScans()).isZero();
        assertThat(f.server.callsInProgress()).isZero();
        assertThat(data.get(GetRequest.newBuilder().setTable(t).setQuery(get("r00001")).build()).hasRow()).isTrue();
        assertThat(ends).doesNotContain("OK");
      } finally {
        stalled.shutdownNow();
        other.shutdownNow();
      }
    }
  }
}
