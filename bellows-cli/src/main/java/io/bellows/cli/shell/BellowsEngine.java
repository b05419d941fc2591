package io.bellows.cli.shell;

import io.bellows.client.Bellows;
import io.bellows.client.Table;
import io.bellows.engine.RegionInfo;
import io.bellows.schema.TableDescriptor;
import java.util.List;
import java.util.Map;

/** {@link Engine} over a real {@link Bellows}: every call delegates. Thread-safe as Bellows is. */
final class BellowsEngine implements Engine {
  private final Bellows db;
  private final Session session;

  BellowsEngine(Bellows db, Session session) {
    this.db = db;
    this.session = session;
  }

  @Override
  public Session session() {
    return session;
  }

  @Override
  public void createTable(TableDescriptor descriptor) {
    db.createTable(descriptor);
  }

  @Override
  public void createTable(TableDescriptor descriptor, List<byte[]> splitKeys) {
    db.createTable(descriptor, splitKeys);
  }

  @Override
  public List<RegionInfo> regions(String table) {
    return db.regions(table);
  }

  @Override
  public TableDescriptor describeTable(String name) {
    return db.describeTable(name);
  }

  @Override
  public List<String> listTables() {
    return db.listTables();
  }

  @Override
  public boolean tableExists(String name) {
    return db.tableExists(name);
  }

  @Override
  public void disableTable(String name) {
    db.disableTable(name);
  }

  @Override
  public void enableTable(String name) {
    db.enableTable(name);
  }

  @Override
  public boolean isTableEnabled(String name) {
    return db.isTableEnabled(name);
  }

  @Override
  public void dropTable(String name) {
    db.dropTable(name);
  }

  @Override
  public Table getTable(String name) {
    return db.getTable(name);
  }

  @Override
  public java.util.Optional<io.bellows.util.BackgroundError> backgroundError() {
    return db.backgroundError();
  }

  @Override
  public void resume() {
    db.resume();
  }

  @Override
  public io.bellows.engine.VerifyReport verify() {
    return db.verify();
  }

  @Override
  public void flush(String table) {
    db.flush(table);
  }

  @Override
  public void compact(String table) {
    db.compact(table);
  }

  @Override
  public void majorCompact(String table) {
    db.majorCompact(table);
  }

  @Override
  public void split(String table) {
    db.split(table);
  }

  @Override
  public void split(String table, byte[] splitKey) {
    db.split(table, splitKey);
  }

  @Override
  public Map<String, Number> metrics() {
    return db.metrics();
  }

  @Override
  public Map<String, Map<String, Number>> storeMetrics(String table) {
    return db.storeMetrics(table);
  }

  @Override
  public void modifyTable(TableDescriptor next) {
    db.modifyTable(next);
  }

  @Override
  public long bulkLoad(String table, Map<String, List<java.nio.file.Path>> files) {
    return db.bulkLoad(table, files);
  }

  @Override
  public void snapshot(String table, String name, boolean flush) {
    db.snapshot(table, name, flush);
  }

  @Override
  public List<io.bellows.engine.SnapshotInfo> listSnapshots() {
    return db.listSnapshots();
  }

  @Override
  public void deleteSnapshot(String name) {
    db.deleteSnapshot(name);
  }

  @Override
  public void cloneSnapshot(String name, String table) {
    db.cloneSnapshot(name, table);
  }

  @Override
  public void restoreSnapshot(String name) {
    db.restoreSnapshot(name);
  }

  @Override
  public void close() {
    db.close();
  }
}
