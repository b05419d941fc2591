package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.FileSystem;
import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.store.Store;
import io.bellows.util.DamagedFileException;
import io.bellows.util.EventListener;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the engine does when a compaction meets a damaged sorted file (docs/ARCHITECTURE.md,
 * "Background errors"): count it and tell the listeners; then, with {@code
 * bellows.corruption.quarantine}, set the file aside online as {@code repair --fix} would (the store
 * goes on without its cells), else record a HARD CORRUPTION background error naming the file.
 * Never a retry.
 */
final class CorruptionPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(CorruptionPolicy.class);

  private final FileSystem fs;
  private final Path dir;
  private final EngineOptions options;
  private final BackgroundErrors errors;
  private final Listeners events;
  private final BackgroundWork background;
  private final LongAdder corruptFiles;
  private final LongAdder quarantinedFiles;
  /** Damaged-file findings already handled (a damaged store throws the same one again). */
  private final Set<DamagedFileException> handled = ConcurrentHashMap.newKeySet();

  CorruptionPolicy(FileSystem fs, Path dir, EngineOptions options, BackgroundErrors errors, Listeners events,
      BackgroundWork background, MetricSet metrics) {
    this.fs = fs;
    this.dir = dir;
    this.options = options;
    this.errors = errors;
    this.events = events;
    this.background = background;
    this.corruptFiles = metrics.counter("corruption.files.found");
    this.quarantinedFiles = metrics.counter("corruption.files.quarantined");
  }

  /**
   * A compaction of the region met a damaged sorted file; the store already refuses writes and
   * compactions. Returns whether the file was set aside. Each finding is handled once.
   */
  boolean damagedFileFound(Region region, DamagedFileException e) {
    if (!handled.add(e)) {
      return false;
    }
    corruptFiles.increment();
    Store store = region.stores().get(e.family());
    String aside = null;
    if (options.get(Knobs.CORRUPTION_QUARANTINE) && store != null) {
      Path target = Repair.setAsideTarget(fs, dir, e.file());
      try {
        if (store.quarantine(e, target)) {
          aside = dir.relativize(target).toString();
          quarantinedFiles.increment();
        }
      } catch (RuntimeException failed) {
        LOG.error("cannot set damaged {} aside; writes to its store stay stopped", e.file(), failed);
      }
    }
    if (aside == null && store != null && store.damageError() != null) {
      errors.corrupted(region, store.damageError(), e); // recorded before the event: listeners see it
    }
    events.corruptionFound(new EventListener.CorruptionInfo(e.table(), e.family(), dir.relativize(e.file()).toString(),
        e.offset(), e.getMessage(), aside));
    if (aside == null) {
      return false;
    }
    LOG.error("{}: a compaction of table '{}' met a damaged file; set it aside as {} (its cells are lost; older"
        + " versions they hid may show again); the store goes on: {}", dir, e.table(), aside, e.getMessage());
    background.requestCompaction(region);
    return true;
  }

  /**
   * Compacts the region (major or minor), sending a damaged file met to {@link #damagedFileFound};
   * throws it unless it was set aside (then the compaction runs again without it).
   */
  void compact(Region r, boolean major) {
    while (true) {
      try {
        r.compact(major);
        return;
      } catch (DamagedFileException e) {
        if (!damagedFileFound(r, e)) {
          throw e;
        }
      }
    }
  }
}
