package io.bellows.cli.shell;

import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The shell's commands with their usage and help text. Immutable. */
public final class CommandCatalog {
  private CommandCatalog() {}

  /** One command: its name, group, usage line and the longer explanation with examples. */
  public record Entry(String name, String group, String usage, String summary, String examples) {
    public String details() {
      return usage + "\n\n" + summary + (examples.isEmpty() ? "" : "\n\nExamples:\n" + examples);
    }
  }

  private static final List<Entry> ENTRIES = List.of(
      new Entry("create", "ddl", "create 't', 'f1' | {NAME => 'f1', KNOB => value, ...} [, ...] [, {TABLE_KNOB => value}]"
          + " [, SPLITS => ['k1', ...] | {NUMREGIONS => n, SPLITALGO => 'HexStringSplit' | 'UniformSplit'}]",
          "Creates a table with the given column families. A family is a name or a hash with NAME and any\n"
              + "family setting:\n" + knobNames(Knob.Scope.FAMILY) + "\n"
              + "A hash without NAME, or trailing KEY => value pairs, set table settings:\n"
              + knobNames(Knob.Scope.TABLE) + "\n"
              + "Sizes (BLOCKSIZE, MIN_BLOCKSIZE, MEMSTORE_FLUSHSIZE) take K, M, G suffixes; TTL is in seconds or 'FOREVER'.\n"
              + "Pre-splitting into regions by row key: SPLITS => ['k1', 'k2', ...] (sorted, distinct, non-empty)\n"
              + "makes regions [, k1), [k1, k2), ..., [kn, ); NUMREGIONS => n with SPLITALGO => 'HexStringSplit'\n"
              + "(rows are 8 hex digits: 00000000..ffffffff cut evenly) or 'UniformSplit' (raw bytes: the\n"
              + "8-byte space cut evenly) makes n regions, as in HBase. Without them a table has one region.",
          "  create 't1', 'f1', {NAME => 'f2', VERSIONS => 3}\n"
              + "  create 't2', {NAME => 'f', IN_MEMORY_COMPACTION => 'ADAPTIVE'}, {DURABILITY => 'FSYNC_WAL'}\n"
              + "  create 't3', 'f', DURABILITY => 'ASYNC_WAL'\n"
              + "  create 't4', 'f', SPLITS => ['g', 'n', 't']\n"
              + "  create 't5', 'f', {NUMREGIONS => 8, SPLITALGO => 'HexStringSplit'}"),
      new Entry("alter", "ddl", "alter 't', 'f' | {NAME => 'f', KNOB => value, ...} | {NAME => 'f', METHOD => 'delete'}"
          + " | 'delete' => 'f' | {TABLE_KNOB => value} [, ...]",
          "Changes a table online: each region is flushed and reopened under the new settings while its\n"
              + "writes wait; reads go on. Every change of one alter is made at once (all or none):\n"
              + "  'g' or {NAME => 'g'}          adds family g (with default settings; a bare name must be new)\n"
              + "  {NAME => 'f', KNOB => value}  changes those settings of f (the others stay), or adds f with them\n"
              + "  'delete' => 'f' or {NAME => 'f', METHOD => 'delete'}  deletes f and its data\n"
              + "  {KNOB => value} or trailing KNOB => value pairs, optionally with METHOD => 'table_att': table settings\n"
              + "Family settings:\n" + knobNames(Knob.Scope.FAMILY) + "\n"
              + "Table settings:\n" + knobNames(Knob.Scope.TABLE) + "\n"
              + "VERSIONS and TTL apply to reads at once; block size and compression to later flushes and\n"
              + "compactions. Prints HBase's 'Updating all regions with the new schema...', 'N/N regions updated.'\n"
              + "and 'Done.'. A deleted family's data does not come back, not even with a new family of its name.",
          "  alter 't1', {NAME => 'f1', VERSIONS => 5}\n"
              + "  alter 't1', 'f2'\n"
              + "  alter 't1', 'delete' => 'f2'\n"
              + "  alter 't1', {NAME => 'f1', TTL => 86400}, {NAME => 'f3', METHOD => 'delete'}\n"
              + "  alter 't1', DURABILITY => 'FSYNC_WAL'"),
      new Entry("describe", "ddl", "describe 't'",
          "Prints the table's state and settings, each family's settings and its regions (id, key range).", ""),
      new Entry("list_regions", "ddl", "list_regions 't'",
          "Prints the table's regions in key order: id, start and end key (empty: unbounded), SIZE (bytes of\n"
              + "its sorted files), STOREFILES (their number) and MEMSTORE_SIZE (bytes of data in memory).\n"
              + "Over a cluster: a line per replica, the leader's first, with SERVER_NAME (member id and\n"
              + "address), ROLE (LEADER, FOLLOWER, CANDIDATE), TERM, APPLIED_INDEX, LAG (log entries behind the\n"
              + "leader) and the replica's sizes; members that did not answer are named after the table.",
          "  list_regions 't1'"),
      new Entry("get_splits", "ddl", "get_splits 't'",
          "Prints 'Total number of splits = N' (N: the table's regions) and then each split key, the start\n"
              + "key of every region but the first, in key order.",
          "  get_splits 't1'"),
      new Entry("list", "ddl", "list ['regex']", "Lists the tables, all or those whose whole name matches the regular expression.",
          "  list\n  list 'ab.*'"),
      new Entry("exists", "ddl", "exists 't'", "Says whether the table exists.", ""),
      new Entry("disable", "ddl", "disable 't'", "Disables the table: it can then be dropped, but not read or written.", ""),
      new Entry("enable", "ddl", "enable 't'", "Enables a disabled table.", ""),
      new Entry("is_enabled", "ddl", "is_enabled 't'", "Prints true if the table is enabled.", ""),
      new Entry("is_disabled", "ddl", "is_disabled 't'", "Prints true if the table is disabled.", ""),
      new Entry("drop", "ddl", "drop 't'", "Drops a disabled table and deletes its data.", ""),
      new Entry("truncate", "ddl", "truncate 't'", "Disables, drops and re-creates the table with the same settings.", ""),
      new Entry("put", "dml", "put 't', 'row', 'f:q', 'value' [, timestamp]",
          "Writes one cell. Without a timestamp the engine uses the current time.",
          "  put 't1', 'r1', 'f1:q', 'v'\n  put 't1', \"r\\x00\\x01\", 'f1:q', \"\\xFF\", 1700000000000"),
      new Entry("get", "dml", "get 't', 'row' [, 'f:q' ... | ['f:q', ...] | {COLUMN => ..., VERSIONS => n, TIMESTAMP => ts, TIMERANGE => [a, b]}]",
          "Prints the cells of one row. COLUMN (or COLUMNS) takes 'f' (whole family), 'f:q' or an array of them;\n"
              + "TIMERANGE is [min, max) in milliseconds.",
          "  get 't1', 'r1'\n  get 't1', 'r1', 'f1:q'\n  get 't1', 'r1', {COLUMN => ['f1:a', 'f2'], VERSIONS => 3}"),
      new Entry("scan", "dml", "scan 't' [, {STARTROW => 'a', STOPROW => 'b', ROWPREFIXFILTER => 'p', LIMIT => n, COLUMNS => [...], VERSIONS => n,"
          + " TIMESTAMP => ts, TIMERANGE => [a, b], FILTER => \"...\", REVERSED => true}]",
          "Prints the cells of the rows in [STARTROW, STOPROW) in key order, at most LIMIT rows.\n"
              + "COLUMNS (or COLUMN) takes 'f' (whole family), 'f:q' or an array of them; TIMESTAMP keeps the\n"
              + "versions written at exactly that time, TIMERANGE those in [min, max) in milliseconds.\n"
              + "REVERSED => true walks the rows in descending order: STARTROW is then the higher row, STOPROW the lower.\n"
              + "FILTER takes a string in HBase's filter language: Name(args) joined by AND, OR and parentheses;\n"
              + "arguments are 'quoted' ('' is a quote), integers, true/false, the operators = != < <= > >= and\n"
              + "comparators 'binary:x', 'binaryprefix:x', 'regexstring:x', 'substring:x' (the last two with = or !=).\n"
              + "Filters: " + FilterParser.SUPPORTED + ".\n"
              + "SKIP, WHILE and HBase's other filters are not supported, nor Java filter objects (no JRuby).",
          "  scan 't1'\n  scan 't1', {STARTROW => 'r1', STOPROW => 'r5', LIMIT => 10, COLUMNS => ['f1:q']}\n"
              + "  scan 't1', {FILTER => \"PrefixFilter('r1') AND ValueFilter(=, 'substring:abc')\"}\n"
              + "  scan 't1', {FILTER => \"SingleColumnValueFilter('f1', 'q', >=, 'binary:5', true, true)\"}\n"
              + "  scan 't1', {REVERSED => true, STARTROW => 'r5', STOPROW => 'r1'}"),
      new Entry("delete", "dml", "delete 't', 'row', 'f:q' [, timestamp]",
          "Deletes the newest version of the column, or with a timestamp exactly that version.", ""),
      new Entry("deleteall", "dml", "deleteall 't', 'row' [, 'f:q' | 'f'] [, timestamp]",
          "Deletes every version of the whole row, of a family or of a column (up to the timestamp if given).",
          "  deleteall 't1', 'r1'\n  deleteall 't1', 'r1', 'f1'\n  deleteall 't1', 'r1', 'f1:q', 1700000000000"),
      new Entry("incr", "dml", "incr 't', 'row', 'f:q' [, amount]",
          "Adds the amount (default 1) to a counter column (an 8-byte big-endian long) and prints the new value.", ""),
      new Entry("get_counter", "dml", "get_counter 't', 'row', 'f:q'", "Prints the value of a counter column.", ""),
      new Entry("count", "dml", "count 't' [, {INTERVAL => n, CACHE => n, FILTER => \"...\"}]",
          "Counts the rows of the table, printing 'Current count: N, row: R' every INTERVAL (default 1000)\n"
              + "rows. CACHE (rows per round trip in HBase) is checked and accepted for HBase scripts; Bellows'\n"
              + "scanners stream rows, so it changes nothing. FILTER counts only the rows it keeps (see help 'scan').",
          "  count 't1'\n  count 't1', {INTERVAL => 100000, CACHE => 1000}\n  count 't1', FILTER => \"PrefixFilter('r')\""),
      new Entry("append", "dml", "append 't', 'row', 'f:q', 'value'",
          "Appends the value to the column's newest value (an absent column counts as empty), atomically,\n"
              + "and prints the new value as CURRENT VALUE = ....",
          "  append 't1', 'r1', 'f1:q', '-tail'"),
      new Entry("snapshot", "snapshots", "snapshot 't', 'name' [, {SKIP_FLUSH => true}]",
          "Takes a snapshot of the table, online: the table is flushed (unless SKIP_FLUSH => true: then what is\n"
              + "only in memory is left out) and its files are hard-linked with its settings, so the snapshot is the\n"
              + "table at one point of its history and costs no space until compactions rewrite the table. Names:\n"
              + "letters, digits, '_', '-' and '.' (not first). `bellows snapshot export` copies one out for a backup.",
          "  snapshot 't1', 't1-2026-11-26'\n  snapshot 't1', 'quick', {SKIP_FLUSH => true}"),
      new Entry("list_snapshots", "snapshots", "list_snapshots ['regex']",
          "Lists the snapshots, all or those whose whole name matches the regular expression: SNAPSHOT and\n"
              + "TABLE + CREATION TIME (the table it was taken of, and when, in UTC).",
          "  list_snapshots\n  list_snapshots 't1-.*'"),
      new Entry("delete_snapshot", "snapshots", "delete_snapshot 'name'",
          "Deletes a snapshot; the tables are not touched.", "  delete_snapshot 't1-2026-11-26'"),
      new Entry("clone_snapshot", "snapshots", "clone_snapshot 'name', 'table'",
          "Creates a new, enabled table of the snapshot (its settings, regions and data), without copying\n"
              + "data; writes to the new table do not change the snapshot. The table must not exist.",
          "  clone_snapshot 't1-2026-11-26', 't1_copy'"),
      new Entry("restore_snapshot", "snapshots", "restore_snapshot 'name'",
          "Brings the table the snapshot was taken of back to the snapshot: its settings, regions and data.\n"
              + "As in HBase the table must be disabled first; it stays disabled. A dropped table is created again.",
          "  disable 't1'\n  restore_snapshot 't1-2026-11-26'\n  enable 't1'"),
      new Entry("flush", "tools", "flush 't'", "Writes the table's memory stores to disk and waits.", ""),
      new Entry("compact", "tools", "compact 't'", "Runs a minor compaction of each store of the table if its policy picks files.", ""),
      new Entry("major_compact", "tools", "major_compact 't'",
          "Compacts all files of each store into one, dropping deleted, expired and surplus data.", ""),
      new Entry("split", "tools", "split 't' [, 'key']",
          "Splits a region of the table in two, online. With a key: the region holding it, at it (the key\n"
              + "must lie strictly inside a region). Without: the region with the most data on disk, at the\n"
              + "first row of the middle block of its largest file (flush first to count data in memory).",
          "  split 't1'\n  split 't1', 'm'"),
      new Entry("bulk_load", "tools", "bulk_load 't', 'DIR'",
          "Loads sorted files built elsewhere (BulkFileWriter) into the table, atomically: DIR holds one\n"
              + "directory per column family, named after it, with that family's files (names starting with '.' or\n"
              + "'_' are skipped). Every file is checked whole first: a damaged or unsorted file, or one of another\n"
              + "family, loads nothing and is named. A file spanning regions is split among them; the loaded cells\n"
              + "are newer than every earlier write and older than every later one. The files are not changed.\n"
              + "Over --connect, DIR's files are read by the server, from its own disk. Also: bellows bulk-load.",
          "  bulk_load 't1', '/data/load'"),
      new Entry("background_error", "tools", "background_error",
          "Prints the failing flush, compaction or WAL write (or damaged file) that matters most: whether writes are stopped,\n"
              + "since when, how many attempts, and why; or that there is none.", ""),
      new Entry("resume", "tools", "resume",
          "Retries failing flushes and compactions now (after freeing space or fixing permissions); writes\n"
              + "are accepted again if they work. A WAL failure needs the engine closed and opened again.", ""),
      new Entry("balancer", "tools", "balancer",
          "Over a cluster: runs a leader-balancing pass now, on the member leading meta (it also runs every\n"
              + "cluster.balance.interval.ms): the members that lead the most regions hand leaderships over to live\n"
              + "members of the same regions that lead at least two fewer, at most 8 a pass; prints how many moved.\n"
              + "Elsewhere there is nothing to balance.", ""),
      new Entry("move", "tools", "move 'REGION_ID' [, 'SERVER']",
          "Over a cluster: hands the leadership of the region to member SERVER (Raft's leadership transfer: the\n"
              + "member stands once it holds the leader's whole log; the region's writes pause for about an election),\n"
              + "or without SERVER to the member of its replicas that leads fewest regions. REGION_ID is what\n"
              + "list_regions prints (Bellows' regions have no HBase encoded name); SERVER a member's id, its\n"
              + "host:port, list_regions' SERVER_NAME or HBase's 'host,port,startcode'. A SERVER that holds no\n"
              + "replica of the region (more members than cluster.replication) gets one first: seeded from a\n"
              + "checkpoint, then the region's Raft group changes members. Prints who led and who leads now.\n"
              + "Elsewhere refused: a single server leads every region itself.",
          "  move '2', 'm3'\n  move '2'"),
      new Entry("add_server", "tools", "add_server 'ID', 'HOST:RAFTPORT', 'HOST:CLIENTPORT'",
          "Over a cluster: adds member ID, its Raft port at HOST:RAFTPORT and its client port at HOST:CLIENTPORT\n"
              + "(Bellows' own). Meta records it, every member learns its addresses, and meta's leader adds it to\n"
              + "meta's group once it answers (start it with a member file that lists it, marked 'added');\n"
              + "returns once it is a member of meta, which may take a minute while it catches up. New regions may\n"
              + "then be placed on it and move puts replicas there. Refused for an id or address the cluster has,\n"
              + "a cluster at its most members, bad addresses, and on a single server.",
          "  add_server 'n4', '10.0.0.4:9870', '10.0.0.4:7070'"),
      new Entry("decommission_regionservers", "tools", "decommission_regionservers 'SERVER' | ['S1', 'S2']",
          "Over a cluster: decommissions members (named as move takes them): no new replica goes on them, and\n"
              + "meta's leader moves their replicas to the other members in the background, a few at a time\n"
              + "(list_regions shows where each region's replicas are). Refused when fewer members than a region's\n"
              + "replicas would be left.",
          "  decommission_regionservers 'm4'"),
      new Entry("recommission_regionserver", "tools", "recommission_regionserver 'SERVER'",
          "Over a cluster: takes a decommissioned member back: new replicas may go on it again (none moves back\n"
              + "by itself).",
          "  recommission_regionserver 'm4'"),
      new Entry("list_decommissioned_regionservers", "tools", "list_decommissioned_regionservers",
          "Over a cluster: the decommissioned members, one per line (id and client address).",
          "  list_decommissioned_regionservers"),
      new Entry("verify", "tools", "verify",
          "Checks every block of every sorted file, each store's manifest and the closed WAL files, online;\n"
              + "prints each damage with its file and offset (bellows repair, offline, fixes them).", ""),
      new Entry("stats", "tools", "stats ['t']", "Prints the engine's metrics, or with a table name its stores' metrics.", ""),
      new Entry("status", "general", "status ['summary' | 'simple']",
          "Prints HBase's summary line for this one engine (1 active master, 1 server, 0 dead, the average\n"
              + "load being its online regions), then numberOfTables, numberOfOnlineRegions (of enabled tables),\n"
              + "numberOfStorefiles, storefileSizeBytes, memstoreSizeBytes, memstoreLimitBytes and usedHeapBytes,\n"
              + "and the background error or none. Over --connect: the server's numbers.\n"
              + "Over a cluster (--connect a,b,c): the active master is the member leading the meta group, the\n"
              + "backup masters the other members that answered, dead the members that did not; the average load\n"
              + "is table replicas per live server; the numbers are each table's leader's; then meta's leader.\n"
              + "'simple' (a cluster only) lists the masters, each live server with its replicas (meta or the\n"
              + "table, Raft's role, term, applied log index, lag behind the leader) and the dead servers.\n"
              + "HBase's 'detailed', 'replication' and 'tasks' are refused.",
          "  status\n  status 'simple'"),
      new Entry("version", "general", "version",
          "Prints Bellows' version and the Java runtime, in HBase's 'VERSION, ...' layout (the shell's own\n"
              + "version; over --connect the server's may differ).", ""),
      new Entry("whoami", "general", "whoami",
          "Prints the user the shell runs as with its authentication (SIMPLE: embedded, TOKEN or NONE: a\n"
              + "server reached with or without BELLOWS_TOKEN), then the engine used. A token's role is\n"
              + "known only to the server.", ""),
      new Entry("help", "general", "help ['command']", "Lists the commands, or explains one.", ""),
      new Entry("exit", "general", "exit | quit", "Leaves the shell and closes the engine.", ""));

  /**
   * Commands of the HBase shell that Bellows does not have: they answer "not supported" rather
   * than "Unknown command", so that a user of HBase knows the name was understood.
   */
  private static final Set<String> UNSUPPORTED = Set.of(
      // schema changes, namespaces, table copies
      "alter_async", "alter_status", "clone_table_schema", "truncate_preserve",
      "enable_all", "disable_all", "drop_all", "get_table", "show_filters",
      "create_namespace", "alter_namespace", "describe_namespace", "drop_namespace", "list_namespace",
      "list_namespace_tables",
      // snapshots
      "delete_all_snapshot", "delete_table_snapshots", "list_table_snapshots",
      // cluster administration
      "processlist", "table_help", "locate_region",
      "assign", "unassign", "merge_region", "balance_switch",
      "normalize", "close_region", "compact_rs", "compaction_state", "wal_roll", "zk_dump",
      "clear_block_cache", "set_quota", "list_quotas",
      // replication
      "add_peer", "remove_peer", "list_peers", "enable_peer", "disable_peer", "show_peer_tableCFs",
      "set_peer_tableCFs", "enable_table_replication", "disable_table_replication",
      // security and visibility labels
      "grant", "revoke", "user_permission", "add_labels", "set_auths", "get_auths", "clear_auths",
      "list_labels", "set_visibility");

  /** A command name at the start of a line: what the parser takes as one, before its arguments. */
  private static final Pattern LEADING_NAME = Pattern.compile("\\s*([a-z_][A-Za-z0-9_]*)(?=[\\s(#]|$)");

  /** The names of a scope's knobs, comma-separated in indented lines of moderate width. */
  private static String knobNames(Knob.Scope scope) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (Knob<?> k : Knobs.ALL) {
      if (k.scope() != scope) {
        continue;
      }
      if (line.length() > 0 && line.length() + k.name().length() > 90) {
        lines.add(line.append(',').toString());
        line = new StringBuilder();
      } else if (line.length() > 0) {
        line.append(", ");
      }
      line.append(k.name());
    }
    lines.add(line.toString());
    return "  " + String.join("\n  ", lines);
  }

  public static List<Entry> entries() {
    return ENTRIES;
  }

  /** Whether the name is an HBase shell command that Bellows does not support. */
  public static boolean isUnsupported(String name) {
    return UNSUPPORTED.contains(name);
  }

  /** The error for a command Bellows does not support. */
  public static ShellException unsupported(String name) {
    return new ShellException("'" + name + "' is not supported by Bellows. Type 'help' for the list of commands.");
  }

  /** Whether the line begins with the name of a command, supported or not. */
  static boolean startsCommand(String line) {
    Matcher m = LEADING_NAME.matcher(line);
    return m.lookingAt() && (find(m.group(1)) != null || isUnsupported(m.group(1)));
  }

  /** The entry of a command name ({@code quit} is {@code exit}, {@code desc} is {@code describe}), or null. */
  public static Entry find(String name) {
    String n = "quit".equals(name) ? "exit" : "desc".equals(name) ? "describe" : name;
    for (Entry e : ENTRIES) {
      if (e.name().equals(n)) {
        return e;
      }
    }
    return null;
  }

  /** The command list shown by {@code help}. */
  public static String overview() {
    StringBuilder sb = new StringBuilder("Bellows shell: HBase shell syntax. Commands by group:\n");
    String group = null;
    for (Entry e : ENTRIES) {
      if (!e.group().equals(group)) {
        group = e.group();
        sb.append("\n  Group ").append(group).append(":\n");
      }
      sb.append("    ").append(e.usage()).append('\n');
    }
    sb.append("\nStrings: 'single' (literal) or \"double\" (with \\xNN byte escapes). Type help 'command' for more.");
    return sb.toString();
  }
}
