package io.bellows.cli.shell;

import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Query;
import io.bellows.client.Scan;
import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import io.bellows.config.Settings;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.engine.SplitKeys;
import io.bellows.filter.Filter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Turns a {@link ParsedCommand} into a runnable {@link Command}, checking every argument and building
 * the API objects (descriptors, Put, Get, Scan, Delete) with HBase shell semantics. Touches no
 * engine, so everything it decides can be tested alone. Stateless and thread-safe.
 */
public final class CommandTranslator {
  private static final String GET_OPTIONS = "COLUMN, COLUMNS, VERSIONS, TIMESTAMP, TIMERANGE";
  private static final String SCAN_OPTIONS =
      "STARTROW, STOPROW, ROWPREFIXFILTER, LIMIT, COLUMN, COLUMNS, VERSIONS, TIMESTAMP, TIMERANGE, FILTER, REVERSED";

  private CommandTranslator() {}

  /**
   * The command for a parsed statement.
   *
   * @throws UsageException for wrong arguments
   * @throws ShellException for an unknown command
   */
  public static Command translate(ParsedCommand pc) {
    String name = pc.name();
    Args a = new Args(name, pc.args());
    TableAdminCommand.Action action = TableAdminCommand.Action.forCommand(name);
    if (action != null) {
      a.arity(1, 1);
      return new TableAdminCommand(action, a.name(0, "table name"));
    }
    try {
      switch (name) {
        case "create":
          return create(a);
        case "put":
          return put(a);
        case "get":
          return get(a);
        case "scan":
          return scan(a);
        case "delete":
          return delete(a);
        case "deleteall":
          return deleteAll(a);
        case "incr":
          return incr(a);
        case "get_counter":
          return getCounter(a);
        case "count":
          return count(a);
        case "append":
          return append(a);
        case "alter":
          return alter(a);
        case "snapshot":
          return snapshot(a);
        case "list_snapshots":
          return new ListSnapshotsCommand(pattern(a, "snapshot name pattern"));
        case "delete_snapshot":
          a.arity(1, 1);
          return new DeleteSnapshotCommand(a.name(0, "snapshot name"));
        case "clone_snapshot":
          a.arity(2, 2);
          return new CloneSnapshotCommand(a.name(0, "snapshot name"), a.name(1, "table name"));
        case "restore_snapshot":
          a.arity(1, 1);
          return new RestoreSnapshotCommand(a.name(0, "snapshot name"));
        case "bulk_load":
          a.arity(2, 2);
          return new BulkLoadCommand(a.name(0, "table name"), java.nio.file.Path.of(a.name(1, "directory")));
        case "get_splits":
          a.arity(1, 1);
          return new GetSplitsCommand(a.name(0, "table name"));
        case "status":
          return status(a);
        case "version":
          a.arity(0, 0);
          return new VersionCommand();
        case "whoami":
          a.arity(0, 0);
          return new WhoamiCommand();
        case "split": {
          a.arity(1, 2);
          String table = a.name(0, "table name");
          byte[] key = a.size() == 2 ? a.string(1, "split key").bytes() : null;
          if (key != null && key.length == 0) {
            throw a.usage("the split key must not be empty");
          }
          return new SplitCommand(table, key);
        }
        case "list_regions":
          a.arity(1, 1);
          return new ListRegionsCommand(a.name(0, "table name"));
        case "describe":
        case "desc":
          a.arity(1, 1);
          return new DescribeCommand(a.name(0, "table name"));
        case "list":
          return list(a);
        case "exists":
          a.arity(1, 1);
          return new ExistsCommand(a.name(0, "table name"));
        case "background_error":
          a.arity(0, 0);
          return new BackgroundErrorCommand();
        case "resume":
          a.arity(0, 0);
          return new ResumeCommand();
        case "balancer":
          a.arity(0, 0);
          return new BalancerCommand();
        case "move":
          a.arity(1, 2);
          return new MoveCommand(a.isInteger(0) ? String.valueOf(a.integer(0, "region")) : a.name(0, "region"),
              a.size() == 2 ? a.name(1, "server name") : null);
        case "add_server":
          a.arity(3, 3);
          return new AddServerCommand(a.name(0, "server id"), a.name(1, "raft address"), a.name(2, "client address"));
        case "decommission_regionservers": {
          a.arity(1, 2); // HBase's second argument, offload, is always true here: replicas must go
          List<String> servers = new ArrayList<>();
          if (a.get(0) instanceof List<?> list) {
            for (Object o : list) {
              if (!(o instanceof ByteString b) || b.isEmpty()) {
                throw a.usage("servers must be quoted names, not " + Args.describe(o));
              }
              servers.add(b.text());
            }
          } else {
            servers.add(a.name(0, "server name"));
          }
          if (servers.isEmpty()) {
            throw a.usage("name at least one server");
          }
          return new DecommissionCommand(DecommissionCommand.Kind.DECOMMISSION, servers);
        }
        case "recommission_regionserver":
          a.arity(1, 2); // HBase's second argument, regions to load back, is not taken: balancing does that
          return new DecommissionCommand(DecommissionCommand.Kind.RECOMMISSION, List.of(a.name(0, "server name")));
        case "list_decommissioned_regionservers":
          a.arity(0, 0);
          return new DecommissionCommand(DecommissionCommand.Kind.LIST, List.of());
        case "verify":
          a.arity(0, 0);
          return new VerifyCommand();
        case "stats":
          a.arity(0, 1);
          return new StatsCommand(a.size() == 0 ? null : a.name(0, "table name"));
        case "help":
          a.arity(0, 1);
          return new HelpCommand(a.size() == 0 ? null : a.name(0, "command name"));
        case "exit":
        case "quit":
          a.arity(0, 0);
          return new ExitCommand();
        default:
          if (CommandCatalog.isUnsupported(name)) {
            throw CommandCatalog.unsupported(name);
          }
          throw new ShellException("Unknown command '" + name + "'. Type 'help' for the list of commands.");
      }
    } catch (IllegalArgumentException e) {
      // The API's own validation (names, timestamps, knob values): a usage error of this command.
      throw new UsageException(name, name + ": " + e.getMessage());
    }
  }

  // ------------------------------------------------------------------ ddl

  static CreateCommand create(Args a) {
    a.arity(2, Integer.MAX_VALUE);
    TableDescriptor.Builder table = TableDescriptor.builder(a.name(0, "table name"));
    List<byte[]> splits = List.of();
    for (int i = 1; i < a.size(); i++) {
      Object v = a.get(i);
      if (v instanceof ByteString) {
        table.family(ColumnFamilyDescriptor.of(a.name(i, "family name")));
      } else if (v instanceof Map) {
        Options o = a.hash(i, "argument " + (i + 1));
        ByteString family = o.takeString("NAME");
        if (family != null) {
          ColumnFamilyDescriptor.Builder f = ColumnFamilyDescriptor.builder(family.text());
          applyKnobs(f, o, "family '" + family.text() + "'");
          table.family(f.build());
        } else {
          List<byte[]> s = splitKeys(o);
          if (s != null) {
            if (!splits.isEmpty()) {
              throw a.usage("split keys are given twice");
            }
            splits = s;
          }
          applyKnobs(table, o, "table");
        }
      } else {
        throw a.usage("argument " + (i + 1) + " must be a family name or a hash, not " + Args.describe(v));
      }
    }
    return new CreateCommand(table.build(), splits);
  }

  /**
   * The split keys of {@code SPLITS => ['k1', ...]} or {@code NUMREGIONS => n, SPLITALGO =>
   * 'HexStringSplit' | 'UniformSplit'} (taken from the options), or null if neither is given.
   */
  private static List<byte[]> splitKeys(Options o) {
    Object splits = o.take("SPLITS");
    Long regions = o.takeLong("NUMREGIONS");
    ByteString algorithm = o.takeString("SPLITALGO");
    if (splits != null) {
      if (regions != null || algorithm != null) {
        throw o.usage("give either SPLITS or NUMREGIONS with SPLITALGO, not both");
      }
      if (!(splits instanceof List<?> list)) {
        throw o.usage("SPLITS must be an array of row keys ['k1', 'k2', ...], not " + Args.describe(splits));
      }
      List<byte[]> keys = new ArrayList<>();
      for (Object k : list) {
        if (!(k instanceof ByteString)) {
          throw o.usage("SPLITS must hold quoted row keys, not " + Args.describe(k));
        }
        keys.add(((ByteString) k).bytes());
      }
      SplitKeys.check(keys);
      return keys;
    }
    if (regions == null && algorithm == null) {
      return null;
    }
    if (regions == null || algorithm == null) {
      throw o.usage("NUMREGIONS and SPLITALGO go together: e.g. {NUMREGIONS => 8, SPLITALGO => 'HexStringSplit'}"
          + " (algorithms: " + String.join(", ", SplitKeys.ALGORITHMS) + ")");
    }
    if (regions == 1) {
      return List.of();
    }
    if (regions < 1 || regions > SplitKeys.MAX_REGIONS) {
      throw o.usage("NUMREGIONS must be 1.." + SplitKeys.MAX_REGIONS + ", not " + regions);
    }
    return SplitKeys.of(algorithm.text(), regions.intValue());
  }

  /** Sets every remaining option as the knob of that name, refusing names the scope lacks. */
  private static void applyKnobs(Settings.Builder<?> b, Options o, String what) {
    applyKnobs(b, o.rest(), what);
  }

  /** Sets each shell value as the knob of that name, refusing names the scope lacks and bad values. */
  static void applyKnobs(Settings.Builder<?> b, Map<String, Object> knobs, String what) {
    for (Map.Entry<String, Object> e : knobs.entrySet()) {
      try {
        b.set(e.getKey(), knobValue(e.getKey(), e.getValue()));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(what + ": " + ex.getMessage(), ex);
      }
    }
  }

  /** Shell values as knob input: numbers and strings as text for the knob to parse; FOREVER for TTL. */
  private static Object knobValue(String key, Object v) {
    String text;
    if (v instanceof ByteString) {
      text = ((ByteString) v).text();
    } else if (v instanceof Long || v instanceof Double || v instanceof Boolean) {
      text = String.valueOf(v);
    } else if (v instanceof Constant) {
      text = ((Constant) v).name();
    } else {
      throw new IllegalArgumentException(key + " takes a single value, not " + Args.describe(v));
    }
    Knob<?> knob = Knobs.find(Knob.Scope.FAMILY, key);
    if (knob == Knobs.TTL && text.trim().equalsIgnoreCase("FOREVER")) {
      return Long.MAX_VALUE;
    }
    return text;
  }

  private static ListCommand list(Args a) {
    return new ListCommand(pattern(a, "table name pattern"));
  }

  /** The optional regular expression of {@code list} and {@code list_snapshots} (null: none given). */
  private static Pattern pattern(Args a, String what) {
    a.arity(0, 1);
    if (a.size() == 0) {
      return null;
    }
    String regex = a.string(0, what).text();
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw a.usage("bad regular expression '" + regex + "': " + e.getDescription());
    }
  }

  /** {@code snapshot 't', 's1' [, {SKIP_FLUSH => true}]}. */
  static SnapshotCommand snapshot(Args a) {
    a.arity(2, 3);
    String table = a.name(0, "table name");
    String name = a.name(1, "snapshot name");
    boolean skipFlush = false;
    if (a.size() == 3) {
      Options o = a.hash(2, "options");
      Object skip = o.take("SKIP_FLUSH");
      if (skip != null && !(skip instanceof Boolean)) {
        throw a.usage("SKIP_FLUSH must be true or false, not " + Args.describe(skip));
      }
      o.rejectRest("SKIP_FLUSH");
      skipFlush = Boolean.TRUE.equals(skip);
    }
    return new SnapshotCommand(table, name, !skipFlush);
  }

  /**
   * {@code alter 't', change, ...}: each change a family name (add it), a hash with NAME (change or
   * add that family; with METHOD => 'delete', delete it), {@code 'delete' => 'f'}, or a hash of
   * table settings (optionally with METHOD => 'table_att'). Setting names and values are checked
   * here; whether a family exists is checked when the command runs.
   */
  static AlterCommand alter(Args a) {
    a.arity(2, Integer.MAX_VALUE);
    String table = a.name(0, "table name");
    List<AlterCommand.Change> changes = new ArrayList<>();
    for (int i = 1; i < a.size(); i++) {
      Object v = a.get(i);
      if (v instanceof ByteString) {
        changes.add(new AlterCommand.AddFamily(a.name(i, "family name")));
        continue;
      }
      if (!(v instanceof Map)) {
        throw a.usage("argument " + (i + 1) + " must be a family name or a hash, not " + Args.describe(v));
      }
      Options o = a.hash(i, "argument " + (i + 1));
      ByteString delete = o.takeString("DELETE");
      ByteString method = o.takeString("METHOD");
      ByteString family = o.takeString("NAME");
      String m = method == null ? null : method.text().toLowerCase(java.util.Locale.ROOT);
      if (delete != null) {
        if (family != null || method != null) {
          throw a.usage("give 'delete' => 'f' alone, or {NAME => 'f', METHOD => 'delete'}");
        }
        o.rejectRest("DELETE");
        changes.add(new AlterCommand.DeleteFamily(nonEmpty(a, delete, "family name")));
      } else if ("delete".equals(m)) {
        if (family == null) {
          throw a.usage("METHOD => 'delete' needs NAME => 'family'");
        }
        o.rejectRest("NAME, METHOD");
        changes.add(new AlterCommand.DeleteFamily(nonEmpty(a, family, "family name")));
      } else if (m != null && !m.equals("table_att")) {
        throw a.usage("METHOD must be 'delete' (with NAME) or 'table_att' (with table settings), not '" + method.text()
            + "' (HBase's 'table_att_unset' and coprocessor methods are not supported)");
      } else if (family != null) {
        if (m != null) {
          throw a.usage("METHOD => 'table_att' takes table settings, not NAME");
        }
        String f = nonEmpty(a, family, "family name");
        applyKnobs(ColumnFamilyDescriptor.builder(f), o.rest(), "family '" + f + "'"); // names and values checked now
        changes.add(new AlterCommand.SetFamily(f, o.rest()));
      } else {
        if (o.rest().isEmpty()) {
          throw a.usage("argument " + (i + 1) + " changes nothing: give NAME => 'family' or table settings such as"
              + " DURABILITY => 'FSYNC_WAL'");
        }
        applyKnobs(TableDescriptor.builder(table), o.rest(), "table");
        changes.add(new AlterCommand.SetTable(o.rest()));
      }
    }
    return new AlterCommand(table, changes);
  }

  private static String nonEmpty(Args a, ByteString s, String what) {
    if (s.isEmpty()) {
      throw a.usage(what + " must not be empty");
    }
    return s.text();
  }

  // ------------------------------------------------------------------ dml

  static PutCommand put(Args a) {
    a.arity(4, 5);
    String table = a.name(0, "table name");
    byte[] row = a.string(1, "row").bytes();
    Column c = column(a, 2, false);
    byte[] value = a.string(3, "value").bytes();
    Put p = new Put(row);
    if (a.size() == 5) {
      p.addColumn(c.family, c.qualifier, a.integer(4, "timestamp"), value);
    } else {
      p.addColumn(c.family, c.qualifier, value);
    }
    return new PutCommand(table, p);
  }

  static GetCommand get(Args a) {
    a.arity(2, Integer.MAX_VALUE);
    String table = a.name(0, "table name");
    Get g = new Get(a.string(1, "row").bytes());
    if (a.size() == 3 && a.isHash(2)) {
      Options o = a.hash(2, "options");
      Object cols = o.has("COLUMN") ? o.take("COLUMN") : o.take("COLUMNS");
      if (cols != null) {
        addColumns(a, g, cols);
      }
      readVersionsAndTime(o, g);
      o.rejectRest(GET_OPTIONS);
    } else {
      for (int i = 2; i < a.size(); i++) {
        addColumns(a, g, a.get(i));
      }
    }
    return new GetCommand(table, g);
  }

  static ScanCommand scan(Args a) {
    a.arity(1, 2);
    String table = a.name(0, "table name");
    Scan s = new Scan();
    if (a.size() == 2) {
      Options o = a.hash(1, "options");
      Object reversed = o.take("REVERSED");
      if (reversed != null && !(reversed instanceof Boolean)) {
        throw a.usage("REVERSED must be true or false, not " + Args.describe(reversed));
      }
      // Reversed, as in HBase, STARTROW is the higher row and the scan walks down to STOPROW.
      s.setReversed(Boolean.TRUE.equals(reversed));
      ByteString prefix = o.takeString("ROWPREFIXFILTER");
      ByteString start = o.takeString("STARTROW");
      ByteString stop = o.takeString("STOPROW");
      if (prefix != null && (start != null || stop != null)) {
        throw a.usage("ROWPREFIXFILTER cannot be combined with STARTROW or STOPROW");
      }
      if (prefix != null) {
        prefixRange(s, prefix.bytes());
      }
      Filter filter = filter(o);
      if (filter != null) {
        s.setFilter(filter);
      }
      if (start != null) {
        s.withStartRow(start.bytes());
      }
      if (stop != null) {
        s.withStopRow(stop.bytes());
      }
      Long limit = o.takeLong("LIMIT");
      if (limit != null) {
        s.setLimit(limit);
      }
      Object cols = o.has("COLUMNS") ? o.take("COLUMNS") : o.take("COLUMN");
      if (cols != null) {
        addColumns(a, s, cols);
      }
      readVersionsAndTime(o, s);
      o.rejectRest(SCAN_OPTIONS);
    }
    return new ScanCommand(table, s);
  }

  /** Limits the scan to the rows starting with the prefix, in either direction. */
  private static void prefixRange(Scan s, byte[] prefix) {
    byte[] after = prefixStop(prefix);
    if (!s.isReversed()) {
      s.withStartRow(prefix).withStopRow(after);
      return;
    }
    // Down from just below the first row after the prefix (the end of the table if none) to the prefix itself.
    s.withStartRow(after, false).withStopRow(prefix, true);
  }

  /**
   * The filter of {@code FILTER => "..."} in HBase's filter language, or null if not given. HBase's
   * shell also takes Java filter objects; this shell has no JRuby, so only the string form exists.
   */
  private static Filter filter(Options o) {
    Object f = o.take("FILTER");
    if (f == null) {
      return null;
    }
    if (!(f instanceof ByteString text)) {
      throw o.usage("FILTER must be a string in HBase's filter language, such as \"PrefixFilter('r1')\", not "
          + Args.describe(f));
    }
    try {
      return FilterParser.parse(text.bytes());
    } catch (IllegalArgumentException e) {
      throw o.usage("FILTER: " + e.getMessage());
    }
  }

  /** The first row after every row starting with the prefix; empty (no stop) if there is none. */
  static byte[] prefixStop(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xff) {
        byte[] stop = Arrays.copyOf(prefix, i + 1);
        stop[i]++;
        return stop;
      }
    }
    return new byte[0];
  }

  private static void readVersionsAndTime(Options o, Query<?> q) {
    Long versions = o.takeLong("VERSIONS");
    if (versions != null) {
      if (versions < 1 || versions > Integer.MAX_VALUE) {
        throw o.usage("VERSIONS must be from 1 to " + Integer.MAX_VALUE + ", not " + versions);
      }
      q.readVersions(versions.intValue());
    }
    Long ts = o.takeLong("TIMESTAMP");
    long[] range = o.takeRange("TIMERANGE");
    if (ts != null && range != null) {
      throw o.usage("give TIMESTAMP or TIMERANGE, not both");
    }
    if (ts != null) {
      q.setTimestamp(ts);
    }
    if (range != null) {
      q.setTimeRange(range[0], range[1]);
    }
  }

  /** Adds 'f' (whole family) or 'f:q' columns, given as one string or an array of strings. */
  private static void addColumns(Args a, Query<?> q, Object spec) {
    List<Object> specs = spec instanceof List ? castList(spec) : List.of(spec);
    if (specs.isEmpty()) {
      throw a.usage("the column list is empty");
    }
    for (Object s : specs) {
      if (!(s instanceof ByteString)) {
        throw a.usage("a column must be a quoted 'family' or 'family:qualifier', not " + Args.describe(s));
      }
      Column c = Column.parse(a, (ByteString) s);
      if (c.qualifier == null) {
        q.addFamily(c.family);
      } else {
        q.addColumn(c.family, c.qualifier);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Object> castList(Object o) {
    return (List<Object>) o;
  }

  static DeleteCommand delete(Args a) {
    a.arity(3, 4);
    String table = a.name(0, "table name");
    byte[] row = a.string(1, "row").bytes();
    Column c = column(a, 2, true);
    if (c.qualifier == null) {
      throw a.usage("delete needs a column 'family:qualifier'; use deleteall to delete a family");
    }
    Delete d = new Delete(row);
    if (a.size() == 4) {
      d.addColumn(c.family, c.qualifier, a.integer(3, "timestamp"));
    } else {
      d.addColumn(c.family, c.qualifier);
    }
    return new DeleteCommand(table, d);
  }

  static DeleteCommand deleteAll(Args a) {
    a.arity(2, 4);
    String table = a.name(0, "table name");
    byte[] row = a.string(1, "row").bytes();
    // deleteall 't', 'r', ts  (whole row up to ts) is accepted as a shorthand for ..., '', ts
    Column c = null;
    Long ts = null;
    if (a.size() >= 3) {
      if (a.isInteger(2)) {
        a.arity(2, 3);
        ts = a.integer(2, "timestamp");
      } else if (!a.string(2, "column").isEmpty()) {
        c = column(a, 2, true);
      }
    }
    if (a.size() == 4) {
      ts = a.integer(3, "timestamp");
    }
    Delete d = ts == null ? new Delete(row) : new Delete(row, ts);
    if (c != null && c.qualifier == null) {
      d.addFamily(c.family);
    } else if (c != null) {
      d.addColumns(c.family, c.qualifier);
    }
    return new DeleteCommand(table, d);
  }

  static IncrCommand incr(Args a) {
    a.arity(3, 4);
    String table = a.name(0, "table name");
    byte[] row = a.string(1, "row").bytes();
    Column c = column(a, 2, false);
    long amount = a.size() == 4 ? a.integer(3, "increment") : 1;
    if (row.length == 0) {
      throw a.usage("row must not be empty");
    }
    return new IncrCommand(table, row, c.family, c.qualifier, amount);
  }

  static GetCounterCommand getCounter(Args a) {
    a.arity(3, 3);
    String table = a.name(0, "table name");
    byte[] row = a.string(1, "row").bytes();
    Column c = column(a, 2, false);
    if (row.length == 0) {
      throw a.usage("row must not be empty");
    }
    return new GetCounterCommand(table, row, c.family, c.qualifier);
  }

  static AppendCommand append(Args a) {
    a.arity(4, 4);
    String table = a.name(0, "table name");
    byte[] row = a.string(1, "row").bytes();
    Column c = column(a, 2, false);
    byte[] value = a.string(3, "value").bytes();
    if (row.length == 0) {
      throw a.usage("row must not be empty");
    }
    return new AppendCommand(table, row, c.family, c.qualifier, value);
  }

  /** {@code status} and {@code status 'summary'}; HBase's other formats describe a cluster's servers. */
  static StatusCommand status(Args a) {
    a.arity(0, 1);
    if (a.size() == 1) {
      String format = a.string(0, "format").text();
      if (format.equals("simple")) {
        return new StatusCommand(true); // a cluster's servers; refused when it runs on one engine
      }
      if (!format.equals("summary")) {
        throw a.usage("only status 'summary' (and, over a cluster, 'simple') is supported by Bellows, not '" + format
            + "' (HBase's 'detailed', 'replication' and 'tasks' describe what Bellows has not)");
      }
    }
    return new StatusCommand();
  }

  static CountCommand count(Args a) {
    a.arity(1, 2);
    String table = a.name(0, "table name");
    long interval = 1000;
    Filter filter = null;
    if (a.size() == 2) {
      Options o = a.hash(1, "options");
      Long i = o.takeLong("INTERVAL");
      // HBase's scanner caching (rows per round trip): Bellows' scanners stream rows, so it is only checked.
      Long cache = o.takeLong("CACHE");
      filter = filter(o);
      o.rejectRest("INTERVAL, CACHE, FILTER");
      if (i != null) {
        if (i < 1) {
          throw a.usage("INTERVAL must be at least 1");
        }
        interval = i;
      }
      if (cache != null && cache < 1) {
        throw a.usage("CACHE must be at least 1, not " + cache);
      }
    }
    return new CountCommand(table, interval, filter);
  }

  /**
   * Reads argument i as a column. With {@code familyAllowed} a bare 'f' means the whole family
   * (qualifier null); otherwise 'f' means the empty qualifier of f, as in HBase's put.
   */
  private static Column column(Args a, int i, boolean familyAllowed) {
    Column c = Column.parse(a, a.string(i, "column"));
    if (c.qualifier == null && !familyAllowed) {
      return new Column(c.family, new byte[0]);
    }
    return c;
  }

  /** A family and an optional qualifier (null: the whole family). */
  private static final class Column {
    final byte[] family;
    final byte[] qualifier;

    Column(byte[] family, byte[] qualifier) {
      this.family = family;
      this.qualifier = qualifier;
    }

    /** Splits 'family:qualifier' at the first ':'; the qualifier keeps its exact bytes. */
    static Column parse(Args a, ByteString spec) {
      byte[] b = spec.bytes();
      int colon = -1;
      for (int i = 0; i < b.length; i++) {
        if (b[i] == ':') {
          colon = i;
          break;
        }
      }
      byte[] family = colon < 0 ? b : Arrays.copyOf(b, colon);
      if (family.length == 0) {
        throw a.usage("column " + spec + " has an empty family name");
      }
      return colon < 0 ? new Column(family, null) : new Column(family, Arrays.copyOfRange(b, colon + 1, b.length));
    }
  }
}
