package io.bellows.engine;

import io.bellows.config.Knobs;
import io.bellows.fs.FileSystem;
import io.bellows.region.Region;
import io.bellows.store.Store;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits regions: on request (at a key, or at the middle of the largest region), and by itself
 * after a flush or compaction that brings a region to its table's {@code MAX_FILESIZE}. The steps
 * of a split ({@link SplitListener#STEPS}) and why the catalog is its one commit point are in
 * docs/design/split.md; a split that does not commit is rolled back here, or at the next open.
 */
final class RegionSplitter {
  private static final Logger LOG = LoggerFactory.getLogger(RegionSplitter.class);

  private final FileSystem fs;
  private final DataDirectory layout;
  private final EngineTables tables;
  private final RegionOpener opener;
  private final AtomicLong sequence;
  private final BackgroundWork background;
  private final BackgroundErrors errors;
  private final SplitListener listener;
  private final LongAdder splits;
  /**
   * Tables whose routing no longer matches the catalog: a split committed but its daughters did not
   * open. Their splits, snapshots, alters and bulk loads are refused until the table is disabled and
   * enabled again or the engine reopened (either opens the daughters).
   */
  private final Set<String> unfinished = ConcurrentHashMap.newKeySet();
  /** Regions with an automatic split queued. */
  private final Set<Region> queued = ConcurrentHashMap.newKeySet();

  RegionSplitter(FileSystem fs, DataDirectory layout, EngineTables tables, RegionOpener opener, AtomicLong sequence,
      BackgroundWork background, BackgroundErrors errors, io.bellows.metrics.MetricSet metrics,
      SplitListener listener) {
    this.fs = fs;
    this.layout = layout;
    this.tables = tables;
    this.opener = opener;
    this.sequence = sequence;
    this.background = background;
    this.errors = errors;
    this.listener = listener;
    this.splits = metrics.counter("regions.split"); // counted later, reported from open on (at 0)
  }

  /** Splits the region of the table that holds the most data at its middle key: see {@link Engine#split(String)}. */
  void split(String table) {
    synchronized (tables.ddlLock) {
      TableRegions t = tables.regionsOf(table);
      byte[] key = null;
      long most = -1;
      for (Region r : t.regions()) {
        long bytes = 0;
        for (Store st : r.stores().values()) {
          bytes += st.metrics().getOrDefault("store.files.bytes", 0L).longValue();
        }
        if (bytes > most) {
          byte[] mid = r.midKey();
          if (mid != null) {
            most = bytes;
            key = mid;
          }
        }
      }
      if (key == null) {
        throw new IllegalArgumentException("table '" + table + "' has no split point: no region holds enough"
            + " data in its range (two data blocks in its largest file); give a split key");
      }
      split(table, key);
    }
  }

  /** Splits the region holding {@code splitKey} there: see {@link Engine#split(String, byte[])}. */
  void split(String table, byte[] splitKey) {
    if (splitKey == null || splitKey.length == 0) {
      throw new IllegalArgumentException("a split key must not be empty");
    }
    SplitKeys.check(List.of(splitKey));
    synchronized (tables.ddlLock) {
      TableRegions t = tables.regionsOf(table);
      Catalog.Entry e = tables.entry(table);
      int index = t.indexOf(splitKey);
      Catalog.Span span = t.spans().get(index);
      if (java.util.Arrays.equals(span.start(), splitKey)) {
        throw new IllegalArgumentException("split key '" + Bytes.toStringBinary(splitKey) + "' is the start of"
            + " region " + span.id() + " already: a split key must lie strictly inside a region");
      }
      Region parent = t.regions().get(index);
      splitRegion(table, e, t, index, parent, splitKey.clone());
    }
  }

  /** Refuses a change of a table whose routing no longer matches the catalog (see {@link #unfinished}). */
  void checkRoutingCurrent(String table) {
    if (unfinished.contains(table)) {
      throw new StorageException("a split of table '" + table + "' committed but its daughters could not be opened:"
          + " disable and enable the table, or reopen the engine, first");
    }
  }

  /** The table was disabled: enabling it opens the regions the catalog lists. */
  void forget(String table) {
    unfinished.remove(table);
  }

  private void splitRegion(String table, Catalog.Entry e, TableRegions t, int index, Region parent, byte[] key) {
    checkRoutingCurrent(table);
    Catalog.Span span = t.spans().get(index);
    parent.blockForSplit(); // writes wait, every store flushed, compactions kept out
    Catalog.SplitIntent intent = null;
    boolean committed = false;
    List<Region> daughters = new ArrayList<>();
    try {
      listener.step("flushed");
      tables.writeCatalog(tables.catalog().withIntent(e.id(), span.id(), key));
      intent = tables.catalog().intent();
      listener.step("intent-written");
      layoutDaughters(e, span, intent, parent);
      // Under the block every edit of the parent has a sequence id at or below the engine's now:
      // the daughters' ids are based above the parent's last.
      Catalog next = tables.catalog().splitCommitted(sequence.get());
      tables.writeCatalog(next); // the commit point
      committed = true;
      listener.step("committed");
      List<Catalog.Span> spans = new ArrayList<>(t.spans());
      List<Catalog.Span> made = daughterSpans(next.tables().get(table), intent);
      for (Catalog.Span d : made) {
        daughters.add(opener.openRecovered(e, d));
      }
      List<Region> regions = new ArrayList<>(t.regions());
      spans.set(index, made.get(1));
      spans.add(index, made.get(0));
      regions.set(index, daughters.get(1));
      regions.add(index, daughters.get(0));
      tables.route(table, new TableRegions(t.tableId(), spans, regions));
      parent.close(false); // under the write block: no write is inside it; waiting ones re-route
      errors.forget(parent);
      listener.step("parent-closed");
    } catch (RuntimeException ex) {
      if (!committed) {
        rollBack(e, intent, ex);
      } else {
        // Committed, but a daughter did not open. The parent was flushed under the block, so the
        // daughters' files hold all of its data; it is closed and stays in the routing, so reads and
        // writes of its rows fail (RegionClosedException) until a reopen opens the daughters. The
        // table's other regions go on serving, and are flushed and closed with the engine: were
        // they dropped from the routing, nothing would flush them, and the log files holding their
        // edits would be deleted as if they were.
        for (Region r : daughters) {
          r.close(false);
        }
        parent.close(false);
        unfinished.add(table);
        ex.addSuppressed(new StorageException("the split of region " + span.id() + " of table '" + table
            + "' committed but its daughters could not be opened; its rows are unavailable until the engine is"
            + " reopened"));
        LOG.error("the split of region {} of table '{}' committed but its daughters could not be opened; its rows"
            + " are unavailable until the engine is reopened", span.id(), table, ex);
      }
      throw ex;
    } finally {
      parent.unblockAfterSplit();
    }
    deleteParent(parent, span);
    listener.step("parent-deleted");
    LOG.info("split region {} of table '{}' at '{}' into {} and {}", span.id(), table, Bytes.toStringBinary(key),
        daughters.get(0).id(), daughters.get(1).id());
    splits.increment();
    if (!tables.closed()) {
      for (Region r : daughters) {
        background.requestCompaction(r);
      }
    }
  }

  /** Links the parent's stores into each daughter's directory (the daughters of the intent). */
  private void layoutDaughters(Catalog.Entry e, Catalog.Span span, Catalog.SplitIntent intent, Region parent) {
    parent.linkStoresInto(layout.tableDir(e).resolve(TableDirectories.regionName(intent.daughterA())));
    listener.step("daughter-a-linked");
    parent.linkStoresInto(layout.tableDir(e).resolve(TableDirectories.regionName(intent.daughterB())));
    listener.step("daughters-linked");
  }

  /** The two daughters of the intent as the committed catalog lists them, in key order. */
  private static List<Catalog.Span> daughterSpans(Catalog.Entry committed, Catalog.SplitIntent intent) {
    Catalog.Span a = null;
    Catalog.Span b = null;
    for (Catalog.Span s : committed.regions()) {
      if (s.id() == intent.daughterA()) {
        a = s;
      } else if (s.id() == intent.daughterB()) {
        b = s;
      }
    }
    return List.of(a, b);
  }

  private void deleteParent(Region parent, Catalog.Span span) {
    try {
      List<Path> left = TableDirectories.deleteRegion(fs, parent.directory());
      if (!left.isEmpty()) {
        LOG.warn("left {} in {}: not made by Bellows", left, parent.directory());
      }
    } catch (IOException ex) {
      LOG.warn("could not delete {} of split region {}; it is deleted at the next open", parent.directory(),
          span.id(), ex);
    }
  }

  /** Undoes a split that did not commit: daughters' directories deleted, the intent removed. */
  private void rollBack(Catalog.Entry e, Catalog.SplitIntent intent, RuntimeException cause) {
    if (intent == null) {
      return;
    }
    try {
      for (int d : new int[] {intent.daughterA(), intent.daughterB()}) {
        TableDirectories.deleteRegion(fs, layout.tableDir(e).resolve(TableDirectories.regionName(d)));
      }
      tables.writeCatalog(tables.catalog().withoutIntent());
    } catch (IOException | RuntimeException ex) {
      cause.addSuppressed(ex); // the intent stays: the next open rolls it back
    }
  }

  /**
   * After a background flush or compaction of a region: if its largest store's sorted files reach
   * the table's {@code MAX_FILESIZE}, queues a split of it at its middle key on the split thread.
   */
  void maybeSplit(Region r) {
    if (tables.closed() || r.isClosedForWork() || r.largestStoreBytes() < r.descriptor().get(Knobs.MAX_FILESIZE)
        || r.holdsRowsOutsideRange()) {
      return; // small enough, or a daughter whose linked files are not rewritten yet: they count twice
    }
    if (queued.add(r)) {
      background.split(() -> {
        try {
          autoSplit(r);
        } catch (RuntimeException e) {
          LOG.warn("automatic split of region {} failed; it is tried again after its next flush or compaction",
              r.id(), e);
        } finally {
          queued.remove(r);
        }
      });
    }
  }


  private void autoSplit(Region r) {
    synchronized (tables.ddlLock) {
      if (tables.closed() || r.isClosedForWork()) {
        return;
      }
      for (Map.Entry<String, TableRegions> t : tables.routings().entrySet()) {
        int index = t.getValue().regions().indexOf(r);
        if (index < 0) {
          continue;
        }
        if (r.largestStoreBytes() < r.descriptor().get(Knobs.MAX_FILESIZE) || r.holdsRowsOutsideRange()) {
          return;
        }
        byte[] key = r.midKey();
        if (key == null) {
          LOG.debug("region {} reached MAX_FILESIZE but has no middle key", r.id());
          return;
        }
        LOG.info("region {} of table '{}' reached MAX_FILESIZE; splitting it", r.id(), t.getKey());
        splitRegion(t.getKey(), tables.entry(t.getKey()), t.getValue(), index, r, key);
        return;
      }
    }
  }
}
