package io.bellows.remote;

import io.bellows.cell.Cell;
import io.bellows.engine.ClusterStatus;
import io.bellows.engine.TableRef;
import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What each member of a cluster of server processes holds of a table, read on that member alone:
 * once every member reports the same applied index of the table's region (no writes running), a
 * TIMELINE scan of each member, which a follower answers from its own replica. For the tests that
 * kill members and check that every replica ends with every acknowledged write and the same cells.
 */
final class ReplicaContents {
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);

  private ReplicaContents() {}

  /**
   * Each member's cells of {@code table} ({@code row/family:qualifier} → the newest value in hex),
   * by member id, once all of {@code members} have applied the same log; the caller's writes have
   * ended.
   */
  static Map<String, Map<String, String>> read(List<ClusterMember> members, String table, RemoteOptions options)
      throws Exception {
    awaitSameAppliedIndex(members, table, options);
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    for (ClusterMember m : members) {
      try (RemoteEngine one = RemoteEngine.open(m.clientAddress, options)) {
        TableRef t = one.table(table);
        Map<String, String> cells = new TreeMap<>();
        try (RowScanner s = one.scan(t, ScanQuery.builder().consistency(Consistency.TIMELINE).build())) {
          List<Cell> row = new ArrayList<>();
          while (s.nextRow(row)) {
            for (Cell c : row) {
              cells.put(Bytes.toStringBinary(c.row()) + "/" + Bytes.toStringBinary(c.family()) + ":"
                  + Bytes.toStringBinary(c.qualifier()), HexFormat.of().formatHex(c.value()));
            }
            row.clear();
          }
        }
        out.put(m.id, cells);
      }
    }
    return out;
  }

  /** Polls the members' status until all report one applied index of the table's region, under one leader. */
  private static void awaitSameAppliedIndex(List<ClusterMember> members, String table, RemoteOptions options)
      throws Exception {
    long end = System.nanoTime() + WAIT_NANOS;
    List<ClusterStatus.Replica> seen = List.of();
    try (RemoteCluster client = RemoteCluster.open(members.stream().map(m -> m.clientAddress).toList(), options)) {
      while (System.nanoTime() < end) {
        ClusterStatus status = client.clusterStatus().orElseThrow();
        seen = status.replicasOf(table);
        if (seen.size() == members.size() && status.leaderOf(table).isPresent()
            && seen.stream().map(ClusterStatus.Replica::appliedIndex).distinct().count() == 1) {
          return;
        }
        Thread.sleep(100); // between polls of the members' status, not a wait for anything in particular
      }
    }
    throw new TimeoutException("the replicas of table " + table + " did not reach one applied index: " + seen);
  }
}
