package io.bellows.hbase;

import io.bellows.engine.Engine;
import io.bellows.remote.RemoteCluster;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Hbck;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableBuilder;
import org.apache.hadoop.hbase.security.User;

/**
 * HBase's {@link Connection} over Bellows. Plugged in with
 * {@code hbase.client.connection.impl = io.bellows.hbase.BellowsConnection}; then
 * {@code ConnectionFactory.createConnection(conf)} returns one, over the embedded engine of the
 * directory {@code bellows.data.dir} (shared, reference-counted, by every connection of the JVM to
 * that directory) or over the server {@code bellows.server = host:port} (several, comma-separated:
 * the members of a cluster, through {@link RemoteCluster}).
 *
 * <p>HBase 2.6 constructs it with {@code (Configuration, ExecutorService, User, Map)}, 2.5 with
 * {@code (Configuration, ExecutorService, User)}: both constructors are here.
 */
public final class BellowsConnection implements Connection {
  public static final String DATA_DIR = "bellows.data.dir";
  public static final String SERVER = "bellows.server";

  private final Configuration conf;
  private final Engine engine;
  private final Path dataDir;
  private volatile boolean closed;

  /** HBase 2.5's constructor. */
  public BellowsConnection(Configuration conf, ExecutorService pool, User user) {
    this.conf = conf;
    String dir = conf.get(DATA_DIR);
    String server = conf.get(SERVER);
    if ((dir == null) == (server == null)) {
      throw new IllegalArgumentException("set exactly one of " + DATA_DIR + " (an embedded engine) and " + SERVER
          + " (host:port of a Bellows server)");
    }
    if (dir != null) {
      this.dataDir = Path.of(dir);
      this.engine = SharedEngines.acquire(dataDir);
    } else {
      this.dataDir = null;
      List<String> servers = java.util.Arrays.stream(server.split(",")).map(String::strip).filter(a -> !a.isEmpty())
          .toList();
      // Several servers: the members of a cluster (calls go to each table's leader).
      this.engine = servers.size() > 1 ? RemoteCluster.open(servers, RemoteOptions.defaults())
          : RemoteEngine.open(server.strip(), RemoteOptions.defaults());
    }
  }

  /** HBase 2.6's constructor (connection attributes are not used). */
  public BellowsConnection(Configuration conf, ExecutorService pool, User user, Map<String, byte[]> attributes) {
    this(conf, pool, user);
  }

  @Override
  public Configuration getConfiguration() {
    return conf;
  }

  /** Fails at once for a missing table ({@code TableNotFoundException}), as HBase's first call would. */
  @Override
  public Table getTable(TableName name) throws IOException {
    checkOpen();
    return Exceptions.io(() -> BellowsTable.create(engine, name, conf));
  }

  @Override
  public Table getTable(TableName name, ExecutorService pool) throws IOException {
    return getTable(name);
  }

  @Override
  public BufferedMutator getBufferedMutator(TableName name) throws IOException {
    return getBufferedMutator(new BufferedMutatorParams(name));
  }

  @Override
  public BufferedMutator getBufferedMutator(BufferedMutatorParams params) throws IOException {
    return new BellowsBufferedMutator(getTable(params.getTableName()), conf, params);
  }

  @Override
  public RegionLocator getRegionLocator(TableName name) {
    checkOpen();
    return BellowsRegionLocator.open(engine, name, conf);
  }

  /** Nothing to clear: a Bellows region locator has no cache. */
  @Override
  public void clearRegionLocationCache() {}

  @Override
  public Admin getAdmin() {
    checkOpen();
    return Unsupported.proxy(Admin.class, new BellowsAdmin(engine, this));
  }

  /**
   * An {@code Hbck} whose repair operations throw {@link UnsupportedOperationException}: HBase's
   * shell takes one when it starts (HBase's default for a connection throws there).
   */
  @Override
  public Hbck getHbck() {
    checkOpen();
    return Unsupported.proxy(Hbck.class, new BellowsHbck());
  }

  @Override
  public Hbck getHbck(ServerName master) {
    return getHbck();
  }

  @Override
  public TableBuilder getTableBuilder(TableName name, ExecutorService pool) {
    throw new UnsupportedOperationException("Connection.getTableBuilder is not supported by Bellows; use getTable");
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (dataDir != null) {
      SharedEngines.release(dataDir);
    } else {
      engine.close();
    }
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void abort(String why, Throwable e) {
    try {
      close();
    } catch (IOException ignored) {
      // closing an engine reports through its own exceptions
    }
  }

  @Override
  public boolean isAborted() {
    return false;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the connection is closed");
    }
  }
}
