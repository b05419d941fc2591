package io.bellows.ycsb.hbase;

import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB binding written against HBase's client API alone ({@code -db
 * io.bellows.ycsb.hbase.HBaseApiClient}): it runs on whatever {@code ConnectionFactory} returns, so
 * on Bellows when the configuration says {@code hbase.client.connection.impl =
 * io.bellows.hbase.BellowsConnection} and {@code bellows.data.dir = DIR}. It names no Bellows class
 * on purpose (a test checks it): the point is unchanged HBase code. Every YCSB property is copied
 * into the HBase {@link Configuration}, so {@code -p name=value} reaches the connection.
 *
 * <p>A record is a row, a field a column of one family. One {@link Connection} serves the JVM,
 * shared by YCSB's client threads and closed by the last one's {@code cleanup}; each client (one per
 * thread) has its own {@link Table}. Properties, as YCSB's own HBase 2 binding where it has them:
 *
 * <ul>
 *   <li>{@code table} — the table (default {@code usertable});
 *   <li>{@code columnfamily} — the family (default {@code family});
 *   <li>{@code clientbuffering} — {@code true}: puts and deletes go through a {@link BufferedMutator}
 *       (default {@code false}); {@code writebuffersize} its size in bytes;
 *   <li>{@code durability} — {@code false}: mutations skip the WAL (default {@code true}: the
 *       table's durability);
 *   <li>{@code hbase.usepagefilter} — {@code true}: scans also carry a {@link PageFilter} (default
 *       {@code false}; the scan's limit ends it either way).
 * </ul>
 *
 * YCSB's HBase binding expects the table to exist. This one creates it when missing, laid out as
 * {@code io.bellows.ycsb.BellowsClient} lays out its own, so the two bindings are compared on equal
 * tables: one family with the default settings, no pre-split, the table's durability
 * {@code tabledurability} (default {@code ASYNC_WAL}, as that binding's), the family's in-memory
 * compaction {@code inmemorycompaction} (default: the store's) and its {@code compression} (an HBase
 * algorithm name; default HBase's, NONE — Bellows' own default is LZ4, which {@code AdapterCost} passes).
 */
public final class HBaseApiClient extends DB {
  private static final Object LOCK = new Object();
  private static Connection connection; // guarded by LOCK
  private static int users; // guarded by LOCK

  private Connection conn;
  private byte[] family;
  private boolean buffering;
  private long writeBufferSize;
  private boolean usePageFilter;
  private Durability durability;
  private String tableName;
  private Table table;
  private BufferedMutator mutator;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    family = Bytes.toBytes(p.getProperty("columnfamily", "family"));
    buffering = Boolean.parseBoolean(p.getProperty("clientbuffering", "false"));
    writeBufferSize = Long.parseLong(p.getProperty("writebuffersize", "-1"));
    usePageFilter = Boolean.parseBoolean(p.getProperty("hbase.usepagefilter", "false"));
    durability = Boolean.parseBoolean(p.getProperty("durability", "true")) ? Durability.USE_DEFAULT : Durability.SKIP_WAL;
    synchronized (LOCK) {
      if (connection == null) {
        Configuration conf = HBaseConfiguration.create();
        p.stringPropertyNames().forEach(n -> conf.set(n, p.getProperty(n)));
        try {
          connection = ConnectionFactory.createConnection(conf);
        } catch (IOException | RuntimeException e) {
          throw new DBException("cannot connect: " + e, e);
        }
      }
      users++;
      conn = connection;
    }
    try {
      open(p.getProperty("table", "usertable"));
    } catch (IOException | RuntimeException e) {
      cleanup();
      throw new DBException("cannot open table: " + e, e);
    }
  }

  /** Makes {@code name} this client's table, creating it (once, for all threads) when missing. */
  private void open(String name) throws IOException {
    closeTable();
    TableName t = TableName.valueOf(name);
    synchronized (LOCK) {
      try (Admin admin = conn.getAdmin()) {
        if (!admin.tableExists(t)) {
          admin.createTable(descriptor(t));
        }
      }
    }
    table = conn.getTable(t);
    if (buffering) {
      BufferedMutatorParams params = new BufferedMutatorParams(t);
      if (writeBufferSize > 0) {
        params.writeBufferSize(writeBufferSize);
      }
      mutator = conn.getBufferedMutator(params);
    }
    tableName = name;
  }

  private org.apache.hadoop.hbase.client.TableDescriptor descriptor(TableName t) {
    Properties p = getProperties();
    ColumnFamilyDescriptorBuilder f = ColumnFamilyDescriptorBuilder.newBuilder(family);
    String compression = p.getProperty("compression");
    if (compression != null) {
      f.setCompressionType(Compression.Algorithm.valueOf(compression.toUpperCase(Locale.ROOT)));
    }
    String policy = p.getProperty("inmemorycompaction");
    if (policy != null) {
      f.setInMemoryCompaction(MemoryCompactionPolicy.valueOf(policy.toUpperCase(Locale.ROOT)));
    }
    return TableDescriptorBuilder.newBuilder(t)
        .setDurability(Durability.valueOf(p.getProperty("tabledurability", "ASYNC_WAL").toUpperCase(Locale.ROOT)))
        .setColumnFamily(f.build()).build();
  }

  private Table table(String name) throws IOException {
    if (!name.equals(tableName)) {
      open(name);
    }
    return table;
  }

  @Override
  public void cleanup() throws DBException {
    if (conn == null) {
      return;
    }
    conn = null;
    String name = tableName;
    try {
      closeTable();
    } catch (IOException e) {
      throw new DBException("cannot close table " + name + ": " + e, e);
    } finally {
      synchronized (LOCK) {
        if (--users == 0) {
          try {
            connection.close();
          } catch (IOException e) {
            throw new DBException("cannot close the connection: " + e, e);
          } finally {
            connection = null;
          }
        }
      }
    }
  }

  /** Flushes the buffered mutations (their failures surface here) and closes the table. */
  private void closeTable() throws IOException {
    try {
      if (mutator != null) {
        mutator.close();
      }
    } finally {
      mutator = null;
      if (table != null) {
        table.close();
        table = null;
      }
      tableName = null;
    }
  }

  @Override
  public Status read(String tableName, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      Get get = new Get(Bytes.toBytes(key));
      if (fields == null) {
        get.addFamily(family);
      } else {
        fields.forEach(f -> get.addColumn(family, Bytes.toBytes(f)));
      }
      Result r = table(tableName).get(get);
      if (r.isEmpty()) {
        return Status.NOT_FOUND;
      }
      fill(r, result);
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("read", e);
    }
  }

  @Override
  public Status scan(String tableName, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan scan = new Scan().withStartRow(Bytes.toBytes(startkey)).setLimit(recordcount).setCaching(recordcount);
    if (usePageFilter) {
      scan.setFilter(new PageFilter(recordcount));
    }
    if (fields == null) {
      scan.addFamily(family);
    } else {
      fields.forEach(f -> scan.addColumn(family, Bytes.toBytes(f)));
    }
    try (ResultScanner rows = table(tableName).getScanner(scan)) {
      for (Result r = rows.next(); r != null && result.size() < recordcount; r = rows.next()) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        fill(r, row);
        result.add(row);
      }
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("scan", e);
    }
  }

  @Override
  public Status update(String tableName, String key, Map<String, ByteIterator> values) {
    try {
      Put put = new Put(Bytes.toBytes(key)).setDurability(durability);
      values.forEach((field, v) -> put.addColumn(family, Bytes.toBytes(field), v.toArray()));
      mutate(tableName, put);
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("put", e);
    }
  }

  @Override
  public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
    return update(tableName, key, values); // a put of the record's columns, as an update is
  }

  @Override
  public Status delete(String tableName, String key) {
    try {
      mutate(tableName, new Delete(Bytes.toBytes(key)).setDurability(durability));
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("delete", e);
    }
  }

  private void mutate(String tableName, Mutation m) throws IOException {
    Table t = table(tableName);
    if (mutator != null) {
      mutator.mutate(m);
    } else if (m instanceof Put put) {
      t.put(put);
    } else {
      t.delete((Delete) m);
    }
  }

  private static void fill(Result r, Map<String, ByteIterator> out) {
    for (Cell c : r.rawCells()) { // read in place: the Result's cells are this call's own
      out.put(Bytes.toString(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength()),
          new ByteArrayByteIterator(c.getValueArray(), c.getValueOffset(), c.getValueLength()));
    }
  }

  private static Status error(String what, Exception e) {
    System.err.println("hbase " + what + ": " + e);
    return Status.ERROR;
  }
}
