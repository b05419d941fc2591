package io.bellows.engine;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Who leads what in a replicated cluster (docs/design/cluster.md), as its members report it: the
 * members of the member file, whether each answered, and each answering member's replicas of the
 * meta group and of every table's region, with the role Raft gives the replica, the leader it
 * knows, its term and the index of the last log entry it applied. One member knows only its own
 * replicas; a client of the cluster puts the reports of every member it reaches together.
 *
 * @param members every member of the member file, in its order
 * @param replicas the replicas of the members that reported, each one's meta replica first, then its tables'
 */
public record ClusterStatus(List<Member> members, List<Replica> replicas) {
  public ClusterStatus {
    members = List.copyOf(members);
    replicas = List.copyOf(replicas);
  }

  /**
   * A member: its id and client address (host:port), and whether its replicas are in this status
   * (false: it did not answer, so it is down or cannot be reached, or it was not asked).
   */
  public record Member(String id, String address, boolean reported) {}

  /**
   * One member's replica of a group.
   *
   * @param table the table whose region it is; null for the meta group (the catalog)
   * @param regionId the region's id (0 for meta)
   * @param member the id of the member holding it
   * @param role Raft's role of the replica: LEADER, FOLLOWER, CANDIDATE (an election), or another of Ratis' roles
   * @param leader the id of the leader this replica knows, or null (an election)
   * @param term its current term
   * @param appliedIndex the index of the last log entry it applied
   * @param storeFileBytes bytes of its sorted files (0 for meta)
   * @param storeFiles its sorted files
   * @param memStoreBytes bytes of data in its memory stores
   */
  public record Replica(String table, int regionId, String member, String role, String leader, long term,
      long appliedIndex, long storeFileBytes, int storeFiles, long memStoreBytes) {
    public boolean isMeta() {
      return table == null;
    }

    public boolean leads() {
      return "LEADER".equals(role);
    }
  }

  /**
   * The replicas of a table's regions ({@code null}: meta's) by region id, each region's leader
   * first, then by member.
   */
  public List<Replica> replicasOf(String table) {
    return replicas.stream().filter(r -> table == null ? r.isMeta() : table.equals(r.table()))
        .sorted(Comparator.comparingInt(Replica::regionId)
            .thenComparing((Replica r) -> leaderOf(r.table(), r.regionId()).map(l -> l != r).orElse(true))
            .thenComparing(Replica::member))
        .toList();
  }

  /**
   * The replica that leads region {@code regionId} of a table ({@code null}: meta), if one reported
   * leading: the one of the highest term when two did.
   */
  public Optional<Replica> leaderOf(String table, int regionId) {
    return replicas.stream().filter(r -> (table == null ? r.isMeta() : table.equals(r.table()))
        && r.regionId() == regionId && r.leads()).max(Comparator.comparingLong(Replica::term));
  }

  /**
   * The replica that leads a table's region ({@code null}: meta), if one reported leading: the
   * one of the highest term when two did (an old leader that has not heard of the election). For a
   * table of several regions, one of their leaders ({@link #leaderOf(String, int)} names each).
   */
  public Optional<Replica> leaderOf(String table) {
    return replicas.stream().filter(r -> (table == null ? r.isMeta() : table.equals(r.table())) && r.leads())
        .max(Comparator.comparingLong(Replica::term));
  }

  /**
   * How many log entries a replica has applied fewer than its region's leader, as they reported
   * (each at its own moment, so about); empty when no leader of its region reported.
   */
  public Optional<Long> lag(Replica r) {
    return leaderOf(r.table(), r.regionId()).map(l -> Math.max(0, l.appliedIndex() - r.appliedIndex()));
  }

  /** A member by id, if it is one. */
  public Optional<Member> member(String id) {
    return members.stream().filter(m -> m.id().equals(id)).findFirst();
  }
}
