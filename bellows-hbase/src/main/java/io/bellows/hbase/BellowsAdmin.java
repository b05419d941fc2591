package io.bellows.hbase;

import io.bellows.engine.Engine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * The supported part of HBase's {@link Admin}: tables (create with split keys, delete, disable,
 * enable, exists, list, describe), flush, compactions, split and the region list. {@link
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

  public boolean tableExists(TableName t) {
    return engine.tableExists(Convert.name(t));
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

  public void flush(TableName t) {
    engine.flush(Convert.name(t));
  }

  /** Runs at once on the caller's thread (HBase only queues a compaction). */
  public void compact(TableName t) {
    engine.compact(Convert.name(t));
  }

  public void majorCompact(TableName t) {
    engine.majorCompact(Convert.name(t));
  }

  public void split(TableName t) {
    engine.split(Convert.name(t));
  }

  public void split(TableName t, byte[] splitPoint) {
    engine.split(Convert.name(t), splitPoint);
  }

  public List<RegionInfo> getRegions(TableName t) {
    List<RegionInfo> out = new ArrayList<>();
    for (io.bellows.engine.RegionInfo r : engine.regions(Convert.name(t))) {
      out.add(RegionInfoBuilder.newBuilder(t).setStartKey(r.startKey()).setEndKey(r.endKey()).setRegionId(r.id()).build());
    }
    return out;
  }

  @Override
  public String toString() {
    return "BellowsAdmin";
  }
}
