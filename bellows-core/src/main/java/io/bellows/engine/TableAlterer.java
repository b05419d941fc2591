package io.bellows.engine;

import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.region.Region;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.FileNumberAllocator;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Changes a table's settings and families online (HBase's alter): see {@link LocalEngine#modifyTable}. */
final class TableAlterer {
  private static final Logger LOG = LoggerFactory.getLogger(TableAlterer.class);

  private final FileSystem fs;
  private final DataDirectory layout;
  private final EngineTables tables;
  private final RegionOpener opener;
  private final RegionSplitter splitter;
  private final BackgroundErrors errors;
  private final AtomicLong sequence;
  private final FileNumberAllocator fileNumbers;

  TableAlterer(FileSystem fs, DataDirectory layout, EngineTables tables, RegionOpener opener, RegionSplitter splitter,
      BackgroundErrors errors, AtomicLong sequence, FileNumberAllocator fileNumbers) {
    this.fs = fs;
    this.layout = layout;
    this.tables = tables;
    this.opener = opener;
    this.splitter = splitter;
    this.errors = errors;
    this.sequence = sequence;
    this.fileNumbers = fileNumbers;
  }

  void modifyTable(TableDescriptor next) {
    synchronized (tables.ddlLock) {
      tables.checkOpen();
      Catalog.Entry e = tables.entry(next.name());
      splitter.checkRoutingCurrent(next.name());
      Set<String> before = familyNames(e.descriptor());
      Set<String> after = familyNames(next);
      Catalog.Entry changed = new Catalog.Entry(e.id(), next, e.enabled(), e.regions());
      try {
        for (Catalog.Span span : e.regions()) {
          Path region = layout.regionDir(e, span);
          for (String f : after) {
            if (!before.contains(f)) {
              Path store = region.resolve(f);
              TableDirectories.deleteStore(fs, store); // a crashed alter's leftovers: never listed
              AtomicFiles.createDirectories(fs, store);
              new StoreManifest(sequence.get(), fileNumbers.next(), List.of()).write(fs, store);
            }
          }
          fs.syncDirectory(region);
        }
      } catch (IOException ex) {
        throw new StorageException("cannot alter table '" + next.name() + "': " + ex.getMessage(), ex);
      }
      tables.writeCatalog(tables.catalog().with(changed)); // the commit point
      TableRegions t = tables.routing(next.name());
      if (t != null) {
        for (int i = 0; i < t.regions().size(); i++) {
          reopen(next.name(), changed, i);
        }
      }
      for (Catalog.Span span : e.regions()) {
        for (String f : before) {
          if (!after.contains(f)) {
            try {
              TableDirectories.deleteStore(fs, layout.regionDir(e, span).resolve(f));
            } catch (IOException ex) {
              LOG.warn("could not delete the store of deleted family '{}' of table '{}'; it is deleted at the next"
                  + " open", f, next.name(), ex);
            }
          }
        }
      }
      LOG.info("altered table '{}': {}", next.name(), next);
    }
  }

  /** Reopens region {@code i} of an open table under {@code e}'s settings, as a split replaces its parent. */
  private void reopen(String table, Catalog.Entry e, int i) {
    TableRegions t = tables.routing(table);
    Region old = t.regions().get(i);
    Catalog.Span span = t.spans().get(i);
    old.blockForSplit(); // writes wait, every store flushed, compactions kept out
    try {
      Region fresh = opener.openRecovered(e, span);
      List<Region> regions = new ArrayList<>(t.regions());
      regions.set(i, fresh);
      tables.route(table, new TableRegions(t.tableId(), t.spans(), regions));
      old.close(false); // waiting writers find it closed and out of the routing: they go to the new one
      errors.forget(old);
    } finally {
      old.unblockAfterSplit();
    }
  }

  private static Set<String> familyNames(TableDescriptor d) {
    Set<String> out = new LinkedHashSet<>();
    for (ColumnFamilyDescriptor f : d.families()) {
      out.add(f.name());
    }
    return out;
  }
}
