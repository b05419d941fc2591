package io.bellows.hbase;

import io.bellows.engine.Engine;
import io.bellows.engine.SnapshotInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HTableDescriptor;
import org.apache.hadoop.hbase.InvalidFamilyOperationException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.UnknownRegionException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.CompactType;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.SnapshotType;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.snapshot.RestoreSnapshotException;
import org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException;
import org.apache.hadoop.hbase.snapshot.SnapshotExistsException;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The supported part of HBase's {@link Admin}: tables (create with split keys, delete, disable,
 * enable, exists, list, describe, truncate, clone the schema, alter), snapshots, flush, compactions,
 * split and the region list ({@link RegionNames} for the per-region methods HBase's shell tries
 * first). {@link
 * Unsupported} makes it an {@code Admin} whose other methods throw, and gives HBase's exceptions
 * for Bellows' ({@link Exceptions}).
 */
public final class BellowsAdmin {
  private final Engine engine;
  private final Connection connection;

  BellowsAdmin(Engine engine, Connection connection) {
    this.engine = engine;
    this.connection = connection;
  }

  public Connection getConnection() {
    return connection;
  }

  public Configuration getConfiguration() {
    return connection.getConfiguration();
  }

  public void close() {}

  public boolean isAborted() {
    return false;
  }

  public void createTable(TableDescriptor d) {
    engine.createTable(Convert.descriptor(d));
  }

  public void createTable(TableDescriptor d, byte[][] splitKeys) {
    engine.createTable(Convert.descriptor(d), Arrays.asList(splitKeys));
  }

  /** As HBase: an enabled table is refused with {@link TableNotDisabledException}. */
  public void deleteTable(TableName t) throws IOException {
    try {
      engine.dropTable(Convert.name(t));
    } catch (io.bellows.util.TableNotEnabledException e) { // Bellows says: disable it first
      throw (IOException) new TableNotDisabledException(e.getMessage()).initCause(e);
    }
  }

  public void disableTable(TableName t) {
    engine.disableTable(Convert.name(t));
  }

  /** As HBase: an enabled table is refused with {@link TableNotDisabledException}. */
  public void enableTable(TableName t) throws IOException {
    if (engine.isTableEnabled(Convert.name(t))) {
      throw new TableNotDisabledException(t);
    }
    engine.enableTable(Convert.name(t));
  }

  public boolean isTableEnabled(TableName t) {
    return engine.isTableEnabled(Convert.name(t));
  }

  public boolean isTableDisabled(TableName t) {
    return !engine.isTableEnabled(Convert.name(t));
  }

  public boolean isTableAvailable(TableName t) {
    return engine.tableExists(Convert.name(t)) && engine.isTableEnabled(Convert.name(t));
  }

  /**
   * A table of another namespace (HBase's own {@code hbase:meta}, {@code hbase:quota}, ...) does not
   * exist in Bellows: false, as HBase answers for a missing table (HBase's shell asks before it
   * lists quotas).
   */
  public boolean tableExists(TableName t) {
    return Convert.inDefaultNamespace(t) && engine.tableExists(Convert.name(t));
  }

  /**
   * As HBase: the table must be disabled; it is created again, empty, with the same settings (and
   * the same region boundaries with {@code preserveSplits}), and is enabled. Not atomic: it is a
   * drop then a create, so a crash between the two leaves no table.
   */
  public void truncateTable(TableName t, boolean preserveSplits) throws IOException {
    String name = Convert.name(t);
    if (engine.isTableEnabled(name)) {
      throw new TableNotDisabledException(t);
    }
    io.bellows.schema.TableDescriptor d = engine.describeTable(name);
    List<byte[]> splitKeys = preserveSplits ? splitKeys(name) : List.of();
    engine.dropTable(name);
    create(d, splitKeys);
  }

  /**
   * As HBase: a new, empty table {@code to} with the settings of {@code from} (and its region
   * boundaries with {@code preserveSplits}); the shell's {@code clone_table_schema}.
   */
  public void cloneTableSchema(TableName from, TableName to, boolean preserveSplits) {
    String source = Convert.name(from);
    io.bellows.schema.TableDescriptor d = engine.describeTable(source);
    io.bellows.schema.TableDescriptor.Builder b = io.bellows.schema.TableDescriptor.builder(Convert.name(to));
    d.explicitValues().forEach((knob, value) -> b.set(knob.name(), value));
    d.families().forEach(b::family);
    create(b.build(), preserveSplits ? splitKeys(source) : List.of());
  }

  /** The start keys of a table's regions but the first (which starts at the empty key). */
  private List<byte[]> splitKeys(String table) {
    List<byte[]> out = new ArrayList<>();
    for (io.bellows.engine.RegionInfo r : engine.regions(table)) {
      if (r.startKey().length > 0) {
        out.add(r.startKey());
      }
    }
    return out;
  }

  private void create(io.bellows.schema.TableDescriptor d, List<byte[]> splitKeys) {
    if (splitKeys.isEmpty()) {
      engine.createTable(d);
    } else {
      engine.createTable(d, splitKeys);
    }
  }

  public TableName[] listTableNames() {
    return engine.listTables().stream().map(TableName::valueOf).toArray(TableName[]::new);
  }

  public TableName[] listTableNames(Pattern p) {
    return engine.listTables().stream().filter(n -> p.matcher(n).matches()).map(TableName::valueOf)
        .toArray(TableName[]::new);
  }

  public List<TableDescriptor> listTableDescriptors() {
    List<TableDescriptor> out = new ArrayList<>();
    for (String n : engine.listTables()) {
      out.add(Convert.descriptor(engine.describeTable(n)));
    }
    return out;
  }

  public TableDescriptor getDescriptor(TableName t) {
    return Convert.descriptor(engine.describeTable(Convert.name(t)));
  }

  /** The deprecated form of {@link #getDescriptor}, which HBase's shell calls (describe, alter). */
  @SuppressWarnings("deprecation")
  public HTableDescriptor getTableDescriptor(TableName t) {
    return new HTableDescriptor(getDescriptor(t));
  }

  public void flush(TableName t) {
    engine.flush(Convert.name(t));
  }

  /**
   * Runs a leader-balancing pass of a Bellows cluster now (its regions' leaders, not HBase's region
   * assignment); true: it ran (also when nothing needed to move, and on a single server, where
   * there is nothing to balance).
   */
  public boolean balance() {
    engine.balance();
    return true;
  }

  /** As {@link #balance()}: a pass never waits for regions in transition, so there is nothing to force. */
  public boolean balance(boolean force) {
    return balance();
  }

  /** HBase 2.5's shell's {@code balancer}: {@link #balance()}. */
  public boolean balancer() {
    return balance();
  }

  /** HBase 2.5's shell's {@code balancer 'force'}: {@link #balance()}. */
  public boolean balancer(boolean force) {
    return balance();
  }

  /** Flushes the whole table: Bellows flushes a table's families together. */
  /**
   * HBase's move of a region to a server, over a Bellows cluster, where every member holds a replica
   * of every region: the region's leadership is handed to the member {@code destServerName} names
   * (Raft's leadership transfer, {@link Engine#moveLeader}); null: to the member of its replicas that
   * leads fewest regions (HBase picks a random server). The region is named by HBase's encoded name
   * of it (what {@code getRegions} and the {@code RegionLocator} give: {@code
   * RegionInfo.getEncodedNameAsBytes()}), its full region name, or Bellows' region id in decimal
   * (what the Bellows shell's {@code list_regions} prints); the server by the member's client host
   * and port, or by its id as the host name. Refused: an unknown region ({@link
   * UnknownRegionException}), an unknown member, a member holding no replica of the region (moving
   * replicas is not built), a member down, and an engine that is not a cluster.
   */
  public void move(byte[] encodedRegionName, ServerName destServerName) throws IOException {
    io.bellows.engine.ClusterStatus cluster = engine.clusterStatus().orElseThrow(() -> new DoNotRetryIOException(
        "Admin.move: this Bellows engine is not a cluster: a single server serves every region itself"));
    String table = null;
    byte[] start = null;
    String wanted = Bytes.toString(encodedRegionName);
    for (String name : engine.listTables()) {
      TableName tn = TableName.valueOf(name);
      for (RegionInfo r : Convert.regions(tn, engine.regions(name))) {
        if (Bytes.equals(r.getEncodedNameAsBytes(), encodedRegionName) || Bytes.equals(r.getRegionName(), encodedRegionName)
            || wanted.equals(String.valueOf(r.getRegionId()))) {
          table = name;
          start = r.getStartKey();
        }
      }
    }
    if (table == null) {
      throw new UnknownRegionException("no region of a Bellows table is named " + Bytes.toStringBinary(encodedRegionName));
    }
    engine.moveLeader(table, start, destServerName == null ? null : member(cluster, destServerName));
  }

  /** As {@link #move(byte[], ServerName)} without a server: to the member of the region's replicas leading fewest. */
  public void move(byte[] encodedRegionName) throws IOException {
    move(encodedRegionName, (ServerName) null);
  }

  /** HBase's older form, which its shell's {@code move} calls: the server as "host,port,startcode" (or null). */
  public void move(byte[] encodedRegionName, byte[] destServerName) throws IOException {
    move(encodedRegionName, destServerName == null ? null : ServerName.valueOf(Bytes.toString(destServerName)));
  }

  /**
   * HBase's {@code decommission_regionservers}: the members at the servers' addresses (or named by
   * their host) take no new replica, and the cluster moves theirs to the other members in the
   * background ({@code offload} is always so: a decommissioned member keeps no replica).
   */
  public void decommissionRegionServers(List<ServerName> servers, boolean offload) throws IOException {
    io.bellows.engine.ClusterStatus cluster = engine.clusterStatus().orElseThrow(() -> new DoNotRetryIOException(
        "Admin.decommissionRegionServers: this Bellows engine is not a cluster: it has no servers to decommission"));
    List<String> ids = new java.util.ArrayList<>();
    for (ServerName s : servers) {
      ids.add(member(cluster, s));
    }
    engine.decommission(ids);
  }

  /** HBase's {@code list_decommissioned_regionservers}: each as "host,port,0" from its client address. */
  public List<ServerName> listDecommissionedRegionServers() throws IOException {
    io.bellows.engine.ClusterStatus cluster = engine.clusterStatus().orElse(null);
    List<ServerName> out = new java.util.ArrayList<>();
    if (cluster == null) {
      return out;
    }
    for (String id : engine.decommissioned()) {
      for (io.bellows.engine.ClusterStatus.Member m : cluster.members()) {
        if (m.id().equals(id)) {
          int colon = m.address().lastIndexOf(':');
          out.add(ServerName.valueOf(m.address().substring(0, colon), Integer.parseInt(m.address().substring(colon + 1)),
              0));
        }
      }
    }
    return out;
  }

  /**
   * HBase's {@code recommission_regionserver}: the member may take replicas again; {@code
   * encodedRegionNames} (regions to load back) are not moved: balancing and new tables fill it.
   */
  public void recommissionRegionServer(ServerName server, List<byte[]> encodedRegionNames) throws IOException {
    io.bellows.engine.ClusterStatus cluster = engine.clusterStatus().orElseThrow(() -> new DoNotRetryIOException(
        "Admin.recommissionRegionServer: this Bellows engine is not a cluster"));
    engine.recommission(member(cluster, server));
  }

  /** The id of the member whose client address is the server's host and port, or whose id is its host name. */
  private static String member(io.bellows.engine.ClusterStatus cluster, ServerName server) throws IOException {
    for (io.bellows.engine.ClusterStatus.Member m : cluster.members()) {
      if (m.address().equals(server.getHostname() + ":" + server.getPort()) || m.id().equals(server.getHostname())) {
        return m.id();
      }
    }
    throw new DoNotRetryIOException("Admin.move: no member of the Bellows cluster is at " + server + " (members: "
        + cluster.members().stream().map(m -> m.id() + " " + m.address()).toList() + ")");
  }

  public void flush(TableName t, byte[] family) throws IOException {
    checkFamily(t, family);
    flush(t);
  }

  /** Runs at once on the caller's thread (HBase only queues a compaction). */
  public void compact(TableName t) {
    engine.compact(Convert.name(t));
  }

  /** Compacts the whole table: Bellows compacts a table's families together. */
  public void compact(TableName t, byte[] family) throws IOException {
    compact(t, family, CompactType.NORMAL);
  }

  public void compact(TableName t, CompactType type) throws IOException {
    compact(t, null, type);
  }

  /** A null family is the whole table (HBase's shell passes null when no family is named). */
  public void compact(TableName t, byte[] family, CompactType type) throws IOException {
    checkFamily(t, family);
    checkNotMob(type);
    compact(t);
  }

  public void majorCompact(TableName t) {
    engine.majorCompact(Convert.name(t));
  }

  public void majorCompact(TableName t, byte[] family) throws IOException {
    majorCompact(t, family, CompactType.NORMAL);
  }

  public void majorCompact(TableName t, CompactType type) throws IOException {
    majorCompact(t, null, type);
  }

  public void majorCompact(TableName t, byte[] family, CompactType type) throws IOException {
    checkFamily(t, family);
    checkNotMob(type);
    majorCompact(t);
  }

  public void split(TableName t) {
    engine.split(Convert.name(t));
  }

  /** A null split point lets Bellows choose, as {@link #split(TableName)} (HBase's shell passes null). */
  public void split(TableName t, byte[] splitPoint) {
    if (splitPoint == null) {
      split(t);
    } else {
      engine.split(Convert.name(t), splitPoint);
    }
  }

  // HBase's shell tries a name as a region's first and, on IllegalArgumentException, as a table's.
  // Bellows acts on whole tables only.

  public void flushRegion(byte[] regionName) {
    throw RegionNames.notSupported("flushRegion", regionName);
  }

  public void flushRegion(byte[] regionName, byte[] family) {
    throw RegionNames.notSupported("flushRegion", regionName);
  }

  public void compactRegion(byte[] regionName) {
    throw RegionNames.notSupported("compactRegion", regionName);
  }

  public void compactRegion(byte[] regionName, byte[] family) {
    throw RegionNames.notSupported("compactRegion", regionName);
  }

  public void majorCompactRegion(byte[] regionName) {
    throw RegionNames.notSupported("majorCompactRegion", regionName);
  }

  public void majorCompactRegion(byte[] regionName, byte[] family) {
    throw RegionNames.notSupported("majorCompactRegion", regionName);
  }

  public void splitRegion(byte[] regionName) {
    throw RegionNames.notSupported("splitRegion", regionName);
  }

  public void splitRegion(byte[] regionName, byte[] splitPoint) {
    throw RegionNames.notSupported("splitRegion", regionName);
  }

  private void checkFamily(TableName t, byte[] family) throws IOException {
    if (family != null && !getDescriptor(t).hasColumnFamily(family)) {
      throw new NoSuchColumnFamilyException("column family " + Bytes.toStringBinary(family) + " does not exist in "
          + t);
    }
  }

  private static void checkNotMob(CompactType type) {
    if (type == CompactType.MOB) {
      throw new UnsupportedOperationException("MOB compactions are not supported by Bellows (it has no MOB files)");
    }
  }

  // ------------------------------------------------------------------ alter

  /** Online, as HBase's: the whole new descriptor; families absent from it are deleted with their data. */
  public void modifyTable(TableDescriptor d) {
    engine.modifyTable(Convert.descriptor(d));
  }

  public void modifyTable(TableName t, TableDescriptor d) {
    if (!t.equals(d.getTableName())) {
      throw new IllegalArgumentException("the descriptor is of table " + d.getTableName() + ", not " + t);
    }
    modifyTable(d);
  }

  /** Done when it returns: the future is complete. */
  public Future<Void> modifyTableAsync(TableDescriptor d) {
    modifyTable(d);
    return done();
  }

  public Future<Void> modifyTableAsync(TableName t, TableDescriptor d) {
    modifyTable(t, d);
    return done();
  }

  /** As HBase: a family the table has already is {@link InvalidFamilyOperationException}. */
  public void addColumnFamily(TableName t, ColumnFamilyDescriptor f) throws IOException {
    TableDescriptor d = getDescriptor(t);
    if (d.hasColumnFamily(f.getName())) {
      throw new InvalidFamilyOperationException("column family '" + f.getNameAsString() + "' in table '" + t
          + "' already exists so cannot be added");
    }
    modifyTable(org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(d).setColumnFamily(f).build());
  }

  public void addColumn(TableName t, ColumnFamilyDescriptor f) throws IOException {
    addColumnFamily(t, f);
  }

  public Future<Void> addColumnFamilyAsync(TableName t, ColumnFamilyDescriptor f) throws IOException {
    addColumnFamily(t, f);
    return done();
  }

  /** As HBase: a family the table lacks is {@link InvalidFamilyOperationException}. */
  public void modifyColumnFamily(TableName t, ColumnFamilyDescriptor f) throws IOException {
    TableDescriptor d = getDescriptor(t);
    requireFamily(t, d, f.getName(), "modified");
    modifyTable(org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(d).modifyColumnFamily(f).build());
  }

  public void modifyColumn(TableName t, ColumnFamilyDescriptor f) throws IOException {
    modifyColumnFamily(t, f);
  }

  public Future<Void> modifyColumnFamilyAsync(TableName t, ColumnFamilyDescriptor f) throws IOException {
    modifyColumnFamily(t, f);
    return done();
  }

  /** As HBase: a family the table lacks, or its only one, is {@link InvalidFamilyOperationException}. */
  public void deleteColumnFamily(TableName t, byte[] family) throws IOException {
    TableDescriptor d = getDescriptor(t);
    requireFamily(t, d, family, "deleted");
    if (d.getColumnFamilyCount() == 1) {
      throw new InvalidFamilyOperationException("column family '" + Bytes.toStringBinary(family)
          + "' is the only column family in table '" + t + "' so it cannot be deleted");
    }
    modifyTable(org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(d).removeColumnFamily(family).build());
  }

  public Future<Void> deleteColumnFamilyAsync(TableName t, byte[] family) throws IOException {
    deleteColumnFamily(t, family);
    return done();
  }

  private static void requireFamily(TableName t, TableDescriptor d, byte[] family, String what)
      throws InvalidFamilyOperationException {
    if (!d.hasColumnFamily(family)) {
      throw new InvalidFamilyOperationException("column family '" + Bytes.toStringBinary(family)
          + "' does not exist in table '" + t + "' so it cannot be " + what);
    }
  }

  private static Future<Void> done() {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Only each table's region counts ({@link TableRegionStates}), which HBase's shell polls after an
   * alter; the rest of the cluster's metrics (servers, masters, load) are refused.
   */
  public org.apache.hadoop.hbase.ClusterMetrics getClusterMetrics() {
    return TableRegionStates.metrics(engine);
  }

  // ------------------------------------------------------------------ snapshots

  /** HBase's key for whether restoreSnapshot(name) takes a fail-safe snapshot first (true in hbase-default.xml). */
  static final String FAIL_SAFE_KEY = "hbase.snapshot.restore.take.failsafe.snapshot";

  public void snapshot(String name, TableName t) throws IOException {
    snapshot(name, t, SnapshotType.FLUSH);
  }

  public void snapshot(byte[] name, TableName t) throws IOException {
    snapshot(Bytes.toString(name), t);
  }

  /** SKIPFLUSH (the shell's SKIP_FLUSH): without flushing (what is only in memory is not in it); FLUSH and DISABLED: flushed. */
  public void snapshot(String name, TableName t, SnapshotType type) throws IOException {
    boolean flush = type != SnapshotType.SKIPFLUSH;
    try {
      engine.snapshot(Convert.name(t), name, flush);
    } catch (IllegalArgumentException e) {
      if (snapshotExists(name)) {
        throw (IOException) new SnapshotExistsException(e.getMessage()).initCause(e);
      }
      throw e;
    }
  }

  /**
   * HBase's snapshot properties TTL and MAX_FILESIZE are refused when set; the shell passes both as
   * -1 when not given.
   */
  public void snapshot(String name, TableName t, SnapshotType type, Map<String, Object> props) throws IOException {
    if (props != null) {
      for (Map.Entry<String, Object> p : props.entrySet()) {
        boolean unset = p.getValue() == null || (p.getValue() instanceof Number n && n.longValue() <= 0);
        if (!unset || !(p.getKey().equals("TTL") || p.getKey().equals("MAX_FILESIZE"))) {
          throw new UnsupportedOperationException("snapshot property " + p.getKey() + " => " + p.getValue()
              + " is not supported by Bellows (its snapshots live until deleted)");
        }
      }
    }
    snapshot(name, t, type);
  }

  public void snapshot(String name, TableName t, Map<String, Object> props) throws IOException {
    snapshot(name, t, SnapshotType.FLUSH, props);
  }

  public void snapshot(SnapshotDescription d) throws IOException {
    if (d.getTtl() > 0) {
      throw new UnsupportedOperationException("a snapshot TTL is not supported by Bellows (its snapshots live until deleted)");
    }
    snapshot(d.getName(), d.getTableName(), d.getType());
  }

  /** Done when it returns: the future is complete. */
  public Future<Void> snapshotAsync(SnapshotDescription d) throws IOException {
    snapshot(d);
    return done();
  }

  /**
   * Each snapshot's name, table and creation time; its type is reported as FLUSH (Bellows does not
   * record whether it was flushed).
   */
  public List<SnapshotDescription> listSnapshots() {
    List<SnapshotDescription> out = new ArrayList<>();
    for (SnapshotInfo s : engine.listSnapshots()) {
      out.add(new SnapshotDescription(s.name(), TableName.valueOf(s.table()), SnapshotType.FLUSH, null,
          s.createdMillis(), SNAPSHOT_VERSION));
    }
    return out;
  }

  /** The snapshot format version HBase 2 reports (its manifest v2). */
  private static final int SNAPSHOT_VERSION = 2;

  public List<SnapshotDescription> listSnapshots(Pattern name) {
    return listTableSnapshots(MATCH_ALL, name);
  }

  public List<SnapshotDescription> listSnapshots(String nameRegex) {
    return listSnapshots(Pattern.compile(nameRegex));
  }

  private static final Pattern MATCH_ALL = Pattern.compile(".*");

  /**
   * The snapshots whose table and name match (whole). Unlike HBase, the table pattern is matched
   * against the name the snapshot's table had, so snapshots of dropped tables are listed too.
   */
  public List<SnapshotDescription> listTableSnapshots(Pattern table, Pattern name) {
    List<SnapshotDescription> out = new ArrayList<>();
    for (SnapshotDescription d : listSnapshots()) {
      if (table.matcher(d.getTableNameAsString()).matches() && name.matcher(d.getName()).matches()) {
        out.add(d);
      }
    }
    return out;
  }

  public List<SnapshotDescription> listTableSnapshots(String tableRegex, String nameRegex) {
    return listTableSnapshots(Pattern.compile(tableRegex), Pattern.compile(nameRegex));
  }

  public void deleteSnapshot(String name) throws IOException {
    requireSnapshot(name);
    engine.deleteSnapshot(name);
  }

  public void deleteSnapshot(byte[] name) throws IOException {
    deleteSnapshot(Bytes.toString(name));
  }

  public void deleteSnapshots(Pattern name) throws IOException {
    deleteTableSnapshots(MATCH_ALL, name);
  }

  public void deleteSnapshots(String nameRegex) throws IOException {
    deleteSnapshots(Pattern.compile(nameRegex));
  }

  public void deleteTableSnapshots(Pattern table, Pattern name) throws IOException {
    for (SnapshotDescription d : listTableSnapshots(table, name)) {
      deleteSnapshot(d.getName());
    }
  }

  public void deleteTableSnapshots(String tableRegex, String nameRegex) throws IOException {
    deleteTableSnapshots(Pattern.compile(tableRegex), Pattern.compile(nameRegex));
  }

  public void cloneSnapshot(String name, TableName t) throws IOException {
    requireSnapshot(name);
    engine.cloneSnapshot(name, Convert.name(t));
  }

  public void cloneSnapshot(byte[] name, TableName t) throws IOException {
    cloneSnapshot(Bytes.toString(name), t);
  }

  /** {@code restoreAcl} restores no permissions: Bellows has none to keep in a snapshot. */
  public void cloneSnapshot(String name, TableName t, boolean restoreAcl) throws IOException {
    cloneSnapshot(name, t);
  }

  /** A store-file tracker other than the default (null) is refused: Bellows has one kind of store. */
  public void cloneSnapshot(String name, TableName t, boolean restoreAcl, String customSft) throws IOException {
    if (customSft != null) {
      throw new UnsupportedOperationException("store file tracker '" + customSft + "' is not supported by Bellows");
    }
    cloneSnapshot(name, t);
  }

  public Future<Void> cloneSnapshotAsync(String name, TableName t) throws IOException {
    cloneSnapshot(name, t);
    return done();
  }

  public Future<Void> cloneSnapshotAsync(String name, TableName t, boolean restoreAcl) throws IOException {
    cloneSnapshot(name, t, restoreAcl);
    return done();
  }

  public Future<Void> cloneSnapshotAsync(String name, TableName t, boolean restoreAcl, String customSft)
      throws IOException {
    cloneSnapshot(name, t, restoreAcl, customSft);
    return done();
  }

  /** With a fail-safe snapshot if the configuration asks for one (HBase's default does), as HBase. */
  public void restoreSnapshot(String name) throws IOException {
    restoreSnapshot(name, getConfiguration().getBoolean(FAIL_SAFE_KEY, false), false);
  }

  public void restoreSnapshot(byte[] name) throws IOException {
    restoreSnapshot(Bytes.toString(name));
  }

  public void restoreSnapshot(String name, boolean takeFailSafeSnapshot) throws IOException {
    restoreSnapshot(name, takeFailSafeSnapshot, false);
  }

  public void restoreSnapshot(byte[] name, boolean takeFailSafeSnapshot) throws IOException {
    restoreSnapshot(Bytes.toString(name), takeFailSafeSnapshot);
  }

  /**
   * As HBase: the table must be disabled ({@link TableNotDisabledException}), and a dropped one is
   * created again. With {@code takeFailSafeSnapshot} and the table present, a snapshot of it is
   * taken first ({@code hbase.snapshot.restore.failsafe.name}), restored if the restore fails and
   * deleted once it succeeds. {@code restoreAcl} restores no permissions: Bellows has none.
   */
  public void restoreSnapshot(String name, boolean takeFailSafeSnapshot, boolean restoreAcl) throws IOException {
    SnapshotInfo s = requireSnapshot(name);
    String table = s.table();
    boolean failSafe = takeFailSafeSnapshot && engine.tableExists(table);
    if (engine.tableExists(table) && engine.isTableEnabled(table)) {
      throw new TableNotDisabledException(TableName.valueOf(table));
    }
    if (!failSafe) {
      engine.restoreSnapshot(name);
      return;
    }
    String failSafeName = failSafeName(s);
    engine.snapshot(table, failSafeName, true);
    try {
      engine.restoreSnapshot(name);
    } catch (RuntimeException e) {
      try {
        engine.restoreSnapshot(failSafeName);
      } catch (RuntimeException rollback) {
        e.addSuppressed(rollback);
        throw new RestoreSnapshotException("restoring snapshot '" + name + "' failed (" + e.getMessage()
            + "), and so did rolling back to fail-safe snapshot '" + failSafeName + "', which is kept", e);
      }
      throw new RestoreSnapshotException("restoring snapshot '" + name + "' failed (" + e.getMessage()
          + "); table '" + table + "' was rolled back to fail-safe snapshot '" + failSafeName + "', which is kept", e);
    }
    engine.deleteSnapshot(failSafeName);
  }

  /** HBase's key for the fail-safe snapshot's name, and HBase's default template. */
  static final String FAIL_SAFE_NAME_KEY = "hbase.snapshot.restore.failsafe.name";
  private static final String FAIL_SAFE_NAME = "hbase-failsafe-{snapshot.name}-{restore.timestamp}";

  private String failSafeName(SnapshotInfo s) {
    return getConfiguration().get(FAIL_SAFE_NAME_KEY, FAIL_SAFE_NAME)
        .replace("{snapshot.name}", s.name())
        .replace("{table.name}", s.table())
        .replace("{restore.timestamp}", Long.toString(System.currentTimeMillis()));
  }

  public Future<Void> restoreSnapshotAsync(String name) throws IOException {
    restoreSnapshot(name);
    return done();
  }

  private boolean snapshotExists(String name) {
    return engine.listSnapshots().stream().anyMatch(s -> s.name().equals(name));
  }

  private SnapshotInfo requireSnapshot(String name) throws SnapshotDoesNotExistException {
    for (SnapshotInfo s : engine.listSnapshots()) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    throw new SnapshotDoesNotExistException("snapshot '" + name + "' does not exist");
  }

  public List<RegionInfo> getRegions(TableName t) {
    return Convert.regions(t, engine.regions(Convert.name(t)));
  }

  @Override
  public String toString() {
    return "BellowsAdmin";
  }
}
