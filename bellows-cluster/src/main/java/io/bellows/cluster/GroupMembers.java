package io.bellows.cluster;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.CommitInfoProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link RaftNode} asks of, and about, the members of a group over their Raft ports (this
 * node need not hold the group): whether every member holds the log or has applied it, which
 * members have gone silent to a leader here, whether a member answers for the group, who leads it
 * as the members see it, and the change of its members. Reached through {@link RaftNode#members()}.
 */
public final class GroupMembers {
  private static final Logger LOG = LoggerFactory.getLogger(GroupMembers.class);

  private final RaftNode node;

  GroupMembers(RaftNode node) {
    this.node = node;
  }

  /**
   * Waits until every one of {@code peers} holds the first entry of {@code group}'s log, or {@code
   * timeoutMillis} pass; returns whether they all did. Why a new group waits for this: once a group
   * has committed entries, Ratis counts no vote from a member whose log is empty, so a group whose
   * leader dies before a slow member received anything has one vote too few until that leader is
   * back. Asked of the group's leader: the commit index it last heard from each member (Ratis'
   * commit infos, -1 for a member that never acknowledged anything), polled every 50 ms. Not Ratis'
   * watch: its watches start out satisfied at index 0, and a new group has no entry 1 until a write
   * (the first leader's configuration gets no commit-index entry after it).
   */
  public boolean awaitEveryReplica(UUID group, List<RaftNode.Peer> peers, long timeoutMillis) {
    RaftGroupId gid = RaftGroupId.valueOf(group);
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    try (RaftClient client = node.client(group, peers, RetryPolicies.noRetry())) {
      while (true) {
        if (everyPeerHoldsTheLog(commitInfos(gid, client), peers)) {
          return true;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        if (left <= 0) {
          LOG.info("{}: not every member holds the group's first entry after {} ms", group, timeoutMillis);
          return false;
        }
        Thread.sleep(Math.min(50, left)); // between polls of the leader's view
      }
    } catch (IOException e) {
      LOG.info("{}: could not ask whether every member holds the group's log: {}", group, e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The leader's commit index of each member of the group, as far as this node can ask it now; empty if it cannot. */
  private Collection<CommitInfoProto> commitInfos(RaftGroupId gid, RaftClient client) {
    try {
      RaftServer.Division d = node.server().getDivision(gid);
      RaftPeerId leader = d.getInfo().getLeaderId();
      if (leader == null) {
        return List.of();
      }
      if (leader.equals(node.server().getId())) {
        return d.getCommitInfos();
      }
      return client.getGroupManagementApi(leader).info(gid).getCommitInfos();
    } catch (IOException e) {
      return List.of(); // not joined here yet, or the leader did not answer: asked again
    }
  }

  /**
   * Whether every one of {@code peers} holds {@code group}'s log up to {@code index}, as the
   * group's leader (this node: else false) last heard from each (Ratis' commit infos). One look, no wait.
   */
  public boolean everyPeerCommitted(UUID group, List<RaftNode.Peer> peers, long index) {
    try {
      RaftServer.Division d = node.server().getDivision(RaftGroupId.valueOf(group));
      if (!d.getInfo().isLeader()) {
        return false;
      }
      return everyPeerHoldsTheLog(d.getCommitInfos(), peers, index);
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean everyPeerHoldsTheLog(Collection<CommitInfoProto> infos, List<RaftNode.Peer> peers) {
    return everyPeerHoldsTheLog(infos, peers, 0);
  }

  private static boolean everyPeerHoldsTheLog(Collection<CommitInfoProto> infos, List<RaftNode.Peer> peers, long index) {
    for (RaftNode.Peer p : peers) {
      boolean holds = infos.stream()
          .anyMatch(c -> c.getServer().getId().toStringUtf8().equals(p.id()) && c.getCommitIndex() >= index);
      if (!holds) {
        return false;
      }
    }
    return true;
  }

  /**
   * Waits until member {@code peer}'s replica of {@code group} has applied every entry committed
   * before this call, or {@code timeoutMillis} pass; returns whether it did. A linearizable read
   * asked of that member (Ratis' read index, which a follower takes from its leader and then waits
   * for its own applier to reach), answering nothing: a barrier, as {@link ReplicatedLog#read} is
   * on the node.
   */
  public boolean awaitApplied(UUID group, List<RaftNode.Peer> peers, String peer, long timeoutMillis) {
    if (timeoutMillis <= 0) {
      return false;
    }
    try (RaftClient client = node.client(group, peers,
        RetryPolicies.retryForeverWithSleep(TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)))) {
      return client.async().sendReadOnly(Message.valueOf(ByteString.EMPTY), RaftPeerId.valueOf(peer))
          .get(timeoutMillis, TimeUnit.MILLISECONDS).isSuccess();
    } catch (TimeoutException | ExecutionException | IOException e) {
      LOG.info("{}: {} has not applied the group's committed entries yet: {}", group, peer, e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The members whose replicas of {@code group} have not answered this node, its leader, for {@code
   * silentMillis} (down, cut off, or stopped): empty where this node does not lead the group.
   */
  public Set<String> silentPeers(UUID group, long silentMillis) {
    RaftServer.Division d;
    try {
      d = node.server().getDivision(RaftGroupId.valueOf(group));
    } catch (IOException e) {
      return Set.of();
    }
    RoleInfoProto role = d.getInfo().getRoleInfoProto();
    if (!role.hasLeaderInfo()) {
      return Set.of();
    }
    Set<String> silent = new java.util.TreeSet<>();
    for (ServerRpcProto f : role.getLeaderInfo().getFollowerInfoList()) {
      if (f.getLastRpcElapsedTimeMs() > silentMillis) {
        silent.add(f.getId().getId().toStringUtf8());
      }
    }
    return silent;
  }

  /** How long a change of a group's members waits for a new member to catch up and the change to commit. */
  private static final long MEMBERSHIP_TIMEOUT_MS = 60_000;

  /**
   * Whether member {@code member} answers for a replica of {@code group} (over {@code peers}) on its
   * Raft port: it is up and has added the group.
   */
  public boolean answersFor(UUID group, List<RaftNode.Peer> peers, String member) {
    try (RaftClient probe = node.client(group, peers, RetryPolicies.noRetry())) {
      probe.getGroupManagementApi(RaftPeerId.valueOf(member)).info(RaftGroupId.valueOf(group));
      return true;
    } catch (IOException | RuntimeException e) { // Ratis' transport may fail unchecked (its gRPC's status)
      return false;
    }
  }

  /**
   * The members of {@code group} as the first of {@code peers} that answers for a replica of it
   * knows them (its last configuration), or null if none answers.
   */
  public List<String> membersSeenBy(UUID group, List<RaftNode.Peer> peers) {
    RaftGroupId gid = RaftGroupId.valueOf(group);
    try (RaftClient probe = node.client(group, peers, RetryPolicies.noRetry())) {
      for (RaftNode.Peer p : peers) {
        try {
          return probe.getGroupManagementApi(RaftPeerId.valueOf(p.id())).info(gid).getGroup().getPeers().stream()
              .map(m -> m.getId().toString()).toList();
        } catch (IOException | RuntimeException e) {
          LOG.debug("{}: {} did not say who its members are: {}", group, p.id(), e.toString());
        }
      }
    } catch (IOException e) {
      LOG.debug("closing a Ratis client failed: {}", e.toString());
    }
    return null;
  }

  /**
   * The leader of {@code group} as the first of {@code peers} that answers knows it (this node
   * need not hold the group), or null if none answers with one.
   */
  public String leaderSeenBy(UUID group, List<RaftNode.Peer> peers) {
    RaftGroupId gid = RaftGroupId.valueOf(group);
    String here = node.knownLeader(gid);
    if (here != null) {
      return here;
    }
    try (RaftClient probe = node.client(group, peers, RetryPolicies.noRetry())) {
      for (RaftNode.Peer p : peers) {
        try {
          RoleInfoProto role = probe.getGroupManagementApi(RaftPeerId.valueOf(p.id())).info(gid).getRoleInfoProto();
          if (role.hasLeaderInfo()) {
            return p.id();
          }
          if (role.hasFollowerInfo() && role.getFollowerInfo().hasLeaderInfo()) {
            String leader = role.getFollowerInfo().getLeaderInfo().getId().getId().toStringUtf8();
            if (!leader.isEmpty()) {
              return leader;
            }
          }
        } catch (IOException | RuntimeException e) {
          LOG.debug("{}: {} did not say who leads: {}", group, p.id(), e.toString());
        }
      }
    } catch (IOException e) {
      LOG.debug("closing a Ratis client failed: {}", e.toString());
    }
    return null;
  }

  /**
   * Changes the members of {@code group} to {@code members} (Ratis' membership change, asked of
   * the leader over {@code reach}, which holds the old members and the new): the leader first
   * sends a new member the log after its checkpoint until it has caught up, then commits the old
   * and new members together, then the new alone (Raft's joint consensus); a leader not among the
   * new members steps down after. Returns once the change is committed; a repeat of a change made
   * already changes nothing. Waits {@link #MEMBERSHIP_TIMEOUT_MS} at most.
   *
   * @throws IllegalStateException when the leader refused or did not finish in time (the message says why)
   */
  public void change(UUID group, List<RaftNode.Peer> reach, List<RaftNode.Peer> members) {
    RaftProperties properties = new RaftProperties();
    RaftClientConfigKeys.Rpc.setRequestTimeout(properties,
        TimeDuration.valueOf(MEMBERSHIP_TIMEOUT_MS, TimeUnit.MILLISECONDS));
    RetryPolicy retries = RetryPolicies.retryUpToMaximumCountWithFixedSleep(20,
        TimeDuration.valueOf(250, TimeUnit.MILLISECONDS));
    try (RaftClient client = node.client(group, reach, retries, properties)) {
      RaftClientReply reply = client.admin().setConfiguration(members.stream().map(RaftNode.Peer::toRatis).toList());
      if (!reply.isSuccess()) {
        throw new IllegalStateException("group " + group + " did not change its members to " + members + ": "
            + reply.getException());
      }
      LOG.info("{}: the group's members are {} now", group, members.stream().map(RaftNode.Peer::id).toList());
    } catch (IOException e) {
      throw new IllegalStateException("group " + group + " did not change its members to "
          + members.stream().map(RaftNode.Peer::id).toList() + ": " + e + (e.getCause() == null ? "" : " (" + e.getCause() + ")"),
          e);
    }
  }

  /** The members of {@code group} as this node's replica knows them (its last configuration), or null if it holds none. */
  public List<String> of(UUID group) {
    try {
      return node.server().getDivision(RaftGroupId.valueOf(group)).getGroup().getPeers().stream()
          .map(p -> p.getId().toString()).toList();
    } catch (IOException e) {
      return null;
    }
  }
}
