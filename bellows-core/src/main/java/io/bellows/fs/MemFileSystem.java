package io.bellows.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A file system in memory that can lose power: it keeps, per file, how much of it was synced, and
 * per directory which of its names are durable (as of its last {@link #syncDirectory}). {@link
 * #crash} returns the file system a power loss at that moment would leave behind, after the model
 * of LevelDB's fault-injection environment and Pebble's crashable MemFS:
 *
 * <ul>
 *   <li>every directory holds exactly the names it held at its last sync (creations, renames, links
 *       and deletions since are undone; a directory never synced into its parent is gone with
 *       everything under it);
 *   <li>every file holds its synced bytes; its unsynced tail is dropped ({@link Tail#DROP}), cut at a
 *       random byte ({@link Tail#TEAR}: the operating system may have written some of it back), or
 *       cut at a random byte and followed by random bytes up to at most its old length ({@link
 *       Tail#GARBAGE}: blocks allocated to the file whose new contents never reached the disk).
 * </ul>
 *
 * <p>A sync can also lie ({@link #lyingSyncs}): it reports success but the bytes stay unsynced, so
 * the next power loss treats them as the unsynced tail it is, as a disk or controller whose write
 * cache ignores flushes would.
 *
 * <p>A crash can also be armed at the n-th mutating operation ({@link #crashAtOperation}): the
 * snapshot is taken just before that operation, which fails, as does every operation after it on
 * this instance (the machine is off), so an engine still running on it stops making changes. Mutating
 * operations are create, append, sync, rename, link, delete, truncate, directory creation, deletion
 * and sync, and lock; {@link #mutations} counts them.
 *
 * <p>Thread-safe: one monitor guards the whole tree. Paths are made absolute and normalized; the
 * root always exists and is durable.
 */
public final class MemFileSystem implements FileSystem {

  /** A file's bytes, shared by its names (links) and its open handles. */
  private static final class Inode {
    byte[] data = new byte[0];
    int length;
    /** Bytes [0, synced) survive a power loss. */
    int synced;
  }

  /** A directory: its names now, and its names as of its last sync. Values are Inode or Dir. */
  private static final class Dir {
    final TreeMap<String, Object> live = new TreeMap<>();
    TreeMap<String, Object> durable = new TreeMap<>();
  }

  /** What a power loss leaves of a file's unsynced tail. */
  public enum Tail {
    /** Nothing: the file ends at its synced length. */
    DROP,
    /** A random prefix of it. */
    TEAR,
    /** A random prefix of it, then random bytes, in all no longer than the file was. */
    GARBAGE;

    static Tail of(boolean tear) {
      return tear ? TEAR : DROP;
    }
  }

  private final Dir root = new Dir();
  private final Set<Path> locked = new HashSet<>();
  private long mutations;
  private long crashAt = -1;
  private Random crashRandom;
  private Tail crashTail = Tail.DROP;
  private MemFileSystem crashed;
  private Pattern lyingSyncs;
  private long lies;

  public MemFileSystem() {}

  // ------------------------------------------------------------------ lying syncs

  /**
   * From now on, a sync of a file whose path contains a match of {@code regex} reports success and
   * changes nothing ({@code null}: every sync is true again). Directory syncs are not affected.
   */
  public synchronized void lyingSyncs(String regex) {
    this.lyingSyncs = regex == null ? null : Pattern.compile(regex);
  }

  /** Syncs that lied so far. */
  public synchronized long lies() {
    return lies;
  }

  // ------------------------------------------------------------------ power loss

  /**
   * The file system a power loss now would leave: see the class comment. With {@code tear}, each
   * file's unsynced tail is cut at a byte drawn from {@code random} instead of dropped whole. This
   * instance is down afterwards: every operation on it fails.
   */
  public synchronized MemFileSystem crash(Random random, boolean tear) {
    return crash(random, Tail.of(tear));
  }

  /** The file system a power loss now would leave, each file's unsynced tail treated as {@code tail} says. */
  public synchronized MemFileSystem crash(Random random, Tail tail) {
    if (crashed == null) {
      crashed = durableCopy(random, tail);
    }
    return crashed;
  }

  /**
   * Arms a power loss just before the {@code n}-th mutating operation (0-based, counted from this
   * instance's creation). {@link #crashed()} then returns the state it left.
   */
  public synchronized void crashAtOperation(long n, Random random, boolean tear) {
    crashAtOperation(n, random, Tail.of(tear));
  }

  /** As {@link #crashAtOperation(long, Random, boolean)}, each unsynced tail treated as {@code tail} says. */
  public synchronized void crashAtOperation(long n, Random random, Tail tail) {
    this.crashAt = n;
    this.crashRandom = random;
    this.crashTail = tail;
  }

  /** The state a power loss left, or null if none happened yet. */
  public synchronized MemFileSystem crashed() {
    return crashed;
  }

  /** Mutating operations so far (attempted ones included). */
  public synchronized long mutations() {
    return mutations;
  }

  private MemFileSystem durableCopy(Random random, Tail tail) {
    MemFileSystem copy = new MemFileSystem();
    copyDurable(root, copy.root, new IdentityHashMap<>(), random, tail);
    return copy;
  }

  private static void copyDurable(Dir from, Dir to, Map<Inode, Inode> copied, Random random, Tail tail) {
    for (Map.Entry<String, Object> e : from.durable.entrySet()) {
      if (e.getValue() instanceof Dir d) {
        Dir c = new Dir();
        copyDurable(d, c, copied, random, tail);
        to.live.put(e.getKey(), c);
      } else {
        Inode f = (Inode) e.getValue();
        Inode c = copied.get(f);
        if (c == null) {
          int keep = f.synced;
          int length = f.synced;
          if (tail != Tail.DROP && f.length > f.synced) {
            keep += random.nextInt(f.length - f.synced + 1);
            length = tail == Tail.GARBAGE ? keep + random.nextInt(f.length - keep + 1) : keep;
          }
          c = new Inode();
          c.data = Arrays.copyOf(f.data, length);
          if (length > keep) {
            byte[] junk = new byte[length - keep];
            random.nextBytes(junk);
            System.arraycopy(junk, 0, c.data, keep, junk.length);
          }
          c.length = length;
          c.synced = length;
          copied.put(f, c);
        }
        to.live.put(e.getKey(), c);
      }
    }
    to.durable = new TreeMap<>(to.live);
  }

  /** Counts a mutating operation; crashes if armed for it. Holds the monitor. */
  private void mutation(String what, Path path) throws IOException {
    checkUp(what, path);
    if (mutations++ == crashAt) {
      crashed = durableCopy(crashRandom, crashTail);
      checkUp(what, path);
    }
  }

  private void checkUp(String what, Path path) throws IOException {
    if (crashed != null) {
      throw new IOException("power lost: cannot " + what + " " + path);
    }
  }

  // ------------------------------------------------------------------ tree walking

  private static Path norm(Path p) {
    return p.toAbsolutePath().normalize();
  }

  /** The directory at {@code p}, or null. */
  private Dir dir(Path p) {
    Path n = norm(p);
    Dir d = root;
    for (Path name : n) {
      Object next = d.live.get(name.toString());
      if (!(next instanceof Dir)) {
        return null;
      }
      d = (Dir) next;
    }
    return d;
  }

  private Object node(Path p) {
    Path n = norm(p);
    if (n.getNameCount() == 0) {
      return root;
    }
    Dir parent = dir(n.getParent());
    return parent == null ? null : parent.live.get(n.getFileName().toString());
  }

  private Dir parentOf(Path p) throws IOException {
    Path n = norm(p);
    Dir parent = n.getParent() == null ? null : dir(n.getParent());
    if (parent == null) {
      throw new NoSuchFileException(p.toString(), null, "no parent directory");
    }
    return parent;
  }

  private static String name(Path p) {
    return norm(p).getFileName().toString();
  }

  private Inode file(Path p) throws IOException {
    Object o = node(p);
    if (o == null) {
      throw new NoSuchFileException(p.toString());
    }
    if (!(o instanceof Inode)) {
      throw new IOException(p + " is a directory");
    }
    return (Inode) o;
  }

  // ------------------------------------------------------------------ files

  @Override
  public synchronized WritableFile create(Path file) throws IOException {
    mutation("create", file);
    Dir parent = parentOf(file);
    if (parent.live.containsKey(name(file))) {
      throw new FileAlreadyExistsException(file.toString());
    }
    Inode f = new Inode();
    parent.live.put(name(file), f);
    return new MemWritableFile(file, f);
  }

  @Override
  public synchronized ReadableFile open(Path file) throws IOException {
    checkUp("open", file);
    Inode f = file(file);
    return new ReadableFile() {
      @Override
      public int read(ByteBuffer dst, long position) throws IOException {
        synchronized (MemFileSystem.this) {
          checkUp("read", file);
          if (position >= f.length) {
            return -1;
          }
          int n = (int) Math.min(dst.remaining(), f.length - position);
          dst.put(f.data, (int) position, n);
          return n;
        }
      }

      @Override
      public long length() {
        synchronized (MemFileSystem.this) {
          return f.length;
        }
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public synchronized long length(Path file) throws IOException {
    checkUp("stat", file);
    return file(file).length;
  }

  @Override
  public synchronized void rename(Path from, Path to) throws IOException {
    mutation("rename", from);
    Inode f = file(from);
    Dir target = parentOf(to);
    if (target.live.get(name(to)) instanceof Dir) {
      throw new IOException(to + " is a directory");
    }
    parentOf(from).live.remove(name(from));
    target.live.put(name(to), f);
  }

  @Override
  public synchronized void link(Path existing, Path link) throws IOException {
    mutation("link", link);
    Inode f = file(existing);
    Dir target = parentOf(link);
    if (target.live.containsKey(name(link))) {
      throw new FileAlreadyExistsException(link.toString());
    }
    target.live.put(name(link), f);
  }

  @Override
  public synchronized boolean delete(Path file) throws IOException {
    mutation("delete", file);
    Object o = node(file);
    if (o == null) {
      return false;
    }
    if (o instanceof Dir) {
      throw new IOException(file + " is a directory, not a file");
    }
    parentOf(file).live.remove(name(file));
    return true;
  }

  @Override
  public synchronized void truncate(Path file, long length) throws IOException {
    mutation("truncate", file);
    Inode f = file(file);
    if (length > f.length) {
      throw new IOException(file + ": cannot truncate " + f.length + " bytes to " + length);
    }
    f.length = (int) length;
    f.synced = (int) length;
  }

  // ------------------------------------------------------------------ directories

  @Override
  public synchronized List<Path> list(Path dir) throws IOException {
    checkUp("list", dir);
    Dir d = dir(dir);
    if (d == null) {
      throw node(dir) == null ? new NoSuchFileException(dir.toString()) : new NotDirectoryException(dir.toString());
    }
    List<Path> out = new ArrayList<>(d.live.size());
    for (String n : d.live.keySet()) {
      out.add(dir.resolve(n));
    }
    return out;
  }

  @Override
  public synchronized void createDirectories(Path dir) throws IOException {
    mutation("create directory", dir);
    Dir d = root;
    for (Path name : norm(dir)) {
      Object next = d.live.get(name.toString());
      if (next == null) {
        next = new Dir();
        d.live.put(name.toString(), next);
      } else if (!(next instanceof Dir)) {
        throw new FileAlreadyExistsException(dir.toString(), null, "a file is in the way");
      }
      d = (Dir) next;
    }
  }

  @Override
  public synchronized boolean deleteDirectory(Path dir) throws IOException {
    mutation("delete directory", dir);
    Object o = node(dir);
    if (o == null) {
      return false;
    }
    if (!(o instanceof Dir d)) {
      throw new NotDirectoryException(dir.toString());
    }
    if (!d.live.isEmpty()) {
      throw new DirectoryNotEmptyException(dir.toString());
    }
    parentOf(dir).live.remove(name(dir));
    return true;
  }

  @Override
  public synchronized void syncDirectory(Path dir) throws IOException {
    mutation("sync directory", dir);
    Dir d = dir(dir);
    if (d == null) {
      throw new NoSuchFileException(dir.toString());
    }
    d.durable = new TreeMap<>(d.live);
  }

  @Override
  public synchronized boolean exists(Path path) {
    return crashed == null && node(path) != null;
  }

  @Override
  public synchronized boolean isDirectory(Path path) {
    return crashed == null && node(path) instanceof Dir;
  }

  @Override
  public synchronized boolean isFile(Path path) {
    return crashed == null && node(path) instanceof Inode;
  }

  @Override
  public synchronized Lock tryLock(Path file, boolean create) throws IOException {
    mutation("lock", file);
    Object o = node(file);
    if (o == null) {
      if (!create) {
        throw new FileNotFoundException(file.toString());
      }
      parentOf(file).live.put(name(file), new Inode());
    } else if (o instanceof Dir) {
      throw new IOException(file + " is a directory");
    }
    Path key = norm(file);
    if (!locked.add(key)) {
      return null;
    }
    return () -> {
      synchronized (MemFileSystem.this) {
        locked.remove(key);
      }
    };
  }

  @Override
  public String toString() {
    return "memory";
  }

  /** Appends to an inode; unsynced until {@link #sync}. */
  private final class MemWritableFile implements WritableFile {
    private final Path path;
    private final Inode inode;

    MemWritableFile(Path path, Inode inode) {
      this.path = path;
      this.inode = inode;
    }

    @Override
    public void append(ByteBuffer src) throws IOException {
      synchronized (MemFileSystem.this) {
        mutation("append to", path);
        int n = src.remaining();
        if (inode.length + n > inode.data.length) {
          inode.data = Arrays.copyOf(inode.data, Math.max(inode.length + n, inode.data.length * 2));
        }
        src.get(inode.data, inode.length, n);
        inode.length += n;
      }
    }

    @Override
    public void sync() throws IOException {
      synchronized (MemFileSystem.this) {
        mutation("sync", path);
        if (lyingSyncs != null && lyingSyncs.matcher(path.toString()).find()) {
          lies++; // reports success; the bytes stay as unsynced as they were
          return;
        }
        inode.synced = inode.length;
      }
    }

    @Override
    public long size() {
      synchronized (MemFileSystem.this) {
        return inode.length;
      }
    }

    @Override
    public void close() {}
  }
}
