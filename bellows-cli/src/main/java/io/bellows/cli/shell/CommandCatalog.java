package io.bellows.cli.shell;

import java.util.List;

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
      new Entry("create", "ddl", "create 't', 'f1' | {NAME => 'f1', KNOB => value, ...} [, ...] [, {TABLE_KNOB => value}]",
          "Creates a table with the given column families. A family is a name or a hash with NAME and any\n"
              + "family setting (VERSIONS, MIN_VERSIONS, TTL, BLOCKSIZE, COMPRESSION, BLOOMFILTER,\n"
              + "IN_MEMORY_COMPACTION, ...). A hash without NAME, or trailing KEY => value pairs, set table\n"
              + "settings (DURABILITY, MEMSTORE_FLUSHSIZE).",
          "  create 't1', 'f1', {NAME => 'f2', VERSIONS => 3}\n"
              + "  create 't2', {NAME => 'f', IN_MEMORY_COMPACTION => 'ADAPTIVE'}, {DURABILITY => 'FSYNC_WAL'}\n"
              + "  create 't3', 'f', DURABILITY => 'ASYNC_WAL'"),
      new Entry("describe", "ddl", "describe 't'", "Prints the table's state and settings and each family's settings.", ""),
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
      new Entry("scan", "dml", "scan 't' [, {STARTROW => 'a', STOPROW => 'b', ROWPREFIXFILTER => 'p', LIMIT => n, COLUMNS => [...], VERSIONS => n, TIMERANGE => [a, b]}]",
          "Prints the cells of the rows in [STARTROW, STOPROW) in key order. REVERSED scans and filters are\n"
              + "not supported.",
          "  scan 't1'\n  scan 't1', {STARTROW => 'r1', STOPROW => 'r5', LIMIT => 10, COLUMNS => ['f1:q']}"),
      new Entry("delete", "dml", "delete 't', 'row', 'f:q' [, timestamp]",
          "Deletes the newest version of the column, or with a timestamp exactly that version.", ""),
      new Entry("deleteall", "dml", "deleteall 't', 'row' [, 'f:q' | 'f'] [, timestamp]",
          "Deletes every version of the whole row, of a family or of a column (up to the timestamp if given).",
          "  deleteall 't1', 'r1'\n  deleteall 't1', 'r1', 'f1'\n  deleteall 't1', 'r1', 'f1:q', 1700000000000"),
      new Entry("incr", "dml", "incr 't', 'row', 'f:q' [, amount]",
          "Adds the amount (default 1) to a counter column (an 8-byte big-endian long) and prints the new value.", ""),
      new Entry("get_counter", "dml", "get_counter 't', 'row', 'f:q'", "Prints the value of a counter column.", ""),
      new Entry("count", "dml", "count 't' [, {INTERVAL => n}]",
          "Counts the rows of the table, printing the count every INTERVAL (default 1000) rows.", ""),
      new Entry("flush", "tools", "flush 't'", "Writes the table's memory stores to disk and waits.", ""),
      new Entry("compact", "tools", "compact 't'", "Runs a minor compaction of each store of the table if its policy picks files.", ""),
      new Entry("major_compact", "tools", "major_compact 't'",
          "Compacts all files of each store into one, dropping deleted, expired and surplus data.", ""),
      new Entry("stats", "tools", "stats ['t']", "Prints the engine's metrics, or with a table name its stores' metrics.", ""),
      new Entry("help", "general", "help ['command']", "Lists the commands, or explains one.", ""),
      new Entry("exit", "general", "exit | quit", "Leaves the shell and closes the engine.", ""));

  public static List<Entry> entries() {
    return ENTRIES;
  }

  /** The entry of a command name ({@code quit} is {@code exit}), or null. */
  public static Entry find(String name) {
    String n = "quit".equals(name) ? "exit" : name;
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
