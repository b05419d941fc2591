package io.bellows.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * The Ratis state machine of one group on one node: hands every committed entry, in log order, to
 * the replica's {@link LogApplier}, and tells the node when the group's leader changes.
 */
final class LogStateMachine extends BaseStateMachine {
  private final LogApplier applier;
  private final BiConsumer<RaftGroupMemberId, RaftPeerId> leaderChanged;
  private final Consumer<RaftGroupId> leaderReady;

  LogStateMachine(LogApplier applier, BiConsumer<RaftGroupMemberId, RaftPeerId> leaderChanged,
      Consumer<RaftGroupId> leaderReady) {
    this.applier = applier;
    this.leaderChanged = leaderChanged;
    this.leaderReady = leaderReady;
  }

  /** Ratis calls this on the group's one apply thread, in log order. */
  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto e = trx.getLogEntry();
    byte[] reply;
    try {
      reply = applier.apply(e.getIndex(), e.getStateMachineLogEntry().getLogData().toByteArray());
    } catch (RuntimeException failure) {
      return CompletableFuture.failedFuture(failure);
    }
    updateLastAppliedTermIndex(e.getTerm(), e.getIndex());
    return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(reply)));
  }

  /** This replica leads and has committed an entry of its term: it takes appends now. */
  @Override
  public void notifyLeaderReady() {
    leaderReady.accept(getGroupId());
  }

  @Override
  public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId leader) {
    leaderChanged.accept(member, leader);
  }
}
