package io.bellows.engine;

import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.util.BackgroundError;
import io.bellows.util.BackgroundError.Kind;
import io.bellows.util.BackgroundError.Severity;
import io.bellows.util.Clock;
import io.bellows.util.EventListener;
import io.bellows.util.WritesStoppedException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's background-error state: which kinds of work fail for which table, since when, how
 * often, and whether that stops writes. One entry per (kind, region); the WAL has one engine-wide
 * entry. The policy (docs/ARCHITECTURE.md, "Background errors"):
 *
 * <ul>
 *   <li>a failing flush is SOFT until it has failed {@code bellows.flush.failures.stop.writes}
 *       times in a row, or until a writer blocked on the table's full memory store has waited
 *       {@code bellows.store.blocking.wait.ms} for it; then HARD;
 *   <li>a failing compaction is SOFT (it stops writes only through the too-many-files back-pressure);
 *   <li>a WAL failure is HARD at once and clears only by reopening the engine;
 *   <li>a damaged file met by a compaction (CORRUPTION) is HARD at once and never retried; it stops
 *       writes to its store only (the store refuses them), and clears only when the file is set
 *       aside: online by quarantine, or offline by {@code bellows repair --fix} and a reopen.
 * </ul>
 *
 * <p>While any FLUSH or WAL entry is HARD every write is refused. An entry goes when its work succeeds. The log
 * gets one line per change (an ERROR when work starts failing or stops writes, an INFO when it works
 * again), and listeners get {@link EventListener#backgroundError} and {@link
 * EventListener#errorRecovered} for the same changes, on the thread that saw the change.
 *
 * <p>Thread-safe: changes are made, and their events fired, under this object's monitor (so each
 * listener sees one entry's changes in order); queries read volatile snapshots without locking.
 */
final class BackgroundErrors {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundErrors.class);

  /** Worst first: stopping all writes, then other HARD (a damaged store), then SOFT; then WAL, FLUSH, the rest; then the oldest. */
  private static final Comparator<BackgroundError> WORST_FIRST = Comparator
      .comparing((BackgroundError e) -> e.stopsWrites() ? 0 : e.severity() == Severity.HARD ? 1 : 2)
      .thenComparing(e -> e.kind() == Kind.WAL ? 0 : e.kind() == Kind.FLUSH ? 1 : 2)
      .thenComparing(BackgroundError::since);

  private record Key(Kind kind, Region region) {}

  private final Map<Key, BackgroundError> entries = new LinkedHashMap<>(); // guarded by this
  private final Map<Key, Throwable> causes = new LinkedHashMap<>(); // guarded by this
  private final EventListener events;
  private final LongAdder flushFailures;
  private final LongAdder compactionFailures;
  private final Clock clock;
  private final int hardAfterFlushFailures;
  private final Runnable wakeWriters;
  private final String engineName;
  /** The worst entry, null if none. */
  private volatile BackgroundError worst;
  /** The worst entry if it is HARD (writes stopped), else null. */
  private volatile BackgroundError stopped;
  private volatile int failingWork;
  /** The cause of {@link #stopped}'s last failure. */
  private volatile Throwable stoppedCause;

  /**
   * @param wakeWriters wakes writers waiting on back-pressure, so that they see writes stopped; called
   *     under this object's monitor, so it must only hand the waking to another thread (a writer
   *     holding its region's monitor may be waiting for this one)
   */
  BackgroundErrors(EventListener events, MetricSet metrics, Clock clock, int hardAfterFlushFailures,
      Runnable wakeWriters, String engineName) {
    this.events = events;
    this.flushFailures = metrics.counter("flush.failures");
    this.compactionFailures = metrics.counter("compaction.failures");
    this.clock = clock;
    this.hardAfterFlushFailures = hardAfterFlushFailures;
    this.wakeWriters = wakeWriters;
    this.engineName = engineName;
  }

  /** The worst current error, if any. */
  Optional<BackgroundError> current() {
    return Optional.ofNullable(worst);
  }

  /**
   * 0: no error, 1: work failing and retried, or a store refusing writes for a damaged file, 2: all
   * writes stopped (the metric background.error.state).
   */
  int stateCode() {
    BackgroundError w = worst;
    return w == null ? 0 : w.stopsWrites() ? 2 : 1;
  }

  /** Flush and compaction entries: (table, kind) pairs failing now. */
  int failingWork() {
    return failingWork;
  }

  /** Throws if writes are stopped. Called before every write: one volatile read when they are not. */
  void checkWritesAllowed() {
    BackgroundError s = stopped;
    if (s != null) {
      throw refusal(s);
    }
  }

  /** Consecutive failures of a kind of work of a region so far (0 while it works). */
  int attempts(Kind kind, Region region) {
    if (worst == null) {
      return 0;
    }
    synchronized (this) {
      BackgroundError e = entries.get(new Key(kind, region));
      return e == null ? 0 : e.attempts();
    }
  }

  /** Whether the WAL failed: then writes are stopped until resume() recovers it or the engine is reopened. */
  synchronized boolean walFailed() {
    return entries.containsKey(new Key(Kind.WAL, null));
  }

  /** The failing (kind, region) pairs of flushes and compactions, oldest first. */
  synchronized List<Map.Entry<Kind, Region>> failing() {
    List<Map.Entry<Kind, Region>> out = new ArrayList<>();
    for (Key k : entries.keySet()) {
      if (k.region() != null && k.kind() != Kind.CORRUPTION) {
        out.add(Map.entry(k.kind(), k.region()));
      }
    }
    return out;
  }

  /**
   * A compaction of the region met a damaged file (the store now refuses writes; {@code error} is
   * its CORRUPTION error): recorded HARD at once, never retried. One entry per region (the first
   * damaged file; each is logged).
   */
  synchronized void corrupted(Region region, BackgroundError error, Throwable cause) {
    Key key = new Key(Kind.CORRUPTION, region);
    LOG.error("{}: a background compaction of table '{}' met a damaged file, not retried; writes to its store are"
        + " refused, reads of other data go on: {}", engineName, error.table(), error.message(), cause);
    if (entries.containsKey(key)) {
      return;
    }
    put(key, error, cause);
    events.backgroundError(error);
  }

  /** An attempt of background work failed. */
  synchronized void failed(Kind kind, Region region, Throwable cause) {
    (kind == Kind.FLUSH ? flushFailures : compactionFailures).increment();
    Key key = new Key(kind, region);
    BackgroundError before = entries.get(key);
    int attempts = before == null ? 1 : before.attempts() + 1;
    Severity severity = before == null ? Severity.SOFT : before.severity();
    if (kind == Kind.FLUSH && attempts >= hardAfterFlushFailures) {
      severity = Severity.HARD;
    }
    BackgroundError now = new BackgroundError(kind, severity, region.descriptor().name(),
        BackgroundError.messageOf(cause), before == null ? now() : before.since(), attempts);
    // Logged before the state is published: a writer refused because of it finds the line written.
    if (before == null) {
      LOG.error("background {} of table '{}' failed; retrying with backoff up to every {} s until it works"
          + " (one line is logged when it does){}", kind.name().toLowerCase(), now.table(),
          BackgroundWork.RETRY_MAX_MS / 1000, severity == Severity.HARD ? "; writes are stopped meanwhile" : "",
          cause);
    } else if (before.severity() != severity) {
      LOG.error("{} stops writes: {} failed {} times in a row since {}; writes resume when a retry or"
          + " resume() succeeds", engineName, now.describe(), attempts, now.since());
    } else {
      LOG.debug("background {} of table '{}' failed again ({} in a row)", kind.name().toLowerCase(), now.table(),
          attempts, cause);
    }
    put(key, now, cause);
    if (before == null || before.severity() != severity) {
      events.backgroundError(now);
    }
    if (now.stopsWrites() && (before == null || !before.stopsWrites())) {
      wakeWriters.run();
    }
  }

  /**
   * A writer waited the longest allowed on a full memory store while the region's flushes failed:
   * the flush failure becomes HARD. Returns what the writer throws.
   */
  synchronized WritesStoppedException flushStalled(Region region, RuntimeException flushFailure, long waitedMs) {
    Key key = new Key(Kind.FLUSH, region);
    BackgroundError before = entries.get(key);
    if (before == null || !before.stopsWrites()) {
      BackgroundError now = new BackgroundError(Kind.FLUSH, Severity.HARD, region.descriptor().name(),
          BackgroundError.messageOf(flushFailure), before == null ? now() : before.since(),
          before == null ? 1 : before.attempts());
      LOG.error("{} stops writes: a writer waited {} ms on the full memory store of table '{}' while {}; writes"
          + " resume when a retry or resume() succeeds", engineName, waitedMs, now.table(), now.describe());
      put(key, now, flushFailure);
      events.backgroundError(now);
      wakeWriters.run();
    }
    return refusal(stopped);
  }

  /** The WAL failed and could not heal itself: writes stop until resume() recovers it or the engine is reopened. */
  synchronized void walFailed(Throwable cause) {
    Key key = new Key(Kind.WAL, null);
    BackgroundError before = entries.get(key);
    if (before != null) {
      return;
    }
    BackgroundError now = new BackgroundError(Kind.WAL, Severity.HARD, null, BackgroundError.messageOf(cause),
        now(), 1);
    put(key, now, cause);
    LOG.error("write-ahead log failure: {} stops accepting writes until resume() recovers the log or the engine is"
        + " reopened (reads keep working)", engineName, cause);
    events.backgroundError(now);
    wakeWriters.run();
  }

  /** The WAL works again ({@code resume()} recovered it): its entry goes and writes resume. */
  synchronized void walRecovered() {
    Key key = new Key(Kind.WAL, null);
    BackgroundError gone = entries.get(key);
    if (gone == null) {
      return;
    }
    remove(key);
    LOG.info("the write-ahead log of {} works again{}", engineName, stopped == null ? "; writes are accepted again" : "");
    events.errorRecovered(gone);
  }

  /** The work succeeded: its entry, if any, goes. */
  void succeeded(Kind kind, Region region) {
    if (worst == null) {
      return; // the common case, without locking
    }
    synchronized (this) {
      Key key = new Key(kind, region);
      BackgroundError gone = entries.get(key);
      if (gone == null) {
        return;
      }
      remove(key);
      LOG.info("background {} of table '{}' works again after {} failed attempts{}", kind.name().toLowerCase(),
          gone.table(), gone.attempts(), gone.stopsWrites() && stopped == null ? "; writes are accepted again" : "");
      events.errorRecovered(gone);
    }
  }

  /** The region was closed (its table disabled): its entries go without an event. */
  synchronized void forget(Region region) {
    for (Kind k : new Kind[] {Kind.FLUSH, Kind.COMPACTION, Kind.CORRUPTION}) {
      remove(new Key(k, region));
    }
  }

  /** The exception a refused write gets (no locking: writers call it holding their region's monitor). */
  private WritesStoppedException refusal(BackgroundError reason) {
    Throwable cause = reason == stopped ? stoppedCause : null;
    String resume = reason.kind() == Kind.WAL
        ? "writes resume once Bellows.resume() recovers the log (it fences the failed file and rewrites what was"
            + " not yet forced to a new one) or the engine is closed and reopened"
        : "writes resume once a background retry or Bellows.resume() succeeds";
    return new WritesStoppedException("write refused, nothing of it was applied: " + engineName
        + " stopped accepting writes because " + reason.describe() + "; " + resume, reason, cause);
  }

  private void put(Key key, BackgroundError e, Throwable cause) {
    entries.put(key, e);
    causes.put(key, cause);
    recompute();
  }

  private void remove(Key key) {
    entries.remove(key);
    causes.remove(key);
    recompute();
  }

  private void recompute() {
    BackgroundError w = entries.values().stream().min(WORST_FIRST).orElse(null);
    int work = 0;
    for (Key k : entries.keySet()) {
      if (k.region() != null && k.kind() != Kind.CORRUPTION) {
        work++;
      }
    }
    failingWork = work;
    Key wk = null;
    for (Map.Entry<Key, BackgroundError> e : entries.entrySet()) {
      if (e.getValue() == w) {
        wk = e.getKey();
      }
    }
    stoppedCause = wk == null ? null : causes.get(wk);
    stopped = w != null && w.stopsWrites() ? w : null; // worst first: a stopping entry comes before the rest
    worst = w;
  }

  private Instant now() {
    return Instant.ofEpochMilli(clock.currentTimeMillis());
  }
}
