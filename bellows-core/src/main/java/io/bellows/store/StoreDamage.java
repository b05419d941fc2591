package io.bellows.store;

import io.bellows.util.BackgroundError;
import io.bellows.util.CorruptionException;
import io.bellows.util.DamagedFileException;
import io.bellows.util.StorageException;
import io.bellows.util.WritesStoppedException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The corruption policy of one store (docs/ARCHITECTURE.md, "Background errors"): a compaction that
 * meets a damaged sorted file names it, and from then on the store's compactions and writes stop
 * until the file is set aside ({@link #quarantine}) or repaired offline.
 */
final class StoreDamage {
  private final StoreContext ctx;
  private final String family;
  private final StoreFiles files;
  /** The damaged file a compaction met, null while none. */
  private volatile DamagedFileException damaged;
  /** The background error {@link #damaged} stands for (what refused writes name). */
  private volatile BackgroundError error;

  StoreDamage(StoreContext ctx, String family, StoreFiles files) {
    this.ctx = ctx;
    this.family = family;
    this.files = files;
  }

  /**
   * A compaction met corruption: checks each input, block by block, to name the damaged file. If
   * one is, marks the store damaged (its compactions and writes stop) and returns what to throw;
   * if none is (the damage was not on disk), the original failure, retried as any other. The
   * caller still holds a reference to each input.
   */
  RuntimeException classify(List<StoreFile> inputs, CorruptionException e) {
    for (StoreFile f : inputs) {
      FileCheck.Result r = FileCheck.check(ctx.fs(), f.path(), f.id());
      if (r.clean()) {
        continue;
      }
      FileCheck.Damage d = r.damages().get(0);
      DamagedFileException found = new DamagedFileException(d.problem(), f.path(), d.offset(), ctx.table(),
          family, e);
      error = new BackgroundError(BackgroundError.Kind.CORRUPTION, BackgroundError.Severity.HARD, ctx.table(),
          d.problem() + "; writes to family '" + family + "' are refused until `bellows repair --fix` sets the"
              + " file aside (with the engine closed)",
          java.time.Instant.ofEpochMilli(ctx.clock().currentTimeMillis()), 1);
      damaged = found;
      return found;
    }
    return e;
  }

  /** The damaged file a compaction met, or null. */
  DamagedFileException damage() {
    return damaged;
  }

  /** The background error of {@link #damage()}, or null. */
  BackgroundError error() {
    return error;
  }

  /** Throws {@link WritesStoppedException} if the store is damaged. One volatile read. */
  void checkWritable() {
    DamagedFileException d = damaged;
    if (d != null) {
      throw new WritesStoppedException("write refused, nothing of it was applied: family '" + family
          + "' of table '" + ctx.table() + "' stopped accepting writes because its sorted file " + d.file()
          + " is damaged (" + d.getMessage() + "); reads of other data go on. Close the engine and run"
          + " `bellows repair --fix DATA_DIR` (it sets the file aside, losing its cells), then reopen", error, d);
    }
  }

  /**
   * Sets the damaged file aside as {@code target} (see {@code Store#quarantine}); the caller holds
   * the store's compaction lock and the store is open. Returns false if the file is no longer live.
   */
  boolean quarantine(DamagedFileException d, Path target) {
    StoreFile victim = null;
    for (StoreFile f : files.live()) {
      if (f.path().equals(d.file())) {
        victim = f;
      }
    }
    if (victim == null) {
      return false;
    }
    try {
      ctx.fs().createDirectories(target.getParent());
      ctx.fs().link(victim.path(), target);
      ctx.fs().syncDirectory(target.getParent());
    } catch (IOException e) {
      throw new StorageException("cannot set damaged " + victim.path() + " aside as " + target, e);
    }
    victim.retain(); // commit releases the store's reference
    try {
      files.commit(List.of(), List.of(victim), files.flushedSeqId());
    } finally {
      victim.release();
    }
    damaged = null;
    error = null;
    return true;
  }
}
