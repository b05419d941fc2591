package io.bellows.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * This node's replica of one group's log. On the leader, {@link #append} proposes an entry and
 * completes once a majority holds it durably and this replica has applied it; on a follower it
 * fails with {@link NotLeaderException}. The entry goes to the local Ratis server directly (no
 * network hop for the proposer).
 */
public final class ReplicatedLog {
  private final RaftNode node;
  private final RaftServer.Division division;
  private final ClientId clientId;
  private final AtomicLong callIds;

  ReplicatedLog(RaftNode node, RaftServer.Division division, ClientId clientId, AtomicLong callIds) {
    this.node = node;
    this.division = division;
    this.clientId = clientId;
    this.callIds = callIds;
  }

  /**
   * Appends {@code entry}: the future completes with the applier's reply once the entry is
   * committed and applied here, or fails ({@link NotLeaderException} on a follower, another {@link
   * io.bellows.util.StorageException} if the group could not commit it).
   */
  public CompletableFuture<byte[]> append(byte[] entry) {
    return append(entry, NOT_READY_RETRIES);
  }

  /**
   * A replica elected leader takes appends only once it has committed an entry of its term; an
   * append that meets it before then waits for that moment (an event, not a timer) and goes again.
   */
  private static final int NOT_READY_RETRIES = 3;

  private CompletableFuture<byte[]> append(byte[] entry, int retries) {
    return submit(entry).handle((reply, error) -> {
      if (error == null) {
        return CompletableFuture.completedFuture(replyOf(reply));
      }
      return CompletableFuture.<byte[]>failedFuture(error);
    }).thenCompose(f -> f).exceptionallyCompose(error -> {
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      if (cause instanceof LeaderNotReady && retries > 0) {
        return node.whenLeaderReady(division.getGroup().getGroupId()).thenCompose(ok -> append(entry, retries - 1));
      }
      return CompletableFuture.failedFuture(cause instanceof LeaderNotReady n ? n.failure : cause);
    });
  }

  /** Internal: the reply said the leader is not ready yet. */
  private static final class LeaderNotReady extends RuntimeException {
    final io.bellows.util.StorageException failure;

    LeaderNotReady(io.bellows.util.StorageException failure) {
      super(failure.getMessage(), null, false, false);
      this.failure = failure;
    }
  }

  private CompletableFuture<RaftClientReply> submit(byte[] entry) {
    RaftClientRequest request = RaftClientRequest.newBuilder()
        .setClientId(clientId)
        .setServerId(division.getId())
        .setGroupId(division.getGroup().getGroupId())
        .setCallId(callIds.incrementAndGet())
        .setMessage(Message.valueOf(ByteString.copyFrom(entry)))
        .setType(RaftClientRequest.writeRequestType())
        .build();
    try {
      return node.server().submitClientRequestAsync(request);
    } catch (java.io.IOException e) {
      return CompletableFuture.failedFuture(new io.bellows.util.StorageException("append to group "
          + groupName() + " failed on " + node.id(), e));
    }
  }

  private byte[] replyOf(RaftClientReply reply) {
    if (reply.isSuccess()) {
      return reply.getMessage().getContent().toByteArray();
    }
    if (reply.getNotLeaderException() != null) {
      RaftPeer suggested = reply.getNotLeaderException().getSuggestedLeader();
      throw new CompletionException(new NotLeaderException(groupName(), node.id(),
          suggested == null ? null : suggested.getId().toString()));
    }
    io.bellows.util.StorageException failure = new io.bellows.util.StorageException("append to group "
        + groupName() + " failed on " + node.id() + ": " + reply.getException(), reply.getException());
    if (reply.getLeaderNotReadyException() != null) {
      throw new LeaderNotReady(failure);
    }
    throw new CompletionException(failure);
  }

  public boolean isLeader() {
    return division.getInfo().isLeader();
  }

  /** The leader this replica knows, or null. */
  public String leader() {
    RaftPeerId leader = division.getInfo().getLeaderId();
    return leader == null ? null : leader.toString();
  }

  /** The index of the last entry applied on this replica. */
  public long appliedIndex() {
    return division.getInfo().getLastAppliedIndex();
  }

  private String groupName() {
    return division.getGroup().getGroupId().getUuid().toString();
  }
}
