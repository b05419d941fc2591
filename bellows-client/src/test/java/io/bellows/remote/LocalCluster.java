package io.bellows.remote;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.testing.FreePorts;
import io.bellows.util.Bytes;
import io.bellows.wire.NotLeaderRefusal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A test's cluster: {@code n} {@link ClusterMember} processes on free ports of 127.0.0.1 sharing
 * one member file (and, if asked, one test fault file, which {@link #faults} rewrites); finds the
 * member that leads a table's region.
 */
final class LocalCluster implements AutoCloseable {
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);

  final List<ClusterMember> members;
  private final Path faultFile;

  private LocalCluster(List<ClusterMember> members, Path faultFile) {
    this.members = members;
    this.faultFile = faultFile;
  }

  /** Starts {@code n} members under {@code dir}; with {@code testFaults}, each polls {@code dir/faults.txt}. */
  static LocalCluster start(Path dir, int n, boolean testFaults) throws Exception {
    StringBuilder file = new StringBuilder();
    List<String[]> ids = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      String client = "127.0.0.1:" + FreePorts.next();
      file.append("n").append(i).append(" 127.0.0.1:").append(FreePorts.next()).append(' ').append(client).append('\n');
      ids.add(new String[] {"n" + i, client});
    }
    Files.createDirectories(dir);
    Path memberFile = dir.resolve("members.txt");
    Files.writeString(memberFile, file);
    Path faults = testFaults ? dir.resolve("faults.txt") : null;
    List<ClusterMember> members = new ArrayList<>();
    for (String[] m : ids) {
      members.add(new ClusterMember(dir.resolve(m[0]), memberFile, m[0], m[1], faults));
    }
    LocalCluster cluster = new LocalCluster(members, faults);
    try {
      ClusterMember.startAll(members);
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  List<String> addresses() {
    return members.stream().map(m -> m.clientAddress).toList();
  }

  ClusterMember member(String id) {
    return members.stream().filter(m -> m.id.equals(id)).findFirst().orElseThrow();
  }

  /**
   * Replaces the test fault file's text (atomically: a member reads the old text or the new);
   * members act on it within their poll interval. Lines as {@code TestFaultFile} documents them.
   */
  void faults(String text) throws IOException {
    Objects.requireNonNull(faultFile, "this cluster was started without test faults");
    Path tmp = faultFile.resolveSibling("faults.tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, faultFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** The fault file's lines that cut {@code isolated} off from every other member. */
  String isolation(ClusterMember isolated) {
    StringBuilder b = new StringBuilder();
    for (ClusterMember m : members) {
      if (m != isolated) {
        b.append("cut ").append(isolated.id).append(' ').append(m.id).append('\n');
      }
    }
    return b.toString();
  }

  /**
   * The member that leads the table's region: the one that answers a read while every other
   * member refuses it naming that member's client address (asked until they agree: an election
   * or a member catching up makes them differ for a while).
   */
  ClusterMember leaderOf(String table) throws Exception {
    return leaderOf(table, "any");
  }

  /** As {@link #leaderOf(String)}, of the table's region holding {@code row} (a table of several regions). */
  ClusterMember leaderOf(String table, String row) throws Exception {
    long end = System.nanoTime() + WAIT_NANOS;
    RemoteOptions once = RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(5))
        .withRetries(1, Duration.ofMillis(10), Duration.ofMillis(10));
    while (System.nanoTime() < end) {
      ClusterMember leader = null;
      List<String> named = new ArrayList<>();
      for (ClusterMember m : members) {
        try (Bellows one = RemoteEngine.connect(m.clientAddress, once)) {
          one.getTable(table).get(new Get(Bytes.of(row)));
          leader = m;
        } catch (NotLeaderRefusal e) {
          named.add(e.leaderAddress());
        } catch (RuntimeException e) {
          named.add(null); // not reachable now: ask again
        }
      }
      if (leader != null && named.size() == members.size() - 1) {
        String address = leader.clientAddress;
        if (named.stream().allMatch(address::equals)) {
          return leader;
        }
      }
      Thread.sleep(50); // between polls of the members, not a wait for anything in particular
    }
    throw new TimeoutException("no member leads table " + table + " in the eyes of all the others");
  }


  /** Resumes paused members and stops every member (SIGTERM to all, then the wait). */
  @Override
  public void close() throws Exception {
    ClusterMember.stopAll(members);
  }
}
