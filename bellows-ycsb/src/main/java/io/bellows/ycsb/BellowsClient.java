package io.bellows.ycsb;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
import io.bellows.config.KnobAssignments;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The YCSB binding of embedded Bellows ({@code -db io.bellows.ycsb.BellowsClient}). A YCSB record
 * is a row; each field is a column of one family. Properties:
 *
 * <ul>
 *   <li>{@code bellows.dir} — the data directory (required);
 *   <li>{@code bellows.family} — the column family (default {@code f});
 *   <li>{@code bellows.print.metrics} — {@code true} prints the engine's metrics (caches, flushes,
 *       compactions) to standard error when the last client closes it (default {@code false});
 *   <li>{@code bellows.durability}, {@code bellows.memstore.policy} and {@code bellows.flush.size} — short
 *       names of the table's {@code DURABILITY}, the family's {@code IN_MEMORY_COMPACTION} and the table's
 *       {@code MEMSTORE_FLUSHSIZE}, applied when the binding creates the table; unset, each is the engine's
 *       default (durability: {@code bellows.durability.default}, SYNC_WAL, written to the operating system
 *       before acknowledging, as RocksDB's default write is; before, this binding defaulted to ASYNC_WAL);
 *   <li>{@code bellows.family.NAME} and {@code bellows.table.NAME} — any family or table setting
 *       by its name (README, "Configuration"), e.g. {@code bellows.family.BLOCKSIZE=4096}, when the
 *       binding creates the table;
 *   <li>any engine setting by its name, e.g. {@code bellows.blockcache.l1.size=256m}.
 * </ul>
 *
 * Every value is read by the knob registry's parser ({@link KnobAssignments}); a {@code bellows.} property
 * that is none of these is refused by name. The table is created on first use if it does not exist. One
 * engine serves all the threads' clients ({@link SharedEngine}); each client is used by one thread, as
 * YCSB does.
 */
public final class BellowsClient extends DB {
  private static final String FAMILY_SETTING = "bellows.family.";
  private static final String TABLE_SETTING = "bellows.table.";
  private static final String WHERE = "give family knobs as bellows.family.NAME, table knobs as bellows.table.NAME"
      + " and engine knobs by their own names";
  /** The binding's own properties, which are not knobs. */
  private static final Set<String> OWN = Set.of("bellows.dir", "bellows.family", "bellows.print.metrics");
  /** Short names of knobs, kept from the binding's first versions. */
  static final Map<String, Knob<?>> ALIASES = Map.of("bellows.durability", Knobs.TABLE_DURABILITY,
      "bellows.memstore.policy", Knobs.IN_MEMORY_COMPACTION, "bellows.flush.size", Knobs.MEMSTORE_FLUSHSIZE);

  private SharedEngine engine;
  private byte[] family;
  private KnobAssignments settings;
  private final Map<String, Table> tables = new HashMap<>();

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String dir = p.getProperty("bellows.dir");
    if (dir == null || dir.isBlank()) {
      throw new DBException("set bellows.dir to the Bellows data directory (-p bellows.dir=/path)");
    }
    family = Bytes.of(p.getProperty("bellows.family", "f"));
    try { // settings named wrong fail here, not on every operation
      settings = settings(p);
    } catch (IllegalArgumentException e) {
      throw new DBException(e.getMessage(), e);
    }
    try {
      engine = SharedEngine.acquire(Path.of(dir), settings.applyTo(EngineOptions.builder()).build(),
          printMetrics(p) ? System.err : null);
    } catch (RuntimeException e) {
      throw new DBException("cannot open " + dir + ": " + e.getMessage(), e);
    }
  }

  private static boolean printMetrics(Properties p) throws DBException {
    String v = p.getProperty("bellows.print.metrics", "false").trim();
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new DBException("bellows.print.metrics must be true or false, not '" + v + "'");
    }
    return Boolean.parseBoolean(v);
  }

  /**
   * The knobs among the properties, read by the registry's parser: {@code bellows.family.NAME} (a family
   * knob), {@code bellows.table.NAME} (a table knob), the {@link #ALIASES} and engine knobs by their names.
   */
  static KnobAssignments settings(Properties p) {
    Map<String, String> byName = new TreeMap<>();
    for (String key : new TreeSet<>(p.stringPropertyNames())) {
      String value = p.getProperty(key);
      if (key.startsWith(FAMILY_SETTING) || key.startsWith(TABLE_SETTING)) {
        Knob.Scope scope = key.startsWith(FAMILY_SETTING) ? Knob.Scope.FAMILY : Knob.Scope.TABLE;
        String name = key.substring((scope == Knob.Scope.FAMILY ? FAMILY_SETTING : TABLE_SETTING).length());
        KnobAssignments.of(Map.of(name, value)).requireScopes(WHERE, scope);
        byName.put(name, value);
      } else if (ALIASES.containsKey(key)) {
        String name = ALIASES.get(key).name();
        try {
          KnobAssignments.of(Map.of(name, value));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(key + " (short for " + name + "): " + e.getMessage(), e);
        }
        byName.put(name, value);
      } else if (key.startsWith("bellows.") && !OWN.contains(key)) {
        KnobAssignments.of(Map.of(key, value)).requireScopes(WHERE, Knob.Scope.ENGINE);
        byName.put(key, value);
      }
    }
    return KnobAssignments.of(byName);
  }

  @Override
  public void cleanup() throws DBException {
    if (engine != null) {
      engine.release();
      engine = null;
    }
  }

  /** The handle of {@code name}, creating the table (one family) the first time any client asks. */
  private Table table(String name) {
    Table t = tables.get(name);
    if (t != null) {
      return t;
    }
    Bellows db = engine.db();
    synchronized (SharedEngine.class) {
      if (!db.tableExists(name)) {
        ColumnFamilyDescriptor.Builder f = settings.applyTo(ColumnFamilyDescriptor.builder(Bytes.str(family)));
        TableDescriptor.Builder b = settings.applyTo(TableDescriptor.builder(name));
        db.createTable(b.family(f.build()).build());
      }
    }
    t = db.getTable(name);
    tables.put(name, t);
    return t;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      Get get = new Get(key.getBytes(StandardCharsets.UTF_8));
      addColumns(get, fields);
      Result r = table(table).get(get);
      if (r.isEmpty()) {
        return Status.NOT_FOUND;
      }
      fill(r, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan scan = new Scan().withStartRow(startkey.getBytes(StandardCharsets.UTF_8)).setLimit(recordcount);
    addColumns(scan, fields);
    try (ResultScanner s = table(table).getScanner(scan)) {
      for (Result r : s) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        fill(r, row);
        result.add(row);
      }
      return Status.OK;
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return insert(table, key, values); // a put of the given columns leaves the others as they are
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      Put put = new Put(key.getBytes(StandardCharsets.UTF_8));
      for (Map.Entry<String, ByteIterator> v : values.entrySet()) {
        put.addColumn(family, v.getKey().getBytes(StandardCharsets.UTF_8), v.getValue().toArray());
      }
      table(table).put(put);
      return Status.OK;
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      table(table).delete(new Delete(key.getBytes(StandardCharsets.UTF_8)));
      return Status.OK;
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  private void addColumns(io.bellows.client.Query<?> q, Set<String> fields) {
    if (fields == null) {
      q.addFamily(family);
    } else {
      for (String f : fields) {
        q.addColumn(family, f.getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private static void fill(Result r, Map<String, ByteIterator> out) {
    for (Cell c : r.cells()) {
      out.put(new String(c.qualifier(), StandardCharsets.UTF_8), new ByteArrayByteIterator(c.value()));
    }
  }

  private static Status error(RuntimeException e) {
    System.err.println("bellows: " + e);
    return Status.ERROR;
  }
}
