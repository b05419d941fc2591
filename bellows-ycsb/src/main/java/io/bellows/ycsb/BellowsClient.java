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
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
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
 *   <li>{@code bellows.durability} — the table's durability when the binding creates it (default
 *       {@code ASYNC_WAL}: logged, synced in the background, as RocksDB's default write);
 *   <li>{@code bellows.memstore.policy} — the family's in-memory compaction when the binding creates
 *       the table ({@code NONE}, {@code BASIC}, {@code EAGER}, {@code ADAPTIVE}; default the
 *       engine's);
 *   <li>{@code bellows.flush.size} — the table's flush size in bytes when the binding creates it;
 *   <li>{@code bellows.family.NAME} and {@code bellows.table.NAME} — any family or table setting
 *       by its name (README, "Configuration"), e.g. {@code bellows.family.BLOCKSIZE=4096}, when the
 *       binding creates the table;
 *   <li>any engine setting by its name, e.g. {@code bellows.blockcache.l1.size=256m}.
 * </ul>
 *
 * The table is created on first use if it does not exist. One engine serves all the threads'
 * clients ({@link SharedEngine}); each client is used by one thread, as YCSB does.
 */
public final class BellowsClient extends DB {
  private static final String FAMILY_SETTING = "bellows.family.";
  private static final String TABLE_SETTING = "bellows.table.";

  private SharedEngine engine;
  private byte[] family;
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
      schemaSettings(p, ColumnFamilyDescriptor.builder("f"), TableDescriptor.builder("t"));
    } catch (IllegalArgumentException e) {
      throw new DBException(e.getMessage(), e);
    }
    try {
      engine = SharedEngine.acquire(Path.of(dir), engineOptions(p));
    } catch (RuntimeException e) {
      throw new DBException("cannot open " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Applies the bellows.family.NAME and bellows.table.NAME properties; unknown names and bad values throw. */
  private static void schemaSettings(Properties p, ColumnFamilyDescriptor.Builder f, TableDescriptor.Builder b) {
    for (String key : p.stringPropertyNames()) {
      if (key.startsWith(FAMILY_SETTING)) {
        f.set(key.substring(FAMILY_SETTING.length()), p.getProperty(key));
      } else if (key.startsWith(TABLE_SETTING)) {
        b.set(key.substring(TABLE_SETTING.length()), p.getProperty(key));
      }
    }
  }

  /** The engine defaults, with every property named as an engine setting (bellows.*) applied. */
  private static EngineOptions engineOptions(Properties p) {
    EngineOptions.Builder b = EngineOptions.builder();
    for (String name : p.stringPropertyNames()) {
      if (Knobs.find(Knob.Scope.ENGINE, name) != null) {
        b.set(name, p.getProperty(name));
      }
    }
    return b.build();
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
        Properties p = getProperties();
        ColumnFamilyDescriptor.Builder f = ColumnFamilyDescriptor.builder(Bytes.str(family));
        String policy = p.getProperty("bellows.memstore.policy");
        if (policy != null) {
          f.memStorePolicy(io.bellows.config.MemStorePolicy.valueOf(policy.toUpperCase(java.util.Locale.ROOT)));
        }
        TableDescriptor.Builder b = TableDescriptor.builder(name)
            .durability(Durability.valueOf(p.getProperty("bellows.durability", "ASYNC_WAL")));
        String flushSize = p.getProperty("bellows.flush.size");
        if (flushSize != null) {
          b.flushSize(Long.parseLong(flushSize));
        }
        schemaSettings(p, f, b);
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
