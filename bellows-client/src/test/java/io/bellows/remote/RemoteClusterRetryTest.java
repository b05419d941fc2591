package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.config.Durability;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.engine.TableRef;
import io.bellows.cell.Cells;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.Empty;
import io.bellows.protocol.MutateRequest;
import io.bellows.protocol.MutateRowRequest;
import io.bellows.protocol.MutateRowResponse;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.wire.Wire;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RemoteCluster}'s call ids against a scripted server: every write carries the client's id
 * and an increasing call id; an atomic row operation lost in flight is sent again with the same ids
 * once a server said it deduplicates, and fails as of unknown outcome before that, or when its
 * deadline passes.
 */
class RemoteClusterRetryTest {
  private static final TableRef TABLE = new TableRef("t", 1, TableDescriptor.builder("t").family("f").build());
  private static final byte[] F = Bytes.of("f");

  /** Answers MutateRow with the counter's next value; fails the calls it is told to as a connection lost in flight would. */
  private static final class Scripted extends DataGrpc.DataImplBase {
    final List<MutateRowRequest> mutateRows = new CopyOnWriteArrayList<>();
    final List<MutateRequest> mutates = new CopyOnWriteArrayList<>();
    final AtomicInteger failNext = new AtomicInteger();
    volatile boolean deduplicates;
    long counter;

    @Override
    public void mutateRow(MutateRowRequest request, StreamObserver<MutateRowResponse> response) {
      mutateRows.add(request);
      if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        response.onError(Status.UNAVAILABLE.withDescription("connection lost").asRuntimeException());
        return;
      }
      counter += request.getUpdates(0).getIncrement();
      response.onNext(MutateRowResponse.newBuilder().setApplied(true)
          .setValues(Wire.toWireRow(List.of(Cells.put(request.getMutation().getRow().toByteArray(), F, F, 1,
              Bytes.toBytes(counter)))))
          .setDeduplicated(deduplicates && request.hasCall()).build());
      response.onCompleted();
    }

    @Override
    public void mutate(MutateRequest request, StreamObserver<Empty> response) {
      mutates.add(request);
      response.onNext(Empty.getDefaultInstance());
      response.onCompleted();
    }
  }

  private final Scripted service = new Scripted();
  private Server server;
  private RemoteCluster cluster;

  @BeforeEach
  void start() throws Exception {
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service)
        .addService(new OneRegionAdmin()).build().start();
    RemoteOptions options = RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(2))
        .withRetries(1, Duration.ofMillis(1), Duration.ofMillis(10));
    cluster = RemoteCluster.open(List.of("127.0.0.1:" + server.getPort()), options);
  }

  @AfterEach
  void stop() {
    cluster.close();
    server.shutdownNow();
  }

  private long increment() {
    return cluster.increment(TABLE, Bytes.of("r"), F, F, 1, Durability.USE_DEFAULT);
  }

  @Test
  void anIncrementLostInFlightIsSentAgainWithTheSameIdsOnceTheClusterDeduplicates() {
    // Before any server said it deduplicates: an unknown outcome, and no second sending.
    service.failNext.set(1);
    assertThatThrownBy(this::increment).isInstanceOf(RemoteCluster.OutcomeUnknownException.class);
    assertThat(service.mutateRows).hasSize(1);
    assertThat(cluster.deduplicatesCalls()).isFalse();

    service.deduplicates = true;
    assertThat(increment()).isEqualTo(1);
    assertThat(cluster.deduplicatesCalls()).isTrue();

    service.failNext.set(2);
    assertThat(increment()).isEqualTo(2);
    List<MutateRowRequest> sent = service.mutateRows;
    assertThat(sent).hasSize(5);
    for (MutateRowRequest r : sent) {
      assertThat(r.hasCall()).isTrue();
      assertThat(r.getCall().getClient()).isEqualTo(sent.get(0).getCall().getClient());
      assertThat(r.getCall().getClient().size()).isEqualTo(16);
      assertThat(r.getCall().getLowestOutstanding()).isEqualTo(r.getCall().getCall()); // one call at a time
    }
    assertThat(sent).extracting(r -> r.getCall().getCall()).containsExactly(1L, 2L, 3L, 3L, 3L);
    assertThat(sent.get(4).getUpdatesList()).isEqualTo(sent.get(2).getUpdatesList());
  }

  @Test
  void aCallLostUntilItsDeadlineIsOfUnknownOutcome() {
    service.deduplicates = true;
    increment();
    service.failNext.set(Integer.MAX_VALUE);
    assertThatThrownBy(this::increment).isInstanceOf(RemoteCluster.OutcomeUnknownException.class)
        .hasMessageContaining("deadline")
        // what each attempt met travels with the error, for the operator
        .satisfies(e -> assertThat(e.getCause().getSuppressed()).singleElement().asString()
            .contains("the call's attempts").contains("127.0.0.1:" + server.getPort() + ": UNAVAILABLE after"));
    assertThat(service.mutateRows.size()).isGreaterThan(2);
  }

  @Test
  void putsAndCheckAndMutatesCarryIdsToo() {
    cluster.mutate(TABLE, List.of(RowMutation.of(Bytes.of("r"), List.of(Cells.put(Bytes.of("r"), F, F, 1, F)), Durability.USE_DEFAULT)));
    cluster.mutateRow(TABLE, RowOperation.updates(Bytes.of("r"), List.of(ColumnUpdate.increment(F, F, 5)),
        Durability.USE_DEFAULT, false));
    assertThat(service.mutates).hasSize(1);
    assertThat(service.mutates.get(0).getCall().getCall()).isEqualTo(1);
    assertThat(service.mutateRows.get(0).getCall().getCall()).isEqualTo(2);
    assertThat(service.mutateRows.get(0).getCall().getClient()).isEqualTo(service.mutates.get(0).getCall().getClient());
  }

  @Test
  void noCallIsReportedAnsweredWhileAnotherThreadStillWaitsForIt() throws Exception {
    // Each write says the lowest call its client still waits for; a member refuses a call below the
    // highest such watermark it saw (a retry given up on). Threads sharing the client must never
    // report a watermark above a call another thread has yet to send: the id and its registration
    // as outstanding are one step. (Found by ClusterSteadyTest: a put refused on its first sending.)
    List<long[]> seen = new CopyOnWriteArrayList<>(); // {call, lowest} in the order the server got them
    Server recorder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(
        new DataGrpc.DataImplBase() {
          @Override
          public void mutate(MutateRequest request, StreamObserver<Empty> response) {
            seen.add(new long[] {request.getCall().getCall(), request.getCall().getLowestOutstanding()});
            response.onNext(Empty.getDefaultInstance());
            response.onCompleted();
          }
        }).addService(new OneRegionAdmin()).build().start();
    try (RemoteCluster shared = RemoteCluster.open(List.of("127.0.0.1:" + recorder.getPort()), RemoteOptions.defaults())) {
      List<Thread> threads = new java.util.ArrayList<>();
      for (int t = 0; t < 8; t++) {
        Thread thread = new Thread(() -> {
          for (int i = 0; i < 500; i++) {
            shared.mutate(TABLE, List.of(RowMutation.of(Bytes.of("r"), List.of(Cells.put(Bytes.of("r"), F, F, 1, F)),
                Durability.USE_DEFAULT)));
          }
        });
        threads.add(thread);
        thread.start();
      }
      for (Thread thread : threads) {
        thread.join();
      }
    } finally {
      recorder.shutdownNow();
    }
    assertThat(seen).hasSize(8 * 500);
    long watermark = 0;
    for (long[] r : seen) {
      assertThat(r[0]).as("call %d arrived after a watermark of %d", r[0], watermark).isGreaterThanOrEqualTo(watermark);
      watermark = Math.max(watermark, r[1]);
    }
  }
}
