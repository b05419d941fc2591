package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.region.Region;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.store.Store;
import io.bellows.wal.Wal;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a data directory back at open, under its lock: the catalog read (or written, for a new
 * directory; or written again, for an older format), an unfinished split rolled back, what crashed
 * work left deleted, an interrupted bulk load rolled forward, the enabled tables' regions opened,
 * the WAL replayed into them, and the sequence set above every id seen.
 */
final class EngineRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(EngineRecovery.class);

  private final FileSystem fs;
  private final Path dir;
  private final DataDirectory layout;
  private final EngineOptions options;
  private final EngineTables tables;
  private final Snapshots snapshots;
  private final RegionOpener opener;
  private final WalRetention walRetention;
  private final AtomicLong sequence;
  private final AtomicLong nextFileNumber;
  private final MetricSet metrics;

  EngineRecovery(FileSystem fs, Path dir, DataDirectory layout, EngineOptions options, EngineTables tables,
      Snapshots snapshots, RegionOpener opener, WalRetention walRetention, AtomicLong sequence,
      AtomicLong nextFileNumber, MetricSet metrics) {
    this.fs = fs;
    this.dir = dir;
    this.layout = layout;
    this.options = options;
    this.tables = tables;
    this.snapshots = snapshots;
    this.opener = opener;
    this.walRetention = walRetention;
    this.sequence = sequence;
    this.nextFileNumber = nextFileNumber;
    this.metrics = metrics;
  }

  void recover() throws IOException {
    OptionsFile.check(fs, dir, options); // first: a newer format is refused before anything is read
    if (Catalog.exists(fs, dir)) {
      Catalog c = Catalog.load(fs, dir);
      if (c.upgraded()) {
        // Its regions got identities as it was read: written before anything uses them, so they stay.
        c.write(fs, dir);
        LOG.info("wrote the catalog of {} in format version {}", dir, Catalog.VERSION);
      }
      tables.loaded(c);
    } else if (DataDirectory.isNew(fs, dir)) {
      // The catalog is the directory's identity: written first, before any other file.
      Catalog.empty().write(fs, dir);
      tables.loaded(Catalog.empty());
    } else {
      DataDirectory.checkOpenable(fs, dir); // something appeared since the check before the lock: refuse as there
    }
    AtomicFiles.createDirectories(fs, layout.tables());
    tables.loaded(layout.rollBackSplitIntent(tables.catalog()));
    Catalog catalog = tables.catalog();
    // Before anything is deleted or opened: every number on disk is counted, leftovers included.
    nextFileNumber.set(FileNumberScan.firstFree(fs, layout.tables(), layout.listedStoreDirectories(catalog)));
    layout.deleteUnlistedTableDirectories(catalog);
    for (Catalog.Entry e : catalog.tables().values()) {
      layout.deleteUnlistedRegionDirectories(e);
    }
    snapshots.deleteIncomplete();
    new BulkLoader(fs, dir).rollForward(); // before any store opens: it would delete the files as unlisted
    Map<Integer, Region> byId = new TreeMap<>();
    for (Catalog.Entry e : catalog.tables().values()) {
      if (e.enabled()) {
        TableRegions t = opener.openTable(e);
        tables.route(e.descriptor().name(), t);
        for (Region r : t.regions()) {
          byId.put(r.id(), r);
        }
      }
    }
    replay(byId, highestFlushedSeqId(catalog));
    OptionsFile.record(fs, dir, options);
  }

  /** Opens the WAL and replays its edits into the regions they belong to; sets the sequence above every id. */
  private void replay(Map<Integer, Region> byId, long highestFlushed) {
    Wal wal = Wal.open(fs, layout.wal(), OptionsResolver.wal(options));
    walRetention.opened(wal);
    AtomicLong maxReplayed = new AtomicLong(highestFlushed);
    AtomicLong replayed = new AtomicLong();
    AtomicLong skipped = new AtomicLong();
    wal.replay(edit -> {
      maxReplayed.accumulateAndGet(edit.seqId(), Math::max);
      Region r = byId.get(edit.regionId());
      if (r != null && r.replay(edit)) {
        replayed.incrementAndGet();
      } else {
        skipped.incrementAndGet(); // already flushed, or of a dropped or disabled table
      }
    });
    sequence.set(maxReplayed.get());
    for (Region r : tables.allRegions()) {
      r.recovered(sequence.get());
    }
    if (replayed.get() > 0) {
      LOG.info("replayed {} WAL edits into {} ({} skipped: already in sorted files or of no open table)",
          replayed.get(), dir, skipped.get());
    }
    metrics.counter("wal.edits.replayed").add(replayed.get());
    metrics.counter("wal.edits.skipped").add(skipped.get());
  }

  /**
   * The highest sequence id in any sorted file, of enabled and disabled tables alike. New sequence
   * ids must lie above it even when the WAL is empty: an edit numbered at or below a store's
   * flushedSeqId would be skipped by the next replay, losing it.
   */
  private long highestFlushedSeqId(Catalog catalog) throws IOException {
    long highest = 0;
    for (Region r : tables.allRegions()) {
      for (Store s : r.stores().values()) {
        highest = Math.max(highest, s.flushedSeqId());
      }
    }
    for (Catalog.Entry e : catalog.tables().values()) {
      if (!e.enabled()) {
        for (Catalog.Span span : e.regions()) {
          for (ColumnFamilyDescriptor f : e.descriptor().families()) {
            highest = Math.max(highest, StoreManifest.load(fs, layout.regionDir(e, span).resolve(f.name())).flushedSeqId());
          }
        }
      }
    }
    return highest;
  }
}
