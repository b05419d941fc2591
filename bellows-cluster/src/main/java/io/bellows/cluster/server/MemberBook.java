package io.bellows.cluster.server;

import io.bellows.cluster.RaftNode;
import java.util.Collection;
import java.util.List;

/**
 * The cluster's members as this member knows them now: the member file's, and those meta's {@code
 * add-member} entries recorded since ({@link MetaCatalog#addMember}; one the file lists too is the
 * file's). Every call that reaches another member reads it here, so that a member added while this
 * one runs is reached as the others are.
 */
final class MemberBook {
  private volatile Members members;

  MemberBook(Members file) {
    this.members = file;
  }

  Members members() {
    return members;
  }

  /** Every member's id, in the file's order and then in the order they were added. */
  List<String> ids() {
    return members.list().stream().map(Members.Member::id).toList();
  }

  /** Every member's Raft peer. */
  List<RaftNode.Peer> peers() {
    return members.list().stream().map(m -> new RaftNode.Peer(m.id(), m.raftAddress())).toList();
  }

  /** The Raft peers of the members {@code ids} this book knows, in the book's order. */
  List<RaftNode.Peer> peers(Collection<String> ids) {
    return peers().stream().filter(p -> ids.contains(p.id())).toList();
  }

  /** Adds member {@code m} unless a member of its id is known already; returns whether it was new. */
  synchronized boolean add(Members.Member m) {
    if (members.list().stream().anyMatch(k -> k.id().equals(m.id()))) {
      return false;
    }
    members = members.with(m);
    return true;
  }
}
