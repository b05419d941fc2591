package io.bellows.cluster.server;

import io.bellows.cluster.LogApplier;
import io.bellows.cluster.LogPosition;
import io.bellows.schema.TableDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The cluster's catalog, the state machine of the meta group (a Raft group over every member):
 * tables, each with its one region's Raft group id and sequence base. An entry creates a table;
 * every member applies it in log order, giving the table the next id and opening its replica of the
 * region ({@code opener}, on the apply thread, so a later entry's effects follow it). A
 * "member joined" entry changes nothing ({@link #memberJoined}).
 *
 * <p>The catalog is kept in memory and rebuilt at a restart by replaying the meta log from its
 * start: meta is never checkpointed (it is small: a few entries per table), which a later step that
 * drops, alters and splits tables must change (a snapshot of the catalog).
 */
final class MetaCatalog implements LogApplier {
  /** A table of the cluster: its id (in creation order, never reused), descriptor and region. */
  record TableEntry(int id, TableDescriptor descriptor, UUID group, long base) {}

  static final String EXISTS = "exists";
  static final String JOINED = "joined";

  private final Map<String, TableEntry> tables = new LinkedHashMap<>();
  private final Consumer<TableEntry> opener;

  MetaCatalog(Consumer<TableEntry> opener) {
    this.opener = opener;
  }

  /** The entry that creates {@code descriptor} with its region in group {@code group} from sequence id {@code base}. */
  static byte[] createTable(TableDescriptor descriptor, UUID group, long base) {
    return ("create-table\t" + group + "\t" + base + "\n" + TableText.encode(descriptor)).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entry a member appends (through meta's leader) when it starts without a replica of meta: on
   * a cluster's first start, or after it lost its data directory. It changes nothing; it is there
   * because meta's leader sends its log only to a follower it believes behind, and after a disk loss
   * it believes the follower still holds what it acknowledged before (Raft's followers never lose
   * what they acknowledged; Ratis keeps their match index). A new entry makes the leader send it,
   * the empty follower refuses it, and that refusal of an entry, unlike a heartbeat's, moves the
   * leader back to the log's start; unless the refusals have already paused the leader's appender
   * for the member, which then sends heartbeats only, and the member asks the leader to hand its
   * leadership to another member
   * (RaftNode; docs/design/cluster.md, "A member that lost its disk").
   */
  static byte[] memberJoined(String member) {
    return ("member-joined\t" + member + "\n").getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public byte[] apply(LogPosition at, byte[] entry) {
    String text = new String(entry, StandardCharsets.UTF_8);
    int nl = text.indexOf('\n');
    String[] head = text.substring(0, nl).split("\t");
    if (head[0].equals("member-joined")) {
      return JOINED.getBytes(StandardCharsets.UTF_8);
    }
    if (!head[0].equals("create-table")) {
      throw new IllegalStateException("unknown meta entry at " + at + ": " + head[0]);
    }
    TableDescriptor d = TableText.decode(text.substring(nl + 1));
    TableEntry t;
    synchronized (this) {
      if (tables.containsKey(d.name())) {
        return EXISTS.getBytes(StandardCharsets.UTF_8);
      }
      t = new TableEntry(tables.size() + 1, d, UUID.fromString(head[1]), Long.parseLong(head[2]));
      tables.put(d.name(), t);
    }
    opener.accept(t);
    return Integer.toString(t.id()).getBytes(StandardCharsets.UTF_8);
  }

  synchronized TableEntry table(String name) {
    return tables.get(name);
  }

  synchronized List<TableEntry> tables() {
    return new ArrayList<>(tables.values());
  }

  /** Reads are answered from the applied catalog by the callers; a read through the log only waits for it. */
  @Override
  public byte[] query(byte[] request) {
    return new byte[0];
  }
}
