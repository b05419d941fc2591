package io.bellows.engine;

import io.bellows.fs.FileSystem;
import io.bellows.region.Region;
import io.bellows.util.EngineClosedException;
import io.bellows.util.StorageException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's tables as every part of it sees them: the catalog (the durable list) and the open
 * regions of each enabled table (the routing), whether the engine is closed, and the lock that
 * every change of the catalog or the routing takes ({@link #ddlLock}).
 *
 * <p>The catalog and the routing are read without the lock (both are replaced whole, never changed
 * in place); they are written only under it.
 */
final class EngineTables {
  private final FileSystem fs;
  private final Path dir;
  /** Held by every change of the catalog or of the routing (creates, drops, alters, splits, snapshots). */
  final Object ddlLock = new Object();
  /** The open regions of every enabled table, by table name. */
  private final Map<String, TableRegions> open = new ConcurrentHashMap<>();
  private volatile Catalog catalog;
  private volatile boolean closed;

  EngineTables(FileSystem fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  Catalog catalog() {
    return catalog;
  }

  /** Takes {@code c} as the catalog without writing it (it was just read or written at open). */
  void loaded(Catalog c) {
    catalog = c;
  }

  /** Writes {@code next} durably, then makes it the catalog. */
  void writeCatalog(Catalog next) {
    try {
      next.write(fs, dir);
      catalog = next;
    } catch (IOException e) {
      throw new StorageException("cannot write the catalog of " + dir, e);
    }
  }

  boolean closed() {
    return closed;
  }

  /** Marks the engine closed; returns false if it already was. Callers hold {@link #ddlLock}. */
  boolean close() {
    if (closed) {
      return false;
    }
    closed = true;
    return true;
  }

  void checkOpen() {
    if (closed) {
      throw new EngineClosedException("the engine of " + dir + " is closed");
    }
  }

  /** The routing of an enabled table, or null. */
  TableRegions routing(String name) {
    return open.get(name);
  }

  Map<String, TableRegions> routings() {
    return open;
  }

  void route(String name, TableRegions regions) {
    open.put(name, regions);
  }

  TableRegions unroute(String name) {
    return open.remove(name);
  }

  /** Every open region of every enabled table. */
  List<Region> allRegions() {
    List<Region> out = new ArrayList<>();
    for (TableRegions t : open.values()) {
      out.addAll(t.regions());
    }
    return out;
  }

  /** The regions of an enabled table; throws as the API says if it is missing or disabled. */
  TableRegions regionsOf(String name) {
    checkOpen();
    TableRegions r = open.get(name);
    if (r == null) {
      Catalog.Entry e = catalog.tables().get(name);
      if (e == null) {
        throw new TableNotFoundException("table '" + name + "' does not exist");
      }
      throw new TableNotEnabledException("table '" + name + "' is disabled");
    }
    return r;
  }

  /** The table's regions, if the table is still the table of the reference and enabled. */
  TableRegions regionsOf(TableRef table) {
    TableRegions t = regionsOf(table.name());
    if (t.tableId() != table.id()) {
      throw new TableNotFoundException("table '" + table.name() + "' was dropped; the table of"
          + " that name now is a new one: get a new handle");
    }
    return t;
  }

  /** The catalog's entry of a table; throws if it does not exist. */
  Catalog.Entry entry(String name) {
    checkOpen();
    Catalog.Entry e = catalog.tables().get(name);
    if (e == null) {
      throw new TableNotFoundException("table '" + name + "' does not exist");
    }
    return e;
  }
}
