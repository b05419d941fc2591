package io.bellows.cluster.checkpoint;

import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.fs.WritableFile;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies a checkpoint from its session into a staging directory, a chunk at a time with up to
 * {@link #IN_FLIGHT} chunks asked for ahead (while one is written, the next are on their way): each
 * chunk's CRC32C is checked as it arrives (a damaged one is asked for again, up to {@link
 * #CHUNK_TRIES} times), each file is written under a {@code .part} name, in order, its CRC32C
 * computed over the bytes as they are written and checked against the descriptor's, synced, a
 * sorted file's trailer, metadata and index opened, and renamed to its name. The descriptor being
 * fetched is written first as {@code FETCHING} and, once every file is there, as {@code
 * CHECKPOINT}: staging is complete only with it.
 *
 * <p>Resumable: a fetch into a staging directory an interrupted one left keeps every file already
 * there whole (its length and checksum are the new descriptor's), and deletes only what the earlier
 * fetch wrote (the names its {@code FETCHING} or {@code CHECKPOINT} listed) that the new one does
 * not list.
 */
public final class CheckpointFetcher {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointFetcher.class);
  /** In the staging directory: the descriptor of a checkpoint being fetched. */
  public static final String FETCHING = "FETCHING";
  /** The suffix of a file being fetched. */
  public static final String PART = ".part";
  /**
   * The bytes asked for at a time: the most a leader hands in one chunk (the Replication service's
   * limit, well under the client's message limit). Each chunk is a round trip to the leader with
   * nothing else in flight, so fewer, larger ones: at 1 MiB a 110 MB install on a busy two-core
   * machine took 5.4 s to fetch against 0.5 s for a plain copy over loopback
   * (docs/bench/log/2026-11-27-cluster-targets.md).
   */
  public static final int CHUNK_BYTES = 4 << 20;
  /**
   * Chunks asked for and not yet written, at most: one at a time left both members idle for each
   * round trip (docs/bench/log/2026-11-27-cluster-catchup-2.md). Three of 4 MiB keep the leader
   * reading while the follower writes, and hold at most 12 MiB of a fetch in memory.
   */
  public static final int IN_FLIGHT = 3;
  static final int CHUNK_TRIES = 3;

  /** What a fetch did: the checkpoint, files and bytes copied, files kept from an earlier fetch, chunks asked for again. */
  public record Result(CheckpointManifest manifest, int files, long bytes, int kept, int refetched) {}

  private final FileSystem fs;
  private final Path staging;
  private final int chunkBytes;
  private final int inFlight;
  private int files;
  private long bytes;
  private int kept;
  private final AtomicInteger refetched = new AtomicInteger();

  private CheckpointFetcher(FileSystem fs, Path staging, int chunkBytes, int inFlight) {
    if (chunkBytes <= 0 || inFlight <= 0) {
      throw new IllegalArgumentException("a fetch asks for chunks of > 0 bytes, > 0 at a time: " + chunkBytes + ", "
          + inFlight);
    }
    this.fs = fs;
    this.staging = staging;
    this.chunkBytes = chunkBytes;
    this.inFlight = inFlight;
  }

  /** Copies the session's checkpoint into {@code staging} (made if missing). */
  public static Result fetch(FileSystem fs, CheckpointSession session, Path staging) throws IOException {
    return fetch(fs, session, staging, CHUNK_BYTES, IN_FLIGHT);
  }

  /** As {@link #fetch(FileSystem, CheckpointSession, Path)}, asking for {@code chunkBytes} at a time. */
  public static Result fetch(FileSystem fs, CheckpointSession session, Path staging, int chunkBytes) throws IOException {
    return fetch(fs, session, staging, chunkBytes, IN_FLIGHT);
  }

  /**
   * As {@link #fetch(FileSystem, CheckpointSession, Path)}, asking for {@code chunkBytes} at a time
   * with at most {@code inFlight} chunks asked for and not yet written.
   */
  public static Result fetch(FileSystem fs, CheckpointSession session, Path staging, int chunkBytes, int inFlight)
      throws IOException {
    CheckpointFetcher f = new CheckpointFetcher(fs, staging, chunkBytes, inFlight);
    f.copy(session);
    return new Result(session.manifest(), f.files, f.bytes, f.kept, f.refetched.get());
  }

  /** The complete checkpoint staged in {@code staging}, or null if there is none. */
  static CheckpointManifest staged(FileSystem fs, Path staging) throws IOException {
    return fs.exists(staging.resolve(CheckpointManifest.FILE_NAME)) ? CheckpointManifest.read(fs, staging) : null;
  }

  private void copy(CheckpointSession session) throws IOException {
    CheckpointManifest m = session.manifest();
    AtomicFiles.createDirectories(fs, staging);
    // What an earlier fetch wrote here, by the descriptors it left: the only names this may delete.
    Set<String> earlier = new HashSet<>();
    for (String name : new String[] {CheckpointManifest.FILE_NAME, FETCHING}) {
      Path p = staging.resolve(name);
      if (fs.exists(p)) {
        earlier.addAll(namesIn(p)); // line by line: even a descriptor cut short names what it wrote
      }
    }
    fs.delete(staging.resolve(CheckpointManifest.FILE_NAME)); // incomplete from here until the end
    fs.syncDirectory(staging);
    AtomicFiles.write(fs, staging.resolve(FETCHING), m.render().getBytes(StandardCharsets.UTF_8));
    for (String old : earlier) {
      Path p = CheckpointFiles.resolve(staging, old);
      fs.delete(p.resolveSibling(p.getFileName() + PART));
      if (m.file(old) == null) {
        fs.delete(p);
      }
    }
    List<CheckpointManifest.FileEntry> wanted = new ArrayList<>();
    for (CheckpointManifest.FileEntry f : m.files()) {
      Path target = CheckpointFiles.resolve(staging, f.path());
      if (fs.isFile(target) && CheckpointFiles.problem(fs, staging, f) == null) {
        kept++; // whole from an earlier fetch: read back, as no running checksum saw it written
      } else {
        wanted.add(f);
      }
    }
    try (Ahead ahead = new Ahead(session, wanted)) {
      for (CheckpointManifest.FileEntry f : wanted) {
        copyFile(ahead, f);
      }
    }
    m.write(fs, staging); // CHECKPOINT: staging is complete
    fs.delete(staging.resolve(FETCHING));
    fs.syncDirectory(staging);
    LOG.info("fetched the checkpoint of group {} at {}: {} files, {} bytes ({} kept from an earlier fetch, {} chunks"
        + " asked again)", m.group(), m.position(), files, bytes, kept, refetched.get());
  }

  /** The file paths a descriptor of ours lists, read without trusting it further than its lines. */
  private Set<String> namesIn(Path descriptor) throws IOException {
    Set<String> out = new HashSet<>();
    for (String line : new String(fs.readAll(descriptor), StandardCharsets.UTF_8).split("\n")) {
      if (line.startsWith("file ")) {
        String[] f = line.substring(5).split(" ", 3);
        if (f.length == 3) {
          try {
            CheckpointManifest.checkPath(f[2]);
            out.add(f[2]);
          } catch (IllegalArgumentException ignored) {
            // not a name a fetch of ours wrote
          }
        }
      }
    }
    return out;
  }

  private void copyFile(Ahead ahead, CheckpointManifest.FileEntry f) throws IOException {
    Path target = CheckpointFiles.resolve(staging, f.path());
    AtomicFiles.createDirectories(fs, target.getParent());
    Path part = target.resolveSibling(target.getFileName() + PART);
    fs.delete(part);
    fs.delete(target);
    // The checksum of the bytes as they are handed to the file. Reading the file back would check
    // the page cache the write just filled, not the disk, and cost a second pass over every byte.
    CRC32C whole = new CRC32C();
    try (WritableFile out = fs.create(part)) {
      long pos = 0;
      while (pos < f.length()) {
        byte[] b = ahead.next(f, pos);
        out.append(ByteBuffer.wrap(b));
        whole.update(b);
        pos += b.length;
      }
      out.sync();
    }
    if ((int) whole.getValue() != f.crc32c()) {
      fs.delete(part);
      throw new CorruptionException(f.path() + String.format(": the bytes received have CRC32C %08x, the checkpoint"
          + " says %08x; nothing of the file was kept", (int) whole.getValue(), f.crc32c()));
    }
    String problem = CheckpointFiles.structureProblem(fs, part, f);
    if (problem != null) {
      fs.delete(part);
      throw new CorruptionException("the checkpoint's " + problem + "; nothing of it was kept");
    }
    fs.rename(part, target);
    fs.syncDirectory(target.getParent());
    files++;
    bytes += f.length();
  }

  /** One chunk whose bytes match the checksum the source sent with them; asked again if they do not. */
  private byte[] chunk(CheckpointSession session, CheckpointManifest.FileEntry f, long pos, int want)
      throws IOException {
    for (int attempt = 1; ; attempt++) {
      CheckpointSession.Chunk c = session.read(f.path(), pos, want);
      byte[] b = c.bytes();
      if (b.length == want && CheckpointFiles.crc(b) == c.crc32c()) {
        return b;
      }
      String what = b.length != want ? b.length + " bytes instead of " + want
          : String.format("CRC32C %08x instead of %08x", CheckpointFiles.crc(b), c.crc32c());
      if (attempt >= CHUNK_TRIES) {
        throw new CorruptionException(f.path() + ": the chunk at byte " + pos + " arrived damaged " + attempt
            + " times (" + what + ")");
      }
      LOG.warn("{}: the chunk at byte {} arrived damaged ({}); asking again", f.path(), pos, what);
      refetched.incrementAndGet();
    }
  }

  /** A chunk to ask for: the file and the bytes of it. */
  private record Want(CheckpointManifest.FileEntry file, long offset, int length) {}

  /**
   * The chunks of the files to fetch, in the order they are written, each asked for (on a thread of
   * its own, at most {@code inFlight} at once) before the writer needs it. The writer takes them in
   * order, so a file is still written front to back and the staging stays resumable as before.
   */
  private final class Ahead implements AutoCloseable {
    private final CheckpointSession session;
    private final Iterator<Want> wants;
    private final Deque<Map.Entry<Want, Future<byte[]>>> asked = new ArrayDeque<>();
    private final ExecutorService readers;

    Ahead(CheckpointSession session, List<CheckpointManifest.FileEntry> files) {
      this.session = session;
      List<Want> all = new ArrayList<>();
      for (CheckpointManifest.FileEntry f : files) {
        for (long pos = 0; pos < f.length(); pos += chunkBytes) {
          all.add(new Want(f, pos, (int) Math.min(chunkBytes, f.length() - pos)));
        }
      }
      this.wants = all.iterator();
      AtomicInteger n = new AtomicInteger();
      this.readers = Executors.newFixedThreadPool(inFlight, task -> {
        Thread t = new Thread(task, "bellows-checkpoint-fetch-" + n.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
    }

    /** The bytes of {@code file} at {@code offset}: the next chunk in order, the ones after it asked for. */
    byte[] next(CheckpointManifest.FileEntry file, long offset) throws IOException {
      while (asked.size() < inFlight && wants.hasNext()) {
        Want w = wants.next();
        asked.add(Map.entry(w, readers.submit(() -> chunk(session, w.file(), w.offset(), w.length()))));
      }
      Map.Entry<Want, Future<byte[]>> head = asked.poll();
      if (head == null || head.getKey().file() != file || head.getKey().offset() != offset) {
        throw new IllegalStateException("the fetch wants " + file.path() + " at " + offset + ", the next chunk asked"
            + " for is " + (head == null ? "none" : head.getKey()));
      }
      try {
        return head.getValue().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while fetching " + file.path() + " at byte " + offset);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof IOException io) {
          throw io;
        }
        if (c instanceof RuntimeException r) {
          throw r;
        }
        if (c instanceof Error err) {
          throw err;
        }
        throw new IOException(c);
      }
    }

    /** Drops the chunks asked for and not taken (a fetch that failed): their reads are cancelled. */
    @Override
    public void close() {
      for (Map.Entry<Want, Future<byte[]>> e : asked) {
        e.getValue().cancel(true);
      }
      asked.clear();
      readers.shutdownNow();
    }
  }
}
