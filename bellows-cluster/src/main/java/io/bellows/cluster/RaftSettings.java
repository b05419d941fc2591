package io.bellows.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * How a {@link RaftNode} runs Ratis: where it listens and keeps its logs, and the few timing
 * choices that matter, set explicitly because Ratis' defaults suit neither small machines nor
 * linearizable reads.
 *
 * @param host the address the node listens on and its peers reach it at
 * @param port the node's Raft port (gRPC)
 * @param storage the directory of the node's Raft logs (one sub-directory per group)
 * @param electionMin the shortest time without a leader's heartbeat before a follower starts an
 *     election: 1 s by default (Ratis' default is 150 ms). A follower checks at random intervals
 *     between the two bounds, so it notices a silent leader between one and two of them after the
 *     leader's last message; the leader sends one every half of this minimum when idle, so a pause
 *     deposes it only past 500 ms idle, 1 s under writes (docs/design/cluster.md, "Per-replica
 *     cost": 600 ms to 1.2 s fails over faster but changed leaders in a steady run)
 * @param electionMax the longest such time (2 s): elections are randomized between the two
 * @param logSegmentBytes the size at which a group's log file is closed and a new one begun (4
 *     MiB); the log is dropped a whole closed segment at a time, and Ratis keeps the entries of the
 *     open one and of the last closed one in memory
 * @param purgeGap how many entries past the last drop a checkpoint must reach before the log is
 *     dropped again (1024), so that frequent flushes do not mean constant file deletions
 * @param silentLeader how long a replica added empty may apply nothing while it knows a leader
 *     before it asks that leader to hand its leadership over (15 s: {@link RaftNode}'s empty-replica
 *     watch says why; a test of that watch shortens it)
 */
public record RaftSettings(String host, int port, Path storage, Duration electionMin, Duration electionMax,
    long logSegmentBytes, int purgeGap, Duration silentLeader) {
  public static final Duration DEFAULT_ELECTION_MIN = Duration.ofSeconds(1);
  public static final Duration DEFAULT_ELECTION_MAX = Duration.ofSeconds(2);
  public static final long DEFAULT_LOG_SEGMENT_BYTES = 4L << 20;
  public static final int DEFAULT_PURGE_GAP = 1024;
  public static final Duration DEFAULT_SILENT_LEADER = Duration.ofSeconds(15);
  /** The timeouts of a group's first election after its replica starts (at most the election timeouts). */
  static final Duration FIRST_ELECTION_MIN = Duration.ofMillis(150);
  static final Duration FIRST_ELECTION_MAX = Duration.ofMillis(300);

  public RaftSettings {
    if (electionMin.compareTo(electionMax) >= 0) {
      throw new IllegalArgumentException("election timeouts: the minimum " + electionMin
          + " must be below the maximum " + electionMax);
    }
  }

  /** A node on {@code host:port} keeping its logs in {@code storage}, with the default timings. */
  public static RaftSettings of(String host, int port, Path storage) {
    return new RaftSettings(host, port, storage, DEFAULT_ELECTION_MIN, DEFAULT_ELECTION_MAX,
        DEFAULT_LOG_SEGMENT_BYTES, DEFAULT_PURGE_GAP, DEFAULT_SILENT_LEADER);
  }

  public RaftSettings withElectionTimeouts(Duration min, Duration max) {
    return new RaftSettings(host, port, storage, min, max, logSegmentBytes, purgeGap, silentLeader);
  }

  public RaftSettings withLogRetention(long segmentBytes, int gap) {
    return new RaftSettings(host, port, storage, electionMin, electionMax, segmentBytes, gap, silentLeader);
  }

  public RaftSettings withSilentLeader(Duration silence) {
    return new RaftSettings(host, port, storage, electionMin, electionMax, logSegmentBytes, purgeGap, silence);
  }

  /** The address peers use to reach this node. */
  public String address() {
    return host + ":" + port;
  }

  RaftProperties toProperties() {
    RaftProperties p = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(p, List.of(storage.toFile()));
    GrpcConfigKeys.Server.setHost(p, host);
    GrpcConfigKeys.Server.setPort(p, port);
    RaftServerConfigKeys.Rpc.setTimeoutMin(p, millis(electionMin));
    RaftServerConfigKeys.Rpc.setTimeoutMax(p, millis(electionMax));
    // A group's first election, after its replica starts (a new table's regions, a split's daughters,
    // every group at a member's start), comes after a short timeout: a new group has no leader to wait
    // for, and its writes wait for the election; a started member's replica that hears its group's
    // leader first never stands, and one that does not only asks its peers for a pre-vote, which
    // members that hear a leader refuse.
    RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(p, millis(min(electionMin, FIRST_ELECTION_MIN)));
    RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(p, millis(min(electionMax, FIRST_ELECTION_MAX)));
    // A leader that lost its majority steps down and then stands for no election for this long
    // (Ratis: 10 s). When the leader that replaced it dies soon after, and it alone holds the
    // latest entries, the group waits that long for a leader; pre-vote already keeps a member that
    // comes back from a partition from deposing a healthy leader. The same bound makes a member
    // whose JVM stood still longer than this step down as it resumes (its followers have moved on).
    RaftServerConfigKeys.LeaderElection.setLeaderStepDownWaitTime(p, millis(electionMax));
    // Reads through the log's leader are linearizable: a read index confirmed by a majority, or a
    // leader lease (shorter than the election timeout) that makes the confirmation unnecessary.
    RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
    RaftServerConfigKeys.Read.setLeaderLeaseEnabled(p, true);
    // The log is dropped where the replicas' stores are durable (flushes), not on a count of entries.
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, false);
    RaftServerConfigKeys.Snapshot.setCreationGap(p, 1); // a flush asks for a checkpoint: always record it
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
    RaftServerConfigKeys.Log.setPurgeGap(p, purgeGap);
    RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(logSegmentBytes));
    // Memory. Ratis keeps a group's log entries in memory as objects, a few hundred bytes each beside
    // the entry's own bytes, for the open log file and up to six closed ones; a put is one entry of
    // about a hundred bytes, so a busy group held some 300,000 entries, 200 MB, and members with
    // 256 MB heaps ran out of memory (a steady run's heap histograms). The member's log entry budget
    // (flushes, hence checkpoints, hence dropped log files) bounds them; smaller files (above) drop
    // sooner. The six cached files stay: with fewer, a leader whose follower is down reloaded the
    // files that follower still needs from disk again and again, and writes stalled.
    // Ratis answers a repeated client request (the same client and call id) from a cache for 60 s by
    // default, holding an entry per request. Bellows never repeats a call id to Ratis (a sending is a
    // new request; the region's table of answered calls deduplicates retries), so a short expiry
    // only bounds that memory: at thousands of writes a second, 60 s of entries are tens of MB.
    RaftServerConfigKeys.RetryCache.setExpiryTime(p, TimeDuration.valueOf(5, TimeUnit.SECONDS));
    // Ratis' commit-index entries in the log (raft.server.log.log-metadata.enabled) stay on, though
    // under writes they are about half of the log's entries and syncs: they let a member that
    // restarts apply its committed entries before a leader is elected, and without them the members
    // of a cluster restarted whole did not know their tables until meta had a leader, and answered
    // that a table did not exist (docs/bench/log/2026-11-27-cluster-efficiency.md).
    // A leader's appender that failed to reach a follower pauses before it tries again: Ratis' default
    // pauses grow to 5 s after 30 failures (1ms,10, 1s,20, 5s,1000), so a member back from an outage
    // of half a minute waited up to 5 s per group to be sent anything, and meanwhile, taking its
    // leader for gone, it stood for elections. Capped at 1 s (below the election timeout): a member
    // that is down costs each leader one failed call a second per group.
    RaftServerConfigKeys.Log.Appender.setRetryPolicy(p, "1ms,10, 100ms,10, 1s,1000000");
    // A replica behind the leader's first entry fetches a checkpoint of the region's files itself;
    // the leader does not stream a copy through the log.
    RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, false);
    return p;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static TimeDuration millis(Duration d) {
    return TimeDuration.valueOf(d.toMillis(), TimeUnit.MILLISECONDS);
  }
}
