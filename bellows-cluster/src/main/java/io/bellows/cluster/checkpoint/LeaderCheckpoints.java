package io.bellows.cluster.checkpoint;

import io.bellows.cluster.LogPosition;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.fs.ReadableFile;
import io.bellows.region.Region;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoints one replica of a region hands to replicas left behind its log, each a directory
 * {@code checkpoints/TERM-INDEX-N/} of the replica: {@code region/} with hard links to the sorted
 * files every store's manifest names and a copy of each manifest ({@link Region#linkStoresInto}), a
 * hard link to every other regular file directly in the region's directory (a file a replica keeps
 * for its replication state travels this way, whatever it is), then the {@code CHECKPOINT}
 * descriptor ({@link CheckpointManifest}) listing every file with its length and CRC32C. Hard
 * links keep the files' bytes while compactions replace the region's own.
 *
 * <p>Consistency: the region is blocked (writes, applies, flushes, compactions) and flushed while
 * its files are linked, and the position is the log's last applied entry read then ({@code
 * applied}): every entry up to it is in the files. An entry applied just before the block but not
 * yet counted as applied is in the files too, past the position; the follower's stores skip it
 * when the log hands it again, as after a restart.
 *
 * <p>A checkpoint lives until its session closes; at most {@link #MAX_OPEN} are kept (a reader that
 * vanished without closing loses its checkpoint to the next one, and its follower asks again).
 * Thread-safe.
 */
public final class LeaderCheckpoints {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderCheckpoints.class);
  /** One per other replica of a five-member cluster: every follower can install at once. */
  static final int MAX_OPEN = 4;

  private final FileSystem fs;
  private final Path root;
  private final UUID group;
  private final AtomicLong numbers = new AtomicLong();
  private final Deque<Path> open = new ArrayDeque<>();

  /** The checkpoints of the replica of {@code group} kept in {@code root} (the replica's {@code checkpoints/}). */
  public LeaderCheckpoints(FileSystem fs, Path root, UUID group) {
    this.fs = fs;
    this.root = root;
    this.group = group;
  }

  /**
   * Deletes what checkpoints a stopped process left (they served sessions that are gone). Only
   * what a checkpoint is made of goes: files under {@code region/}, the descriptor and their
   * directories; a directory holding anything else is left, and said so.
   */
  public synchronized void deleteLeftovers() {
    if (!fs.isDirectory(root)) {
      return;
    }
    try {
      for (Path p : fs.list(root)) {
        if (fs.isDirectory(p) && p.getFileName().toString().matches("\\d+-\\d+-\\d+")) {
          delete(p);
        }
      }
    } catch (IOException e) {
      LOG.warn("could not delete the checkpoints left in {}: {}", root, e.toString());
    }
  }

  /**
   * Takes a checkpoint of {@code region}, this replica's of the group, at the position {@code
   * applied} gives while the region is blocked (the log's last applied entry), and opens it for
   * reading.
   */
  public CheckpointSession open(Region region, Supplier<LogPosition> applied) throws IOException {
    return open(region, applied, copy -> {});
  }

  /**
   * The replica's replication state a checkpoint carries beside the region's files (the region's
   * table of answered calls): written into the checkpoint's copy of the region while the region is
   * blocked, after the position is read, so it is as of that position (or later: entries past it that
   * the follower replays at the same indexes).
   */
  public interface ReplicaState {
    void writeInto(Path regionCopy) throws IOException;
  }

  /**
   * As {@link #open(Region, Supplier)}, with {@code state} written into the checkpoint while the
   * region is blocked, after the position is read (a file of the region's directory of the same name
   * does not travel).
   */
  public CheckpointSession open(Region region, Supplier<LogPosition> applied, ReplicaState state) throws IOException {
    AtomicFiles.createDirectories(fs, root);
    LogPosition at;
    Path dir;
    Path regionCopy;
    region.blockForSnapshot(true);
    try {
      at = applied.get();
      if (at == null) {
        throw new IOException("the replica of group " + group + " has applied nothing yet: no checkpoint to hand out");
      }
      dir = root.resolve(at.term() + "-" + at.index() + "-" + numbers.incrementAndGet());
      regionCopy = dir.resolve(CheckpointFiles.REGION);
      AtomicFiles.createDirectories(fs, regionCopy);
      region.linkStoresInto(regionCopy);
      state.writeInto(regionCopy);
      for (Path p : fs.list(region.directory())) {
        String name = p.getFileName().toString();
        if (fs.isFile(p) && !name.endsWith(".tmp") && !fs.exists(regionCopy.resolve(name))) {
          fs.link(p, regionCopy.resolve(name));
        }
      }
      fs.syncDirectory(regionCopy);
    } catch (IOException | RuntimeException e) {
      throw e instanceof IOException io ? io : new IOException("cannot take a checkpoint of group " + group + ": " + e, e);
    } finally {
      region.unblockAfterSplit();
    }
    List<CheckpointManifest.FileEntry> files = new ArrayList<>();
    for (String rel : CheckpointFiles.listFiles(fs, dir, regionCopy)) {
      Path p = CheckpointFiles.resolve(dir, rel);
      files.add(new CheckpointManifest.FileEntry(rel, fs.length(p), CheckpointFiles.crc(fs, p)));
    }
    CheckpointManifest m = new CheckpointManifest(group, at, files);
    m.write(fs, dir);
    LOG.info("checkpoint of group {} at {}: {} files, {} bytes", group, at, files.size(), m.bytes());
    List<Path> dropped = new ArrayList<>();
    synchronized (this) {
      open.addLast(dir);
      while (open.size() > MAX_OPEN) {
        dropped.add(open.removeFirst());
      }
    }
    for (Path d : dropped) {
      delete(d);
    }
    return new Session(dir, m);
  }

  private final class Session implements CheckpointSession {
    private final Path dir;
    private final CheckpointManifest manifest;

    Session(Path dir, CheckpointManifest manifest) {
      this.dir = dir;
      this.manifest = manifest;
    }

    @Override
    public CheckpointManifest manifest() {
      return manifest;
    }

    @Override
    public Chunk read(String path, long offset, int length) throws IOException {
      CheckpointManifest.FileEntry f = manifest.file(path);
      if (f == null) {
        throw new IOException("the checkpoint of group " + group + " at " + manifest.position() + " has no file " + path);
      }
      if (offset < 0 || offset > f.length() || length < 0) {
        throw new IOException(path + ": no bytes at " + offset + " (+" + length + ") of " + f.length());
      }
      int n = (int) Math.min(length, f.length() - offset);
      byte[] b = new byte[n];
      ByteBuffer buf = ByteBuffer.wrap(b);
      try (ReadableFile in = fs.open(CheckpointFiles.resolve(dir, path))) {
        while (buf.hasRemaining()) {
          if (in.read(buf, offset + buf.position()) < 0) {
            throw new IOException(path + ": ended before byte " + (offset + n));
          }
        }
      } catch (java.nio.file.NoSuchFileException e) {
        throw new IOException("the checkpoint of group " + group + " at " + manifest.position()
            + " is gone (a newer one replaced it): start again", e);
      }
      return new Chunk(b, CheckpointFiles.crc(b));
    }

    @Override
    public void close() {
      boolean mine;
      synchronized (LeaderCheckpoints.this) {
        mine = open.remove(dir);
      }
      if (mine) {
        delete(dir);
      }
    }
  }

  /** Deletes a checkpoint: its descriptor first (it is incomplete from then on), then the rest. */
  private void delete(Path dir) {
    try {
      fs.delete(dir.resolve(CheckpointManifest.FILE_NAME));
      fs.delete(dir.resolve(CheckpointManifest.FILE_NAME + ".tmp"));
      Path region = dir.resolve(CheckpointFiles.REGION);
      List<Path> left = new ArrayList<>();
      if (fs.isDirectory(region)) {
        deleteTree(region, left);
      }
      if (left.isEmpty() && fs.list(dir).isEmpty()) {
        fs.deleteDirectory(dir);
      } else {
        LOG.warn("left {} in the checkpoint {}: not made by Bellows", left.isEmpty() ? fs.list(dir) : left, dir);
      }
    } catch (IOException e) {
      throw new StorageException("cannot delete the checkpoint " + dir, e);
    }
  }

  /** Deletes a checkpoint's region copy: every name in it is a link or manifest the checkpoint made. */
  private void deleteTree(Path dir, List<Path> left) throws IOException {
    for (Path p : fs.list(dir)) {
      if (fs.isDirectory(p)) {
        deleteTree(p, left);
      } else {
        fs.delete(p);
      }
    }
    if (fs.list(dir).isEmpty()) {
      fs.deleteDirectory(dir);
    } else {
      left.add(dir);
    }
  }
}
