package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.Empty;
import io.bellows.protocol.ListTablesRequest;
import io.bellows.protocol.ListTablesResponse;
import io.bellows.protocol.MutateRequest;
import io.bellows.protocol.ScanRequest;
import io.bellows.protocol.ScanResponse;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.TableNotFoundException;
import io.bellows.wire.WireErrors;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RemoteCluster} during a failover, against scripted members in this JVM: a leader that
 * stops answering (a SIGSTOPped process keeps its connection open) is left once its attempt
 * deadline passes, well within the call's; the others' NOT_LEADER answers that still name it are
 * not followed back to it; the call goes to the next member at once after a failure and pauses
 * only after a round of members that know no leader, the pauses growing from the initial backoff.
 * Asserts on which member answered and on the pauses asked for (a fake sleeper), not on time.
 */
class RemoteClusterFailoverTest {
  private static final TableRef TABLE = new TableRef("t", 1, TableDescriptor.builder("t").family("f").build());
  private static final byte[] F = Bytes.of("f");

  /** What a scripted member does with a {@code Mutate}. */
  enum Mode { ANSWER, NO_LEADER, NAME_LEADER, HANG, NO_TABLE }

  /** A member: answers, refuses naming a leader (or none), or holds every call unanswered. */
  private static final class Member extends DataGrpc.DataImplBase {
    final String name;
    final List<String> log; // every member's calls in one order: "name:mode"
    final List<StreamObserver<?>> held = new CopyOnWriteArrayList<>();
    volatile Mode mode = Mode.ANSWER;
    volatile String leader;
    Server server;

    Member(String name, List<String> log) {
      this.name = name;
      this.log = log;
    }

    String address() {
      return "127.0.0.1:" + server.getPort();
    }

    @Override
    public void mutate(MutateRequest request, StreamObserver<Empty> response) {
      Mode m = mode;
      log.add(name + ":" + m);
      switch (m) {
        case ANSWER -> {
          response.onNext(Empty.getDefaultInstance());
          response.onCompleted();
        }
        case NO_LEADER -> response.onError(WireErrors.notLeader("NOT_LEADER: knows no leader yet", null));
        case NAME_LEADER -> response.onError(WireErrors.notLeader("NOT_LEADER: the leader is " + leader, leader));
        case HANG -> held.add(response); // never answered: a stopped process
        case NO_TABLE -> response.onError(WireErrors.toStatus(new TableNotFoundException("table 't' does not exist")));
      }
    }

    /** A scan: an answer of no rows, a refusal, or nothing ever (the first answer never comes). */
    @Override
    public void scan(ScanRequest request, StreamObserver<ScanResponse> response) {
      answer("scan", response, ScanResponse.getDefaultInstance());
    }

    /**
     * The catalog's list of tables, a lookup: answered as a scan is; a table's regions (one), which
     * the client asks once before its first data call, always answered and not logged.
     */
    final AdminGrpc.AdminImplBase admin = new OneRegionAdmin() {
      @Override
      public void listTables(ListTablesRequest request, StreamObserver<ListTablesResponse> response) {
        answer("list", response, ListTablesResponse.newBuilder().addNames("t").build());
      }
    };

    private <T> void answer(String call, StreamObserver<T> response, T answer) {
      Mode m = mode;
      log.add(name + ":" + call + ":" + m);
      switch (m) {
        case ANSWER -> {
          response.onNext(answer);
          response.onCompleted();
        }
        case NAME_LEADER -> response.onError(WireErrors.notLeader("NOT_LEADER: the leader is " + leader, leader));
        case HANG -> held.add(response);
        default -> throw new IllegalStateException("not scripted for " + call + ": " + m);
      }
    }
  }

  private final List<String> log = new CopyOnWriteArrayList<>();
  private final List<Member> members = new ArrayList<>();
  private final List<Long> pauses = new CopyOnWriteArrayList<>();
  private RemoteCluster cluster;

  /** Three scripted members and a client of them whose pauses go to {@code sleeper}. */
  private void start(RemoteOptions options, RemoteCluster.Sleeper sleeper) throws Exception {
    for (int i = 0; i < 3; i++) {
      Member m = new Member("m" + i, log);
      m.server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(m).addService(m.admin)
          .build().start();
      members.add(m);
    }
    cluster = RemoteCluster.open(members.stream().map(Member::address).toList(), options, sleeper);
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
    for (Member m : members) {
      m.server.shutdownNow(); // cancels the calls a member held
    }
  }

  private void put() {
    cluster.mutate(TABLE, List.of(RowMutation.of(Bytes.of("r"), List.of(Cells.put(Bytes.of("r"), F, F, 1, F)),
        Durability.USE_DEFAULT)));
  }

  @Test
  void aLeaderThatStopsAnsweringIsLeftAfterOneAttemptAndNotFollowedBackTo() throws Exception {
    // A call's deadline far above its attempts': the old client spent it all on the stopped leader.
    start(RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(30)).withAttemptDeadline(Duration.ofSeconds(1))
        .withRetries(5, Duration.ofMillis(10), Duration.ofMillis(100)), pauses::add);
    Member a = members.get(0);
    Member b = members.get(1);
    Member c = members.get(2);
    // m0 leads: the others name it, so the first call ends there wherever it starts.
    b.leader = c.leader = a.address();
    b.mode = c.mode = Mode.NAME_LEADER;
    put();
    assertThat(log).last().isEqualTo("m0:ANSWER");

    // m0 stops; m1 has not heard of the election and still names m0; m2 now leads.
    a.mode = Mode.HANG;
    c.mode = Mode.ANSWER;
    log.clear();
    put();
    // The stopped leader was asked once; m1's hint back to it was not followed; m2 took the write.
    assertThat(log).containsExactly("m0:HANG", "m1:NAME_LEADER", "m2:ANSWER");
    assertThat(pauses).as("no pause: a member to ask was left each time").isEmpty();

    // The next call starts at the new leader, not at the stopped one.
    log.clear();
    put();
    assertThat(log).containsExactly("m2:ANSWER");
  }

  @Test
  @Timeout(20)
  void aScanWhoseLeaderStopsAnsweringIsOpenedOnTheNextMemberAfterOneAttempt() throws Exception {
    // The call's deadline far above the attempt's; before, a scan's stream had no deadline at all, and
    // the test's timeout ended the wait.
    start(RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(30)).withAttemptDeadline(Duration.ofSeconds(1))
        .withRetries(5, Duration.ofMillis(10), Duration.ofMillis(100)), pauses::add);
    Member a = members.get(0);
    Member b = members.get(1);
    Member c = members.get(2);
    b.leader = c.leader = a.address();
    b.mode = c.mode = Mode.NAME_LEADER;
    put(); // m0 leads, as this client learns
    a.mode = Mode.HANG; // m0 stops; m1 still names it; m2 now leads
    c.mode = Mode.ANSWER;
    log.clear();
    try (RowScanner scanner = cluster.scan(TABLE, ScanQuery.builder().build())) {
      assertThat(scanner.nextRow(new ArrayList<>())).isFalse();
    }
    assertThat(log).containsExactly("m0:scan:HANG", "m1:scan:NAME_LEADER", "m2:scan:ANSWER");
    assertThat(pauses).isEmpty();
  }

  @Test
  @Timeout(20) // before, the lookup waited for the admin deadline (30 minutes)
  void aLookupOnACatalogLeaderThatStopsAnsweringGoesToTheNextMemberAfterOneAttempt() throws Exception {
    start(RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(30)).withAttemptDeadline(Duration.ofSeconds(1))
        .withRetries(5, Duration.ofMillis(10), Duration.ofMillis(100)), pauses::add);
    Member a = members.get(0);
    members.get(1).leader = members.get(2).leader = a.address();
    members.get(1).mode = members.get(2).mode = Mode.NAME_LEADER;
    assertThat(cluster.listTables()).containsExactly("t"); // m0 leads the catalog, as this client learns
    a.mode = Mode.HANG;
    members.get(2).mode = Mode.ANSWER;
    log.clear();
    assertThat(cluster.listTables()).containsExactly("t");
    assertThat(log).containsExactly("m0:list:HANG", "m1:list:NAME_LEADER", "m2:list:ANSWER");
  }

  @Test
  void aCallPausesOncePerRoundOfMembersThatKnowNoLeaderWithGrowingPauses() throws Exception {
    // No member knows a leader for four rounds (an election), then m2 leads: the pauses drive the script.
    start(RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(30))
        .withRetries(5, Duration.ofMillis(40), Duration.ofMillis(200)), millis -> {
          pauses.add(millis);
          if (pauses.size() == 4) {
            members.get(2).mode = Mode.ANSWER;
          }
        });
    members.forEach(m -> m.mode = Mode.NO_LEADER);
    put();
    // One pause per round of three refusals, not one per refusal.
    assertThat(log.stream().filter(s -> s.endsWith(":NO_LEADER")).count()).isBetween(12L, 14L);
    assertThat(log).last().isEqualTo("m2:ANSWER");
    assertThat(pauses).hasSize(4);
    // Doubling from the initial backoff up to the longest, each jittered over its upper half.
    long[] bases = {40, 80, 160, 200};
    for (int i = 0; i < bases.length; i++) {
      assertThat(pauses.get(i)).as("pause %d", i + 1).isBetween(bases[i] / 2, bases[i]);
    }
  }

  /** A channel in a given state that counts the reconnections asked of it. */
  private static final class StateChannel extends ManagedChannel {
    volatile ConnectivityState state;
    final AtomicInteger resets = new AtomicInteger();

    StateChannel(ConnectivityState state) {
      this.state = state;
    }

    @Override
    public ConnectivityState getState(boolean requestConnection) {
      return state;
    }

    @Override
    public void resetConnectBackoff() {
      resets.incrementAndGet();
      state = ConnectivityState.CONNECTING;
    }

    @Override
    public ManagedChannel shutdown() {
      return this;
    }

    @Override
    public boolean isShutdown() {
      return true;
    }

    @Override
    public boolean isTerminated() {
      return true;
    }

    @Override
    public ManagedChannel shutdownNow() {
      return this;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }

    @Override
    public <Q, A> ClientCall<Q, A> newCall(MethodDescriptor<Q, A> method, CallOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String authority() {
      return "member";
    }
  }

  @Test
  void aConnectionThatFailedIsTriedAgainAtOnceNotAfterTheReconnectBackoff() {
    // A member killed and restarted: gRPC would fail calls to it until its reconnect backoff ends.
    StateChannel failed = new StateChannel(ConnectivityState.TRANSIENT_FAILURE);
    RemoteEngine member = RemoteEngine.over(failed, RemoteOptions.defaults());
    member.reconnectIfFailed();
    assertThat(failed.resets).hasValue(1);
    member.reconnectIfFailed(); // connecting now: nothing more to do
    assertThat(failed.resets).hasValue(1);
    // A connection that works, or one never made, is left alone.
    for (ConnectivityState s : List.of(ConnectivityState.READY, ConnectivityState.IDLE)) {
      StateChannel fine = new StateChannel(s);
      RemoteEngine.over(fine, RemoteOptions.defaults()).reconnectIfFailed();
      assertThat(fine.resets).hasValue(0);
    }
  }

  @Test
  void aMemberThatHasNotAppliedANewTableYetSendsTheCallOnAndOnlyAllOfThemMakeItMissing() throws Exception {
    start(RemoteOptions.defaults().withRetries(5, Duration.ofMillis(10), Duration.ofMillis(100)), pauses::add);
    // Just created: two members' catalogs have not applied the table yet; m2 leads its region.
    members.get(0).mode = Mode.NO_TABLE;
    members.get(1).mode = Mode.NO_TABLE;
    put();
    assertThat(log).last().isEqualTo("m2:ANSWER");
    // A table no member knows is missing, once each said so.
    members.get(2).mode = Mode.NO_TABLE;
    log.clear();
    cluster.close();
    cluster = RemoteCluster.open(members.stream().map(Member::address).toList(), RemoteOptions.defaults(), pauses::add);
    assertThatThrownBy(this::put).isInstanceOf(TableNotFoundException.class);
    assertThat(log).containsExactlyInAnyOrder("m0:NO_TABLE", "m1:NO_TABLE", "m2:NO_TABLE");
  }
}
