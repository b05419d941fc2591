package io.bellows.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.LifeCycle;

/**
 * The Ratis state machine of one group on one node: hands every committed entry, in log order, to
 * the replica's {@link LogApplier}, answers reads from it, and tells the node when the group's
 * leader changes or is ready.
 *
 * <p>Snapshots: Ratis' snapshot of a group is not a copy of anything. The applier's state is
 * already durable up to {@link LogApplier#durablePosition()} (a region's flushed files), so taking a
 * snapshot only records that position in an empty marker file (Ratis' own snapshot storage keeps
 * them), which lets Ratis drop the log below it and replay from after it at a restart. A replica
 * behind its leader's first entry is told to install a checkpoint (Ratis' notification mode: the
 * leader never ships files through the log) and asks its applier to fetch one.
 */
final class LogStateMachine extends BaseStateMachine {
  private final LogApplier applier;
  private final BiConsumer<RaftGroupMemberId, RaftPeerId> leaderChanged;
  private final Consumer<RaftGroupId> leaderReady;
  private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
  /**
   * Held while an entry is applied and while a checkpoint is installed: Ratis may still be applying
   * the replica's own committed entries when it asks for an install, and the applier must not be
   * handed one while it replaces its state. Uncontended but for that.
   */
  private final Object applying = new Object();
  /** Set once the leader asked this replica to install a checkpoint: it is catching up, not stuck ({@link RaftNode}). */
  private volatile boolean checkpointAsked;

  LogStateMachine(LogApplier applier, BiConsumer<RaftGroupMemberId, RaftPeerId> leaderChanged,
      Consumer<RaftGroupId> leaderReady) {
    this.applier = applier;
    this.leaderChanged = leaderChanged;
    this.leaderReady = leaderReady;
  }

  @Override
  public synchronized void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage)
      throws IOException {
    getLifeCycle().startAndTransition(() -> {
      super.initialize(server, groupId, raftStorage);
      storage.init(raftStorage);
      loadLatestMarker();
      LogPosition seeded = applier.seededPosition();
      if (storage.getLatestSnapshot() == null && seeded != null) {
        writeMarker(seeded); // before Ratis opens the log: it starts after the seed
        updateLastAppliedTermIndex(seeded.term(), seeded.index());
      }
    });
  }

  /** Ratis pauses the machine before it reloads it from an installed checkpoint (and checks it did). */
  @Override
  public synchronized void pause() {
    getLifeCycle().transition(LifeCycle.State.PAUSING);
    getLifeCycle().transition(LifeCycle.State.PAUSED);
  }

  /** After a checkpoint was installed: the log continues after the marker it left. */
  @Override
  public synchronized void reinitialize() {
    loadLatestMarker();
    if (getLifeCycleState() == LifeCycle.State.PAUSED) {
      getLifeCycle().transition(LifeCycle.State.STARTING);
      getLifeCycle().transition(LifeCycle.State.RUNNING);
    }
  }

  private void loadLatestMarker() {
    SingleFileSnapshotInfo marker = storage.loadLatestSnapshot();
    if (marker != null) {
      updateLastAppliedTermIndex(marker.getTermIndex());
    }
  }

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return storage;
  }

  /** Ratis calls this on the group's one apply thread, in log order. */
  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto e = trx.getLogEntry();
    byte[] reply;
    try {
      synchronized (applying) {
        reply = applier.apply(new LogPosition(e.getTerm(), e.getIndex()),
            e.getStateMachineLogEntry().getLogData().toByteArray());
      }
    } catch (RuntimeException failure) {
      return CompletableFuture.failedFuture(failure);
    }
    updateLastAppliedTermIndex(e.getTerm(), e.getIndex());
    return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(reply)));
  }

  @Override
  public CompletableFuture<Message> query(Message request) {
    try {
      return CompletableFuture.completedFuture(
          Message.valueOf(ByteString.copyFrom(applier.query(request.getContent().toByteArray()))));
    } catch (RuntimeException failure) {
      return CompletableFuture.failedFuture(failure);
    }
  }

  /** Records the applier's durable position as the group's snapshot; Ratis may drop the log below it. */
  @Override
  public long takeSnapshot() throws IOException {
    LogPosition durable = applier.durablePosition();
    if (durable == null) {
      return RaftLog.INVALID_LOG_INDEX;
    }
    if (durable.index() > getLastAppliedTermIndex().getIndex()) {
      throw new IllegalStateException("the applier reports " + durable + " durable, beyond the last applied "
          + getLastAppliedTermIndex());
    }
    applier.checkpointing(durable);
    writeMarker(durable);
    return durable.index();
  }

  private void writeMarker(LogPosition at) {
    File f = storage.getSnapshotFile(at.term(), at.index());
    try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("could not record the snapshot marker " + f, e);
    }
    storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(f.toPath(), null), at.term(), at.index()));
  }

  /**
   * Ratis calls this once per install: the leader's repeats while it runs (it sends one as soon as
   * the last was answered, the follower's commit index being behind) are answered "in progress" by
   * Ratis without reaching the state machine. Each repeat still costs the follower a sync of
   * {@code raft-meta.conf} on the disk the install writes to (30-70 ms each, dozens per install):
   * Ratis 3.3's {@code SnapshotInstallationHandler} drops the configuration at the request's
   * configuration index before it compares it with the request's, so it always differs and is
   * written again. Nothing here can answer those repeats; only Ratis could (compare before
   * dropping, or pace repeats of an install in progress).
   */
  @Override
  public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(RoleInfoProto role, TermIndex firstInLeaderLog) {
    String leader = RaftPeerId.valueOf(role.getFollowerInfo().getLeaderInfo().getId().getId()).toString();
    if (applier.keepsWholeLog()) {
      // None to install: Ratis answers the leader "unavailable", and the leader sends the log from its start.
      return CompletableFuture.completedFuture(null);
    }
    checkpointAsked = true;
    // Its own thread: fetching a region's files may take long, and must hold neither Ratis' threads nor the common pool.
    return CompletableFuture.supplyAsync(() -> {
      LogPosition installed;
      synchronized (applying) {
        installed = applier.installCheckpoint(leader);
      }
      if (installed.index() + 1 < firstInLeaderLog.getIndex()) {
        throw new IllegalStateException("the checkpoint from " + leader + " ends at " + installed
            + ", before the leader's log starts at " + firstInLeaderLog);
      }
      writeMarker(installed);
      return TermIndex.valueOf(installed.term(), installed.index());
    }, task -> {
      Thread t = new Thread(task, "bellows-checkpoint-install");
      t.setDaemon(true);
      t.start();
    });
  }

  /** Whether the leader has asked this replica to install a checkpoint since it started. */
  boolean checkpointAsked() {
    return checkpointAsked;
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
