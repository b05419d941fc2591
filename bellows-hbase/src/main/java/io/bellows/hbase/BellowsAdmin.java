package io.bellows.hbase;

import io.bellows.engine.Engine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HTableDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactType;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The supported part of HBase's {@link Admin}: tables (create with split keys, delete, disable,
 * enable, exists, list, describe, truncate, clone the schema), flush, compactions, split and the
 * region list ({@link RegionNames} for the per-region methods HBase's shell tries first). {@link
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

  /** Flushes the whole table: Bellows flushes a table's families together. */
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

  public List<RegionInfo> getRegions(TableName t) {
    return Convert.regions(t, engine.regions(Convert.name(t)));
  }

  @Override
  public String toString() {
    return "BellowsAdmin";
  }
}
