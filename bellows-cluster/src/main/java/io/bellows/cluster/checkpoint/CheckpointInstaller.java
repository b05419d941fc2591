package io.bellows.cluster.checkpoint;

import io.bellows.cluster.LogPosition;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.region.Region;
import io.bellows.store.FileNumberAllocator;
import io.bellows.store.Store;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs a leader's checkpoint on a replica left behind the leader's log, crash-safely. Next to
 * the region's directory ({@code region/}) it uses four names of its own: {@code
 * region.checkpoint/} (staging), {@code region.new/} (the staged region under this replica's file
 * numbers), {@code region.install} (the commit marker) and {@code region.old/}.
 *
 * <ol>
 *   <li>Fetch the checkpoint into staging ({@link CheckpointFetcher}: checksummed chunks, several in
 *       flight, each file's CRC32C checked as written, resumable);
 *   <li>check that staging holds the descriptor fetched and each of its files at its length;
 *   <li>close the replica's region (its memory is older than the checkpoint: nothing to keep);
 *   <li>link the staged region into {@code region.new/}, each sorted file under a new number of
 *       the replica's ({@link Store#linkStore}, as a snapshot's clone does: the leader's numbers may
 *       be ones the replica's old files had, whose blocks a cache may still hold);
 *   <li>write the marker (the descriptor), atomically: <b>the commit point</b>;
 *   <li>rename {@code region/} to {@code region.old/}, then {@code region.new/} to {@code region/};
 *   <li>delete {@code region.old/} (only the names Bellows makes there) and staging's descriptor,
 *       then the marker;
 *   <li>reopen the region from the installed files ({@link Reopen}).
 * </ol>
 *
 * A crash before the marker leaves the old region, whole (and staging, which the next fetch
 * resumes); a crash after it is finished by {@link #recover}, which the host calls before it opens
 * the region, or by the next install: every step of the switch is done again or skipped by what
 * the directory shows. So the replica opens either as it was or as the checkpoint, and an install
 * tried again completes.
 */
public final class CheckpointInstaller {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointInstaller.class);
  /** Beside the region's directory: the staging of a fetched checkpoint ({@code region.checkpoint/}). */
  public static final String STAGING_SUFFIX = ".checkpoint";
  /** Beside the region's directory: the file that says an install committed ({@code region.install}). */
  public static final String MARKER_SUFFIX = ".install";
  /** Beside the region's directory: the replaced region during an install ({@code region.old/}). */
  public static final String OLD_SUFFIX = ".old";
  /** Beside the region's directory: the installed region before it is moved in ({@code region.new/}). */
  public static final String NEW_SUFFIX = ".new";

  /** The steps of an install, in order, as a fault hook sees them (after each is done). */
  public enum Step { FETCHED, VERIFIED, CLOSED, RENUMBERED, COMMITTED, OLD_MOVED, NEW_MOVED, OLD_DELETED, DONE }

  /** A test's hook: called after each step; throwing there is a crash at that point. */
  public interface Faults {
    Faults NONE = step -> {};

    void after(Step step) throws IOException;
  }

  /** How the host opens its replica's region again from the installed files (same services, file numbers above the files'). */
  public interface Reopen {
    Region open(Path regionDir);
  }

  /** An installed checkpoint: the region opened on it and the log position its files cover. */
  public record Installed(Region region, LogPosition position, long bytes, int files) {}

  private final FileSystem fs;
  private final Path regionDir;
  private final UUID group;
  private final CheckpointSource source;
  private final Reopen reopen;
  private final FileNumberAllocator numbers;
  private volatile Faults faults = Faults.NONE;
  private final AtomicLong installs = new AtomicLong();
  private final AtomicLong bytesInstalled = new AtomicLong();

  /**
   * The installer of the replica of {@code group} whose region lives in {@code regionDir}; {@code
   * numbers} is the replica's allocator of sorted-file numbers (the one its region's stores use).
   */
  public CheckpointInstaller(FileSystem fs, Path regionDir, UUID group, CheckpointSource source, Reopen reopen,
      FileNumberAllocator numbers) {
    this.fs = fs;
    this.numbers = numbers;
    this.regionDir = regionDir;
    this.group = group;
    this.source = source;
    this.reopen = reopen;
  }

  /** Sets the fault hook (tests). */
  public void faults(Faults f) {
    this.faults = f;
  }

  /** Checkpoints installed by this installer. */
  public long installs() {
    return installs.get();
  }

  /** Bytes fetched for them (files kept from an interrupted fetch not counted). */
  public long bytesInstalled() {
    return bytesInstalled.get();
  }

  static Path staging(Path regionDir) {
    return regionDir.resolveSibling(regionDir.getFileName() + STAGING_SUFFIX);
  }

  static Path marker(Path regionDir) {
    return regionDir.resolveSibling(regionDir.getFileName() + MARKER_SUFFIX);
  }

  static Path renumbered(Path regionDir) {
    return regionDir.resolveSibling(regionDir.getFileName() + NEW_SUFFIX);
  }

  static Path old(Path regionDir) {
    return regionDir.resolveSibling(regionDir.getFileName() + OLD_SUFFIX);
  }

  /**
   * Replaces {@code current} (this replica's region, open or closed by an earlier try) with a
   * checkpoint of {@code leader}'s replica; returns the region opened on it and the position the
   * log continues after.
   */
  public Installed install(String leader, Region current) {
    try {
      if (fs.exists(marker(regionDir))) {
        // An earlier try committed and stopped before the end: finish it; nothing to fetch.
        close(current);
        CheckpointManifest m = finish(fs, regionDir);
        return opened(m, 0);
      }
      CheckpointFetcher.Result fetched;
      try (CheckpointSession s = source.open(group, leader)) {
        if (!s.manifest().group().equals(group)) {
          throw new CorruptionException("asked " + leader + " for a checkpoint of group " + group + ", got one of "
              + s.manifest().group());
        }
        fetched = CheckpointFetcher.fetch(fs, s, staging(regionDir));
      }
      faults.after(Step.FETCHED);
      CheckpointManifest m = verify(fetched.manifest());
      faults.after(Step.VERIFIED);
      if (fs.exists(old(regionDir))) {
        throw new StorageException(old(regionDir) + " is left from an earlier install (it holds files Bellows did not"
            + " make): move them away; nothing was changed");
      }
      close(current);
      faults.after(Step.CLOSED);
      renumber(m);
      faults.after(Step.RENUMBERED);
      AtomicFiles.write(fs, marker(regionDir), m.render().getBytes(StandardCharsets.UTF_8));
      faults.after(Step.COMMITTED);
      switchOver(fs, regionDir, faults);
      return opened(m, fetched.bytes());
    } catch (IOException e) {
      throw new StorageException("cannot install a checkpoint of group " + group + " from " + leader + ": "
          + e.getMessage(), e);
    }
  }

  private Installed opened(CheckpointManifest m, long fetchedBytes) {
    Region r = reopen.open(regionDir);
    installs.incrementAndGet();
    bytesInstalled.addAndGet(fetchedBytes);
    LOG.info("installed the checkpoint of group {} at {} in {}: {} files, {} bytes", group, m.position(), regionDir,
        m.files().size(), m.bytes());
    return new Installed(r, m.position(), m.bytes(), m.files().size());
  }

  private static void close(Region current) {
    if (current != null && !current.isClosedForWork()) {
      current.close(false);
    }
  }

  /**
   * Makes {@code region.new/} of the staged region: each store linked under new numbers (its
   * manifest names them), every other file linked as it is. What an interrupted try left there is
   * deleted first (only names this makes).
   */
  private void renumber(CheckpointManifest m) throws IOException {
    Path target = renumbered(regionDir);
    deleteRegionCopy(fs, target, m);
    if (fs.exists(target)) {
      throw new StorageException(target + " holds files Bellows did not make: move them away; nothing was changed");
    }
    Path staged = staging(regionDir).resolve(CheckpointFiles.REGION);
    AtomicFiles.createDirectories(fs, target);
    for (Path p : fs.list(staged)) {
      if (fs.isDirectory(p)) {
        Store.linkStore(fs, p, target.resolve(p.getFileName().toString()), numbers);
      } else if (!p.getFileName().toString().endsWith(CheckpointFetcher.PART)) {
        fs.link(p, target.resolve(p.getFileName().toString()));
      }
    }
    fs.syncDirectory(target);
    fs.syncDirectory(target.toAbsolutePath().getParent());
  }

  /**
   * The staged descriptor is the one fetched and every file it lists is there at its length. Their
   * bytes are not read again: the fetch checked each one a moment before (the CRC32C of the bytes
   * it wrote, or of the file read back if an earlier fetch left it), and a second read of the
   * whole region here doubled what an install reads.
   */
  private CheckpointManifest verify(CheckpointManifest expected) throws IOException {
    Path staging = staging(regionDir);
    CheckpointManifest staged = CheckpointFetcher.staged(fs, staging);
    if (staged == null || !staged.equals(expected)) {
      throw new CorruptionException(staging + ": the staged checkpoint is not the one fetched");
    }
    for (CheckpointManifest.FileEntry f : staged.files()) {
      Path p = CheckpointFiles.resolve(staging, f.path());
      if (!fs.isFile(p)) {
        throw new CorruptionException("the staged checkpoint's " + f.path() + " is missing");
      }
      long length = fs.length(p);
      if (length != f.length()) {
        throw new CorruptionException("the staged checkpoint's " + f.path() + " has " + length
            + " bytes, the checkpoint says " + f.length());
      }
    }
    return staged;
  }

  /**
   * Before the host opens its replica's region: finishes an install that committed (its marker is
   * there) and stopped before the end. Returns the position the region's files now cover, or null
   * if no install was pending. A staged checkpoint without a marker stays for the next fetch.
   */
  public static LogPosition recover(FileSystem fs, Path regionDir) {
    try {
      if (!fs.exists(marker(regionDir))) {
        return null;
      }
      CheckpointManifest m = finish(fs, regionDir);
      LOG.info("finished installing the checkpoint of group {} at {} in {}", m.group(), m.position(), regionDir);
      return m.position();
    } catch (IOException e) {
      throw new StorageException("cannot finish installing the checkpoint in " + regionDir + ": " + e.getMessage(), e);
    }
  }

  private static CheckpointManifest finish(FileSystem fs, Path regionDir) throws IOException {
    return switchOver(fs, regionDir, Faults.NONE);
  }

  /** Steps 5 and 6, each done again or skipped by what the directory shows. */
  private static CheckpointManifest switchOver(FileSystem fs, Path regionDir, Faults faults) throws IOException {
    Path marker = marker(regionDir);
    CheckpointManifest m = CheckpointManifest.parse(
        io.bellows.fs.ChecksummedText.read(fs, marker, CheckpointManifest.HEADER, "checkpoint install marker"),
        marker.toString());
    Path staging = staging(regionDir);
    Path stagedRegion = renumbered(regionDir);
    Path old = old(regionDir);
    Path parent = regionDir.toAbsolutePath().getParent();
    if (fs.isDirectory(stagedRegion)) {
      if (fs.isDirectory(regionDir)) {
        if (fs.exists(old)) {
          throw new StorageException(old + " exists while " + regionDir + " and the staged " + stagedRegion
              + " do: not a state an install leaves; look at them before opening the replica");
        }
        fs.rename(regionDir, old);
        fs.syncDirectory(parent);
      }
      faults.after(Step.OLD_MOVED);
      fs.rename(stagedRegion, regionDir);
      fs.syncDirectory(parent);
    } else if (!fs.isDirectory(regionDir)) {
      throw new StorageException("neither " + regionDir + " nor the staged " + stagedRegion + " exists, yet "
          + marker + " says an install committed");
    }
    faults.after(Step.NEW_MOVED);
    deleteRegionCopy(fs, old, m);
    faults.after(Step.OLD_DELETED);
    deleteRegionCopy(fs, staging.resolve(CheckpointFiles.REGION), m);
    fs.delete(staging.resolve(CheckpointManifest.FILE_NAME));
    fs.delete(staging.resolve(CheckpointFetcher.FETCHING));
    if (fs.isDirectory(staging) && fs.list(staging).isEmpty()) {
      fs.deleteDirectory(staging);
    }
    fs.delete(marker);
    fs.syncDirectory(parent);
    faults.after(Step.DONE);
    return m;
  }

  /**
   * Deletes a copy of a region this installer made or replaced ({@code region.old/}, the staged
   * region, an interrupted {@code region.new/}): in each store directory the names Bellows makes
   * there, at its top the files the checkpoint also carries (the region's own kinds of files);
   * anything else stays, and the directory with it, said so.
   */
  private static void deleteRegionCopy(FileSystem fs, Path old, CheckpointManifest m) throws IOException {
    if (!fs.isDirectory(old)) {
      return;
    }
    List<Path> left = new ArrayList<>();
    for (Path p : fs.list(old)) {
      String name = p.getFileName().toString();
      if (fs.isDirectory(p)) {
        boolean empty = true;
        for (Path f : fs.list(p)) {
          if (fs.isFile(f) && StoreManifest.isStoreFileName(f.getFileName().toString())) {
            fs.delete(f);
          } else {
            left.add(f);
            empty = false;
          }
        }
        if (empty) {
          fs.deleteDirectory(p);
        }
      } else if (m.file(CheckpointFiles.REGION + "/" + name) != null
          || (name.endsWith(".tmp") && m.file(CheckpointFiles.REGION + "/" + name.substring(0, name.length() - 4)) != null)) {
        fs.delete(p);
      } else {
        left.add(p);
      }
    }
    if (left.isEmpty()) {
      fs.deleteDirectory(old);
    } else {
      LOG.warn("left {} in {} after installing a checkpoint: not made by Bellows", left, old);
    }
  }
}
