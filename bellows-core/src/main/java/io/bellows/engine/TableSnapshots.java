package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.region.Region;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.FileNumberAllocator;
import io.bellows.util.StorageException;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots of the engine's tables: taking one of a table at one point of its history, and making
 * a table of one (clone, restore). The snapshot directory itself is {@link Snapshots}' work; this
 * class blocks the table's regions, links, and changes the catalog and the routing.
 */
final class TableSnapshots {
  private static final Logger LOG = LoggerFactory.getLogger(TableSnapshots.class);

  private final FileSystem fs;
  private final EngineOptions options;
  private final DataDirectory layout;
  private final Snapshots snapshots;
  private final EngineTables tables;
  private final RegionOpener opener;
  private final RegionSplitter splitter;
  private final WalRetention walRetention;
  private final AtomicLong sequence;
  private final FileNumberAllocator fileNumbers;

  TableSnapshots(FileSystem fs, EngineOptions options, DataDirectory layout, Snapshots snapshots, EngineTables tables,
      RegionOpener opener, RegionSplitter splitter, WalRetention walRetention, AtomicLong sequence,
      FileNumberAllocator fileNumbers) {
    this.fs = fs;
    this.options = options;
    this.layout = layout;
    this.snapshots = snapshots;
    this.tables = tables;
    this.opener = opener;
    this.splitter = splitter;
    this.walRetention = walRetention;
    this.sequence = sequence;
    this.fileNumbers = fileNumbers;
  }

  /** See {@link LocalEngine#snapshot}. */
  void snapshot(String table, String name, boolean flush) {
    Snapshots.checkName(name);
    synchronized (tables.ddlLock) {
      tables.checkOpen();
      Catalog.Entry e = tables.entry(table);
      if (snapshots.exists(name)) {
        throw new IllegalArgumentException("snapshot '" + name + "' already exists");
      }
      long now = options.clock().currentTimeMillis();
      splitter.checkRoutingCurrent(table);
      if (!e.enabled()) {
        snapshots.write(name, table, e, layout, null, now);
        return;
      }
      List<Region> regions = tables.regionsOf(table).regions();
      List<Region> blocked = new ArrayList<>();
      try {
        for (Region r : regions) {
          r.blockForSnapshot(flush);
          blocked.add(r);
        }
        snapshots.write(name, table, e, layout, regions, now);
      } finally {
        for (int i = blocked.size() - 1; i >= 0; i--) {
          blocked.get(i).unblockAfterSplit();
        }
      }
      if (flush) {
        walRetention.deleteObsolete();
      }
    }
  }

  List<SnapshotInfo> list() {
    tables.checkOpen();
    synchronized (tables.ddlLock) {
      return snapshots.list();
    }
  }

  void delete(String name) {
    synchronized (tables.ddlLock) {
      tables.checkOpen();
      snapshots.delete(name);
    }
  }

  /** See {@link LocalEngine#cloneSnapshot}. */
  void cloneSnapshot(String name, String table) {
    synchronized (tables.ddlLock) {
      tables.checkOpen();
      Snapshots.Loaded s = snapshots.load(name);
      Catalog catalog = tables.catalog();
      if (catalog.tables().containsKey(table)) {
        throw new TableExistsException("table '" + table + "' already exists");
      }
      TableDescriptor d = s.table().descriptor().toBuilder(table).build();
      Catalog.Entry e = new Catalog.Entry(catalog.nextTableId(), d, true,
          catalog.newRegions(splitKeysOf(s.table()), sequence.get()));
      Path td = layout.tableDir(e);
      try {
        if (fs.exists(td)) {
          DataDirectory.deleteTableDirectory(fs, td); // an interrupted create's leftovers: its id was never listed
        }
        AtomicFiles.createDirectories(fs, td);
        e = e.withSeqIdBase(linkSnapshotRegions(s, e));
        tables.writeCatalog(catalog.with(e));
      } catch (IOException | RuntimeException ex) {
        RuntimeException failure = ex instanceof RuntimeException re ? re
            : new StorageException("cannot clone snapshot '" + name + "' into table '" + table + "'", ex);
        try {
          DataDirectory.deleteTableDirectory(fs, td);
        } catch (IOException suppressed) {
          failure.addSuppressed(suppressed); // unlisted: deleted at the next open
        }
        throw failure;
      }
      tables.route(table, opener.openTableRecovered(e));
    }
  }

  /** See {@link LocalEngine#restoreSnapshot}. */
  void restoreSnapshot(String name) {
    synchronized (tables.ddlLock) {
      tables.checkOpen();
      Snapshots.Loaded s = snapshots.load(name);
      String table = s.info().table();
      Catalog.Entry old = tables.catalog().tables().get(table);
      if (old != null) {
        restoreInto(s, old);
        return;
      }
    }
    cloneSnapshot(name, snapshots.load(name).info().table());
  }

  private void restoreInto(Snapshots.Loaded s, Catalog.Entry old) {
    String table = old.descriptor().name();
    if (old.enabled()) {
      throw new TableNotEnabledException("table '" + table + "' is enabled: disable it before restoring a"
          + " snapshot into it");
    }
    TableDescriptor d = s.table().descriptor().toBuilder(table).build();
    Catalog.Entry e = new Catalog.Entry(old.id(), d, false,
        tables.catalog().newRegions(splitKeysOf(s.table()), sequence.get()));
    try {
      e = e.withSeqIdBase(linkSnapshotRegions(s, e));
    } catch (RuntimeException ex) {
      for (Catalog.Span span : e.regions()) {
        try {
          TableDirectories.deleteRegion(fs, layout.regionDir(e, span));
        } catch (IOException suppressed) {
          ex.addSuppressed(suppressed); // unlisted: deleted at the next open
        }
      }
      throw ex;
    }
    tables.writeCatalog(tables.catalog().with(e)); // the commit point: the old regions are unlisted now
    for (Catalog.Span span : old.regions()) {
      try {
        TableDirectories.deleteRegion(fs, layout.regionDir(old, span));
      } catch (IOException ex) {
        LOG.warn("could not delete region {} of table '{}' after a restore; it is deleted at the next open",
            span.id(), table, ex);
      }
    }
  }

  /** The split keys that give a table the region boundaries of {@code e}. */
  private static List<byte[]> splitKeysOf(Catalog.Entry e) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 1; i < e.regions().size(); i++) {
      keys.add(e.regions().get(i).start());
    }
    return keys;
  }

  /**
   * Links each region of the snapshot into the matching region of {@code e}; raises the sequence
   * above its edits (a snapshot from another engine may hold later sequence ids) and returns it:
   * the base of the new regions' sequence ids.
   */
  private long linkSnapshotRegions(Snapshots.Loaded s, Catalog.Entry e) {
    long highest = 0;
    for (int i = 0; i < e.regions().size(); i++) {
      highest = Math.max(highest, snapshots.linkRegion(s, s.table().regions().get(i),
          layout.regionDir(e, e.regions().get(i)), fileNumbers));
    }
    long h = highest;
    return sequence.accumulateAndGet(h, Math::max);
  }
}
