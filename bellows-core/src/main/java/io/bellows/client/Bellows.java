package io.bellows.client;

import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An embedded Bellows engine over one data directory: the entry point of the API.
 *
 * <pre>{@code
 * try (Bellows db = Bellows.open(Path.of("data"), EngineOptions.defaults())) {
 *   db.createTable(TableDescriptor.builder("t").family("f").build());
 *   Table t = db.getTable("t");
 *   t.put(new Put("row1").addColumn("f", "q", "v"));
 * }
 * }</pre>
 *
 * Thread-safe. One engine per directory: a second open of the same directory fails.
 */
public final class Bellows implements AutoCloseable {
  private Bellows() {}

  /** Opens (creating if needed) the store in {@code dir}, replaying its WAL. */
  public static Bellows open(Path dir, EngineOptions options) {
    throw new UnsupportedOperationException("not yet");
  }

  public void createTable(TableDescriptor descriptor) {
    throw new UnsupportedOperationException("not yet");
  }

  public TableDescriptor describeTable(String name) {
    throw new UnsupportedOperationException("not yet");
  }

  public List<String> listTables() {
    throw new UnsupportedOperationException("not yet");
  }

  public boolean tableExists(String name) {
    throw new UnsupportedOperationException("not yet");
  }

  public void disableTable(String name) {
    throw new UnsupportedOperationException("not yet");
  }

  public void enableTable(String name) {
    throw new UnsupportedOperationException("not yet");
  }

  public boolean isTableEnabled(String name) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Drops a disabled table and deletes its data. */
  public void dropTable(String name) {
    throw new UnsupportedOperationException("not yet");
  }

  public Table getTable(String name) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Flushes every memory store of the table to disk and waits for it. */
  public void flush(String table) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Runs a minor compaction of each store of the table if its policy picks files; waits. */
  public void compact(String table) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Compacts all files of each store of the table into one, dropping deleted/expired/surplus data; waits. */
  public void majorCompact(String table) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Engine-wide metrics by name (WAL, flushes, compactions, blocked time, GC). */
  public Map<String, Number> metrics() {
    throw new UnsupportedOperationException("not yet");
  }

  /** Per-store metrics of a table: family name -&gt; metric name -&gt; value. */
  public Map<String, Map<String, Number>> storeMetrics(String table) {
    throw new UnsupportedOperationException("not yet");
  }

  /** The data directory. */
  public Path directory() {
    throw new UnsupportedOperationException("not yet");
  }

  /** Flushes nothing: closes the WAL (synced), stops background work, releases the directory lock. */
  @Override
  public void close() {
    throw new UnsupportedOperationException("not yet");
  }
}
