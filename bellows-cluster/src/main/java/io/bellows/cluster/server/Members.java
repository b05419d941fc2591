package io.bellows.cluster.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A cluster's member file: one line {@code id host:raftPort host:clientPort} per server ({@code #}
 * starts a comment), 3 to 5 members, every id and address distinct. The members the cluster was
 * first started with have three fields; a member added to the running cluster later (the shell's
 * {@code add_server}) has a fourth, {@code added}, so that every member, the added one too, tells
 * the founding members (meta's first group, and the peers of the first builds' tables) from it.
 * Every server reads the same file; one that lacks a member added since learns it from meta.
 */
public record Members(List<Member> list) {
  public static final int MIN = 3;
  public static final int MAX = 5;

  /** The fourth field of a member added to the running cluster. */
  public static final String ADDED = "added";

  /**
   * One server: its id, the address of its Raft port and of its client (gRPC) port, and whether it
   * was added to the running cluster (else it is a founding member).
   */
  public record Member(String id, String raftAddress, String clientAddress, boolean added) {
    /** A founding member. */
    public Member(String id, String raftAddress, String clientAddress) {
      this(id, raftAddress, clientAddress, false);
    }

    /**
     * Member {@code id} at these addresses, checked as the file's lines are: {@link
     * IllegalArgumentException} saying what is wrong ({@code where} starts the message).
     */
    public static Member checked(String where, String id, String raftAddress, String clientAddress, boolean added) {
      if (id == null || !id.matches("[A-Za-z0-9_-]+")) {
        throw new IllegalArgumentException(where + "a member id is letters, digits, '-' and '_': '" + id + "'");
      }
      checkAddress(where, raftAddress);
      checkAddress(where, clientAddress);
      if (raftAddress.equals(clientAddress)) {
        throw new IllegalArgumentException(where + "the Raft and client ports are one address: " + raftAddress);
      }
      return new Member(id, raftAddress, clientAddress, added);
    }

    public int clientPort() {
      return Integer.parseInt(clientAddress.substring(clientAddress.lastIndexOf(':') + 1));
    }

    public String raftHost() {
      return raftAddress.substring(0, raftAddress.lastIndexOf(':'));
    }

    public int raftPort() {
      return Integer.parseInt(raftAddress.substring(raftAddress.lastIndexOf(':') + 1));
    }
  }

  public Members {
    list = List.copyOf(list);
  }

  public static Members read(Path file) throws IOException {
    return parse(Files.readString(file), file.toString());
  }

  /** Parses a member file's text; bad input throws {@link IllegalArgumentException} naming the line. */
  public static Members parse(String text, String source) {
    List<Member> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\\s+");
      String where = source + " line " + (i + 1) + ": ";
      if (f.length != 3 && !(f.length == 4 && f[3].equals(ADDED))) {
        throw new IllegalArgumentException(where + "expected 'id host:raftPort host:clientPort' (and '" + ADDED
            + "' for a member added to the running cluster), got '" + line + "'");
      }
      Member m = Member.checked(where, f[0], f[1], f[2], f.length == 4);
      for (String key : List.of("id " + f[0], "address " + f[1], "address " + f[2])) {
        if (!seen.add(key)) {
          throw new IllegalArgumentException(where + "the " + key + " appears twice");
        }
      }
      out.add(m);
    }
    if (out.size() < MIN || out.size() > MAX) {
      throw new IllegalArgumentException(source + ": a cluster has " + MIN + " to " + MAX + " members, this file lists "
          + out.size());
    }
    long founding = out.stream().filter(m -> !m.added()).count();
    if (founding < MIN) {
      throw new IllegalArgumentException(source + ": a cluster starts with at least " + MIN
          + " members (the lines without '" + ADDED + "'), this file lists " + founding);
    }
    return new Members(out);
  }

  private static void checkAddress(String where, String address) {
    int colon = address.lastIndexOf(':');
    int port;
    try {
      port = colon <= 0 ? -1 : Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(where + "'" + address + "' is not host:port (port 1 to 65535)");
    }
  }

  /** The member {@code id}, or an {@link IllegalArgumentException} naming the ids there are. */
  public Member member(String id) {
    return list.stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow(() -> new IllegalArgumentException(
        "no member '" + id + "' in the member file (members: " + list.stream().map(Member::id).toList() + ")"));
  }

  /** The founding members' ids, in the file's order: those without {@code added}. */
  public List<String> foundingIds() {
    return list.stream().filter(m -> !m.added()).map(Member::id).toList();
  }

  /** These members and {@code m}, which has an id and addresses of its own (unchecked). */
  public Members with(Member m) {
    List<Member> more = new ArrayList<>(list);
    more.add(m);
    return new Members(more);
  }

  /** The client address of the member {@code id}, or null if there is none (or {@code id} is null). */
  public String clientAddressOf(String id) {
    return id == null ? null : list.stream().filter(m -> m.id().equals(id)).map(Member::clientAddress).findFirst()
        .orElse(null);
  }

  /** The file's text: what {@link #parse} reads. */
  public String text() {
    StringBuilder sb = new StringBuilder();
    for (Member m : list) {
      sb.append(m.id()).append(' ').append(m.raftAddress()).append(' ').append(m.clientAddress())
          .append(m.added() ? " " + ADDED : "").append('\n');
    }
    return sb.toString();
  }
}
