package io.bellows.cluster.server;

import io.bellows.cluster.RaftNode;
import io.bellows.cluster.ReplicatedLog;
import io.bellows.util.RefusedException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds members to the running cluster, on meta's leader (the shell's {@code add_server}). First
 * meta records the member ({@code add-member}: every member learns its addresses); then, once it
 * answers for meta on its Raft port — started with a member file that lists it as added, it adds
 * meta's group knowing the others only — meta's members change to take it in (Ratis' membership
 * change: the leader sends it meta's log first, then commits the old and new members together).
 * From then on regions may be placed on it and replicas moved there. A pass on meta's leader
 * finishes what a call or a leader's loss left: a member recorded but not yet in meta's group is
 * taken in once it answers (docs/design/cluster.md, "Adding a member").
 */
final class MemberAdmissions {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedEngine.class); // the engine's messages, under its name

  /** How long a client's call waits for the new member to answer on its Raft port: time to start it. */
  static final long ANSWER_WAIT_MS = 60_000;

  /** What the admissions need of their member. */
  interface Host {
    RaftNode node();

    ReplicatedLog meta();

    boolean closed();
  }

  private final MetaCatalog catalog;
  private final MemberBook book;
  /** The founding members' ids (the member file's lines without {@code added}). */
  private final List<String> founding;
  private final Host host;
  /**
   * Held while meta's members change: a client's call and the pass never change them at once, and
   * the pass, which shares its thread with the replica moves' passes, skips a turn rather than wait.
   */
  private final ReentrantLock admitting = new ReentrantLock();

  MemberAdmissions(MetaCatalog catalog, MemberBook book, List<String> founding, Host host) {
    this.catalog = catalog;
    this.book = book;
    this.founding = List.copyOf(founding);
    this.host = host;
  }

  /**
   * On meta's leader: records member {@code m} in meta unless it is there with these addresses
   * already (a repeated call goes on to the wait), then waits up to {@link #ANSWER_WAIT_MS} for it
   * to answer and takes it into meta's group. Refused, with nothing recorded: an id or address the
   * cluster has for another member, a cluster at {@link Members#MAX} members.
   *
   * @throws RefusedException when the member was recorded but did not answer in time (the pass
   *     takes it in once it does), or meta's change of members failed
   */
  void add(Members.Member m) {
    Members.Member known = book.members().list().stream().filter(k -> k.id().equals(m.id())).findFirst().orElse(null);
    if (known != null && !(known.raftAddress().equals(m.raftAddress())
        && known.clientAddress().equals(m.clientAddress()))) {
      throw new IllegalArgumentException("member " + m.id() + " is in the cluster already, at Raft " + known.raftAddress()
          + " and clients " + known.clientAddress());
    }
    for (Members.Member k : book.members().list()) {
      if (!k.id().equals(m.id()) && (List.of(k.raftAddress(), k.clientAddress()).contains(m.raftAddress())
          || List.of(k.raftAddress(), k.clientAddress()).contains(m.clientAddress()))) {
        throw new IllegalArgumentException("member " + k.id() + " has that address already (Raft " + k.raftAddress()
            + ", clients " + k.clientAddress() + ")");
      }
    }
    boolean recorded = founding.contains(m.id()) || catalog.added().stream().anyMatch(a -> a.id().equals(m.id()));
    if (!recorded) {
      int count = founding.size() + catalog.added().size();
      if (count >= Members.MAX) {
        throw new RefusedException("the cluster has " + count + " members, the most it may have (" + Members.MAX
            + "): meta is a group over every member");
      }
      String reply = new String(ReplicatedEngine.join(host.meta().append(MetaCatalog.addMember(m))),
          StandardCharsets.UTF_8);
      if (reply.equals(MetaCatalog.CONFLICT)) {
        throw new IllegalArgumentException("member " + m.id() + " is in the cluster already at other addresses");
      }
      LOG.info("meta recorded member {} (Raft {}, clients {}); it joins meta's group once it answers", m.id(),
          m.raftAddress(), m.clientAddress());
    }
    boolean in;
    admitting.lock();
    try {
      in = admit(m.id(), ANSWER_WAIT_MS);
    } finally {
      admitting.unlock();
    }
    if (!in) {
      throw new RefusedException("member " + m.id() + " is recorded, but did not answer on its Raft port "
          + m.raftAddress() + " within " + ANSWER_WAIT_MS / 1000 + " s: start it with a member file that lists it"
          + " ('" + m.id() + " " + m.raftAddress() + " " + m.clientAddress() + " " + Members.ADDED
          + "'); meta's leader takes it in once it answers");
    }
  }

  /**
   * On meta's leader, every few seconds: takes into meta's group each member meta recorded that is
   * not in it yet and answers now. Failures are logged; the next pass tries again.
   */
  void pass() {
    try {
      if (host.closed() || !host.meta().isLeader()) {
        return;
      }
      if (!admitting.tryLock()) {
        return; // a client's call is taking a member in: this pass's thread has other work than waiting
      }
      try {
        for (Members.Member m : catalog.added()) {
          admit(m.id(), 0);
        }
      } finally {
        admitting.unlock();
      }
    } catch (RuntimeException e) {
      if (!host.closed()) {
        LOG.warn("taking a recorded member into meta's group failed: {}; the next pass tries again", e.toString());
      }
    }
  }

  /**
   * Takes member {@code id} into meta's group once it answers for meta (waiting up to {@code
   * waitMs}); returns whether it is in the group. Called holding {@link #admitting}.
   */
  private boolean admit(String id, long waitMs) {
    RaftNode n = host.node();
    List<String> inMeta = n.members().of(ReplicatedEngine.META);
    if (inMeta == null) {
      return false;
    }
    if (inMeta.contains(id)) {
      return true;
    }
    List<String> after = new ArrayList<>(inMeta);
    after.add(id);
    List<RaftNode.Peer> every = book.peers(after);
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
    while (!n.members().answersFor(ReplicatedEngine.META, every, id)) {
      if (System.nanoTime() >= end || host.closed()) {
        return false;
      }
      try {
        Thread.sleep(200); // polling another process's start
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    n.members().change(ReplicatedEngine.META, every, every);
    LOG.info("member {} is in meta's group now: its members are {}", id, after);
    return true;
  }
}
