package io.bellows.cluster;

import io.bellows.util.StorageException;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * This node's replica of one group's log. On the leader, {@link #append} proposes an entry and
 * completes once a majority holds it durably and this replica has applied it; on a follower it
 * fails with {@link NotLeaderException}. Requests go to the local Ratis server directly (no network
 * hop for the proposer).
 */
public final class ReplicatedLog {
  /**
   * A replica elected leader takes appends only once it has committed an entry of its term; a call
   * that meets it before then waits for that moment (an event, not a timer) and goes again, a few
   * times at most (each wait may meet a newer election).
   */
  private static final int NOT_READY_RETRIES = 3;

  private final RaftNode node;
  private final RaftServer.Division division;
  private final ClientId clientId;
  private final AtomicLong callIds;
  /** Where requests go: the division if it takes them itself (Ratis' does), else the node's server. */
  private final RaftClientAsynchronousProtocol target;

  ReplicatedLog(RaftNode node, RaftServer.Division division, ClientId clientId, AtomicLong callIds) {
    this.node = node;
    this.division = division;
    // The division itself, not the server: the server hands each request to the division's client
    // executor and waits for it there, a thread hand-off per entry on the writer's path (a few ms
    // each on a busy two-core machine, docs/bench/log/2026-11-27-cluster-efficiency.md). The
    // division appends on the caller's thread instead, the same way.
    this.target = division instanceof RaftClientAsynchronousProtocol direct ? direct : node.server();
    this.clientId = clientId;
    this.callIds = callIds;
  }

  /**
   * Appends {@code entry}: the future completes with the applier's reply once the entry is
   * committed and applied here, or fails with {@link NotLeaderException} if this replica does not
   * lead (nothing was appended), {@link OutcomeUnknownException} if it stopped leading with the
   * entry pending (a later leader may commit it or not), another {@link StorageException} else.
   * Ratis puts the entry into the leader's log before its submission returns (on the caller's
   * thread), so a ready leader's entries appended by one thread follow one another in the log in
   * call order; only a leader not ready yet sends again later, and the
   * entries of another term are refused by the region's applier anyway.
   */
  public CompletableFuture<byte[]> append(byte[] entry) {
    if (!isLeader()) { // refused before it reaches the log: certainly not appended
      return CompletableFuture.failedFuture(new NotLeaderException(groupName(), node.id(), leader()));
    }
    return call(entry, RaftClientRequest.writeRequestType(), true, NOT_READY_RETRIES);
  }

  /**
   * Waits until this replica leads and is ready, and returns its term: it has applied every entry
   * committed before its term (a new leader takes nothing before its term's first entry is applied),
   * so what it evaluates from its applied state misses no earlier write. An entry appended in the
   * same term (its {@link LogPosition#term()} when applied) was evaluated by the same leadership.
   *
   * @throws NotLeaderException if this replica does not lead, or another one does before it is ready
   */
  public long awaitLeadership() {
    while (true) {
      // Registered before the checks, so that readiness or a new leader between the two is not missed.
      CompletableFuture<Void> ready = node.whenLeaderReady(division.getGroup().getGroupId());
      long term = division.getInfo().getCurrentTerm();
      if (!isLeader()) {
        throw new NotLeaderException(groupName(), node.id(), leader());
      }
      if (division.getInfo().isLeaderReady() && division.getInfo().getCurrentTerm() == term) {
        return term; // one leadership per term: the checks above saw this one
      }
      if (ready.isDone() && !ready.isCompletedExceptionally()) {
        // The readiness of an earlier term: the node registers this term's in a moment (a closed
        // node hands out only failed waits, so this does not spin on a node that stopped).
        Thread.onSpinWait();
        continue;
      }
      try {
        ready.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof NotLeaderException nl) {
          throw nl;
        }
        throw e;
      }
    }
  }

  /**
   * A linearizable read: answered by the applier once this replica has applied everything
   * committed before the read began (on the leader, after confirming its leadership or within its
   * lease).
   */
  public CompletableFuture<byte[]> read(byte[] request) {
    return call(request, RaftClientRequest.readRequestType(), false, NOT_READY_RETRIES);
  }

  /** A read of whatever this replica has applied, possibly behind the leader (HBase's TIMELINE consistency). */
  public CompletableFuture<byte[]> readStale(byte[] request) {
    return call(request, RaftClientRequest.staleReadRequestType(0), false, 0);
  }

  private CompletableFuture<byte[]> call(byte[] payload, RaftClientRequest.Type type, boolean write, int retries) {
    return submit(payload, type).thenApply(reply -> replyOf(reply, write)).exceptionallyCompose(error -> {
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      if (cause instanceof LeaderNotReady notReady) {
        if (retries > 0) {
          return node.whenLeaderReady(division.getGroup().getGroupId())
              .thenCompose(ready -> call(payload, type, write, retries - 1));
        }
        cause = notReady.failure;
      }
      return CompletableFuture.failedFuture(cause);
    });
  }

  /** Internal: the reply said this replica leads but is not ready yet. */
  private static final class LeaderNotReady extends RuntimeException {
    final StorageException failure;

    LeaderNotReady(StorageException failure) {
      super(failure.getMessage(), null, false, false);
      this.failure = failure;
    }
  }

  private CompletableFuture<RaftClientReply> submit(byte[] payload, RaftClientRequest.Type type) {
    RaftClientRequest request = RaftClientRequest.newBuilder()
        .setClientId(clientId)
        .setServerId(division.getId())
        .setGroupId(division.getGroup().getGroupId())
        .setCallId(callIds.incrementAndGet())
        .setMessage(Message.valueOf(ByteString.copyFrom(payload)))
        .setType(type)
        .build();
    try {
      return target.submitClientRequestAsync(request);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(new StorageException("a call to group " + groupName()
          + " failed on " + node.id(), e));
    }
  }

  private byte[] replyOf(RaftClientReply reply, boolean write) {
    if (reply.isSuccess()) {
      return reply.getMessage().getContent().toByteArray();
    }
    if (reply.getNotLeaderException() != null) {
      if (write) {
        // The request reached the leader, which steps down and fails what it holds pending, some
        // of which a majority may already have: the next leader may commit it.
        throw new OutcomeUnknownException("group " + groupName() + ": " + node.id()
            + " stopped leading with the entry pending; it may or may not be committed", reply.getNotLeaderException());
      }
      RaftPeer suggested = reply.getNotLeaderException().getSuggestedLeader();
      throw new NotLeaderException(groupName(), node.id(), suggested == null ? null : suggested.getId().toString());
    }
    if (reply.getException() instanceof LeaderSteppingDownException) {
      // The leader is handing its leadership over (a transfer: the watch of empty replicas asks for
      // one) and refuses writes until it is done; refused before the log, so certainly not
      // appended, and the next leader takes it: the caller goes on as for any other member that
      // does not lead.
      throw new NotLeaderException(groupName(), node.id(), null);
    }
    StorageException failure = new StorageException("a call to group " + groupName() + " failed on "
        + node.id() + ": " + reply.getException(), reply.getException());
    if (reply.getLeaderNotReadyException() != null) {
      throw new LeaderNotReady(failure);
    }
    throw failure;
  }

  public boolean isLeader() {
    return division.getInfo().isLeader();
  }

  /** The leader this replica knows, or null. */
  public String leader() {
    RaftPeerId leader = division.getInfo().getLeaderId();
    return leader == null ? null : leader.toString();
  }

  /** Raft's role of this replica now: LEADER, FOLLOWER, CANDIDATE (or another of Ratis' roles). */
  public String role() {
    return division.getInfo().getCurrentRole().name();
  }

  /** This replica's current term. */
  public long term() {
    return division.getInfo().getCurrentTerm();
  }

  /** The index of the last entry applied on this replica. */
  public long appliedIndex() {
    return division.getInfo().getLastAppliedIndex();
  }

  private String groupName() {
    return division.getGroup().getGroupId().getUuid().toString();
  }
}
