package io.bellows.store;

import io.bellows.manifest.StoreManifest;
import io.bellows.sstable.BlockSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's live sorted files and the manifest that lists them: every change of the file set (a
 * flush's new file, a compaction's output for its inputs, a loaded file, a file set aside) is one
 * manifest write, then one swap of an immutable list.
 *
 * <p>Threads: the list is behind a volatile reference, replaced under {@code filesLock} together
 * with the manifest; readers retain the files of the list they read without a lock, and read the list
 * again if one of its files was released meanwhile ({@link #retainLive}), so a file is deleted only
 * after its last reader closes. A change writes its manifest before it takes {@code
 * filesLock}, holding only {@code commitLock} (which serializes changes and close): the write and
 * its syncs take milliseconds to a hundred, and every get retains the files, so under the lock
 * they stalled the gets of a store that flushes or compacts (docs/bench/log/2026-11-27-reads-while-writing.md).
 * Lock order: {@code commitLock}, then {@code filesLock}.
 */
final class StoreFiles {
  private static final Logger LOG = LoggerFactory.getLogger(StoreFiles.class);

  private final Path dir;
  private final StoreContext ctx;
  private final Object commitLock = new Object();
  private final Object filesLock = new Object();
  /** Changed under both locks; read under either (or without, as a snapshot). */
  private volatile List<StoreFile> files;
  private StoreManifest manifest; // changed under both locks; read under either
  /** Set under both locks before the files are released; read without a lock by {@link #retainLive}. */
  private volatile boolean closed;
  /** Bytes, pages and blocks read from files that are no longer live (their readers are gone from the list). */
  private final LongAdder retiredBytesRead = new LongAdder();
  private final LongAdder retiredPagesRead = new LongAdder();
  private final LongAdder retiredBlocksRead = new LongAdder();
  /** Tests only: told how many files {@link #retainLive} holds after each one it retains. */
  private IntConsumer afterRetain;

  private StoreFiles(Path dir, StoreContext ctx, StoreManifest manifest, List<StoreFile> files) {
    this.dir = dir;
    this.ctx = ctx;
    this.manifest = manifest;
    this.files = List.copyOf(files);
  }

  /** Loads the manifest of the store in {@code dir}, deletes leftovers and opens the listed files. */
  static StoreFiles open(Path dir, StoreContext ctx, BlockSource.Wrapper blocks) throws IOException {
    StoreManifest manifest = StoreManifest.load(ctx.fs(), dir);
    deleteLeftovers(dir, ctx, manifest);
    List<StoreFile> opened = new ArrayList<>();
    for (long id : manifest.fileIds()) {
      opened.add(StoreFile.open(ctx.fs(), dir.resolve(StoreManifest.fileName(id)), id, ctx.engineInstanceId(), blocks));
    }
    return new StoreFiles(dir, ctx, manifest, opened);
  }

  /**
   * Deletes sorted files the manifest does not list and temporary files: what an interrupted flush
   * or compaction leaves. Files of names Bellows never makes are left alone, with a warning.
   */
  private static void deleteLeftovers(Path dir, StoreContext ctx, StoreManifest manifest) throws IOException {
    for (Path p : ctx.fs().list(dir)) {
      String name = p.getFileName().toString();
      if (name.equals(StoreManifest.FILE_NAME)) {
        continue;
      }
      if (!StoreManifest.isStoreFileName(name)) {
        LOG.warn("{} was not made by Bellows; leaving it alone", p);
        continue;
      }
      long id = StoreManifest.parseFileId(name);
      if (id < 0 || !manifest.fileIds().contains(id)) {
        LOG.info("deleting leftover {} of an interrupted flush or compaction", p);
        ctx.fs().delete(p);
      }
    }
  }

  /** The live files now, oldest data first (an immutable snapshot; not retained for reading). */
  List<StoreFile> live() {
    return files;
  }

  /** Tests only: set before the readers start; {@code hook} runs after each file retainLive retains. */
  void afterRetainForTest(IntConsumer hook) {
    this.afterRetain = hook;
  }

  /** The manifest now. */
  StoreManifest manifest() {
    synchronized (filesLock) {
      return manifest;
    }
  }

  /** Highest sequence id whose edits are all in the files. */
  long flushedSeqId() {
    synchronized (filesLock) {
      return manifest.flushedSeqId();
    }
  }

  /**
   * The live files, each retained for the caller (who releases each); null once the store closed
   * (its files are released: a read would silently miss them).
   */
  List<StoreFile> retainLive() {
    // No lock: every get and scan comes here, and a reader preempted under a lock kept the others
    // waiting a scheduler slice. The store holds a reference on each file of the current list and
    // gives it up only after the list no longer holds the file (a change swaps the list first; close
    // sets closed first), so a file found released means a newer list or closed is there to read.
    for (;;) {
      List<StoreFile> pinned = files;
      if (closed) {
        return null;
      }
      int held = 0;
      while (held < pinned.size() && pinned.get(held).tryRetain()) {
        held++;
        if (afterRetain != null) {
          afterRetain.accept(held);
        }
      }
      if (held == pinned.size()) {
        return pinned;
      }
      for (int i = 0; i < held; i++) {
        pinned.get(i).release();
      }
    }
  }

  /**
   * Makes {@code added} live and {@code removed} obsolete in one manifest write, then swaps the
   * in-memory list. Removed files are deleted when their last reader closes.
   */
  void commit(List<StoreFile> added, List<StoreFile> removed, long flushedSeqId) {
    synchronized (commitLock) {
      List<StoreFile> next = new ArrayList<>();
      List<Long> ids = new ArrayList<>();
      // A compaction's output takes the place of its oldest input, keeping files in age order.
      boolean placed = removed.isEmpty();
      for (StoreFile f : files) {
        if (removed.contains(f)) {
          if (!placed) {
            next.addAll(added);
            placed = true;
          }
          continue;
        }
        next.add(f);
      }
      if (removed.isEmpty()) {
        next.addAll(added);
      }
      for (StoreFile f : next) {
        ids.add(f.id());
      }
      // nextFileId: the engine counter now, above every file number handed out so far (each added
      // file's number included), so the max over all manifests bounds the numbers in use at open.
      long nextFileId = Math.max(manifest.nextFileId(), ctx.fileNumbers().next());
      StoreManifest m = new StoreManifest(Math.max(flushedSeqId, manifest.flushedSeqId()), nextFileId, ids);
      try {
        m.write(ctx.fs(), dir); // readers go on retaining the current list meanwhile
      } catch (IOException e) {
        // The disk may hold the old manifest or the new one (a failure after the rename, e.g. of
        // the directory sync): keep the added files, so that either names only files that exist.
        // Under the old one they are leftovers, deleted at the next open; under the new one the
        // inputs are, and the added files hold their cells.
        for (StoreFile f : added) {
          f.release();
        }
        throw new UncheckedIOException("cannot write manifest of " + dir, e);
      }
      synchronized (filesLock) {
        manifest = m;
        files = List.copyOf(next);
      }
    }
    for (StoreFile f : removed) {
      retiredBytesRead.add(f.bytesRead());
      retiredPagesRead.add(f.pagesRead());
      retiredBlocksRead.add(f.blocksRead());
      f.markForDeletion();
      f.release();
    }
  }

  long bytes() {
    long n = 0;
    for (StoreFile f : files) {
      n += f.size();
    }
    return n;
  }

  long bytesRead() {
    long n = retiredBytesRead.sum();
    for (StoreFile f : files) {
      n += f.bytesRead();
    }
    return n;
  }

  long pagesRead() {
    long n = retiredPagesRead.sum();
    for (StoreFile f : files) {
      n += f.pagesRead();
    }
    return n;
  }

  long blocksRead() {
    long n = retiredBlocksRead.sum();
    for (StoreFile f : files) {
      n += f.blocksRead();
    }
    return n;
  }

  /** Releases the store's reference to every file; reads from then on fail. */
  void close() {
    synchronized (commitLock) {
      synchronized (filesLock) {
        closed = true;
        for (StoreFile f : files) {
          f.release();
        }
        files = List.of();
      }
    }
  }
}
