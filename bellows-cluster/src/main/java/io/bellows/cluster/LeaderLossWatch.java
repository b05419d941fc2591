package io.bellows.cluster;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.ratis.client.impl.ClientProtoUtils;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionRequestProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCallListener;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a group's election as soon as its leader's process is gone, instead of after a
 * follower's election timeout (1–2 s of silence): the difference between a failover of about a
 * second and one of two or three.
 *
 * <p>A leader sends each follower its log on a stream; when the leader's process dies (a crash, a
 * SIGKILL, its server stopped), its operating system closes the connection and the follower's end
 * of the stream is cancelled (or closed, if the server stopped). The stream also ends for ordinary reasons (the leader's appender
 * starts a new one), so the follower then tries the leader's Raft port: only a refused connection
 * (no process listens there any more) counts as the leader gone. A leader that is paused, cut off
 * or on a machine that stopped answering refuses nothing, and is left to the election timeout.
 *
 * <p>Of the group's other peers, the one with the lowest id starts the election at once, the next
 * one {@link #STAGGER_MS} later if the group still has no other leader by then (the first may be
 * behind the others' logs and lose), and so on, so that two followers do not split the vote; each
 * asks its own replica to stand (Ratis' start of an election, as a leader's transfer of its
 * leadership does, named as coming from the leader it lost, without a pre-vote), and wins if its
 * log is as long as the others'. Raft's safety does not depend on when an election starts: an
 * election started wrongly costs a leader change, no write.
 */
final class LeaderLossWatch implements ServerInterceptor {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderLossWatch.class);
  /** How long a connection to the lost leader's port may take before the probe gives up (and leaves it to the timeout). */
  static final int PROBE_TIMEOUT_MS = 300;
  /** How much later than the one before it each further peer stands, if the group has no new leader by then. */
  static final long STAGGER_MS = 500;

  private final String self;
  private final Supplier<RaftServer> server;
  private final ScheduledExecutorService probes;
  private final AtomicLong elections = new AtomicLong();

  /** {@code probes} runs the probes and elections (never a gRPC thread); {@code server} is the node's, once built. */
  LeaderLossWatch(String self, Supplier<RaftServer> server, ScheduledExecutorService probes) {
    this.self = self;
    this.server = server;
    this.probes = probes;
  }

  /** Elections this watch started. */
  long elections() {
    return elections.get();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    ServerCall.Listener<Q> delegate = next.startCall(call, headers);
    if (!call.getMethodDescriptor().getFullMethodName().endsWith("/appendEntries")) {
      return delegate;
    }
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
      private volatile AppendEntriesRequestProto first;

      @Override
      public void onMessage(Q message) {
        if (first == null && message instanceof AppendEntriesRequestProto r) {
          first = r;
        }
        super.onMessage(message);
      }

      @Override
      public void onCancel() {
        super.onCancel();
        ended();
      }

      @Override
      public void onHalfClose() {
        super.onHalfClose();
        ended();
      }

      /** The stream ended, as any does when its leader's process is gone: probe the leader, off this thread. */
      private void ended() {
        AppendEntriesRequestProto r = first;
        if (r != null) {
          String leader = r.getServerRequest().getRequestorId().toStringUtf8();
          RaftGroupId group = RaftGroupId.valueOf(r.getServerRequest().getRaftGroupId().getId());
          try {
            probes.execute(() -> check(group, leader, false));
          } catch (RuntimeException stopped) {
            // the node is closing
          }
        }
      }
    };
  }

  /**
   * On a probe thread: if {@code leader} still leads {@code group} here and its port refuses, stands
   * for election, or, for a peer after the first, looks again later ({@code staggered}: this is
   * that later look).
   */
  void check(RaftGroupId group, String leader, boolean staggered) {
    try {
      RaftServer s = server.get();
      if (s == null) {
        return;
      }
      RaftServer.Division d = s.getDivision(group);
      RaftPeerId known = d.getInfo().getLeaderId();
      if (!d.getInfo().isFollower() || known == null || !known.toString().equals(leader)) {
        return; // another leader already, or this replica stands itself
      }
      RaftPeer lost = d.getGroup().getPeer(known);
      List<String> others = d.getGroup().getPeers().stream().map(p -> p.getId().toString())
          .filter(p -> !p.equals(leader)).sorted().toList();
      int rank = others.indexOf(self);
      if (lost == null || rank < 0 || !refuses(lost.getAddress())) {
        return;
      }
      if (rank > 0 && !staggered) {
        probes.schedule(() -> check(group, leader, true), rank * STAGGER_MS, TimeUnit.MILLISECONDS);
        return;
      }
      TermIndex last = d.getRaftLog().getLastEntryTermIndex();
      if (last == null || last.getTerm() != d.getInfo().getCurrentTerm()) {
        return; // Ratis starts an election only for a leader of this term that this replica heard from
      }
      StartLeaderElectionRequestProto request = StartLeaderElectionRequestProto.newBuilder()
          .setServerRequest(ClientProtoUtils.toRaftRpcRequestProtoBuilder(
              RaftGroupMemberId.valueOf(known, group), RaftPeerId.valueOf(self)))
          .setLeaderLastEntry(last.toProto())
          .build();
      if (s.startLeaderElection(request).getServerReply().getSuccess()) {
        elections.incrementAndGet();
        LOG.info("{}: leader {} is gone (its Raft port {} refuses connections): {} stands for election now",
            group, leader, lost.getAddress(), self);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("{}: the check of leader {} failed: {}", group, leader, e.toString());
    }
  }

  /** Whether nothing listens on {@code address} (host:port): the connection is refused. */
  static boolean refuses(String address) {
    int colon = address.lastIndexOf(':');
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))),
          PROBE_TIMEOUT_MS);
      return false;
    } catch (ConnectException refused) {
      return true;
    } catch (IOException | RuntimeException unknown) {
      return false; // a timeout, an unreachable host: not proof that the process is gone
    }
  }
}
