package io.bellows.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Wraps any {@link FileSystem} and fails chosen operations with the errors a disk gives: an I/O
 * error (EIO), a full disk (ENOSPC) or a failed fsync. A {@link Fault} says which operations
 * (by {@link Op kind} and path pattern), when (every time, the n-th matching call, or with a seeded
 * probability) and how; faults are added, switched off and on while the engine runs (a test
 * "frees the space"). An operation that fails changes nothing. Injected faults are counted by
 * operation and by error. After the model of Pebble's errorfs and RocksDB's FaultInjectionTestFS.
 *
 * <p>Thread-safe.
 */
public final class FaultInjectingFileSystem implements FileSystem {

  /** The kinds of operation a fault can select. */
  public enum Op {
    CREATE, WRITE, SYNC, READ, RENAME, LINK, DELETE, TRUNCATE, LIST, CREATE_DIRECTORY, DELETE_DIRECTORY,
    SYNC_DIRECTORY, LOCK
  }

  /** The error an injected fault raises. */
  public enum Error {
    /** "Input/output error". */
    EIO("Input/output error"),
    /** "No space left on device". */
    ENOSPC("No space left on device"),
    /** A sync (file or directory) that reports failure: the data may or may not be on the disk. */
    FSYNC("fsync failed: Input/output error");

    private final String message;

    Error(String message) {
      this.message = message;
    }

    public String message() {
      return message;
    }
  }

  private final FileSystem inner;
  private final List<Fault> faults = new CopyOnWriteArrayList<>();
  /** Runs before every operation, on the thread that makes it (a test's way to act at that moment). */
  private volatile BiConsumer<Op, Path> beforeEach = (op, path) -> {};
  private final Map<Op, AtomicLong> injectedByOp = new EnumMap<>(Op.class);
  private final Map<Error, AtomicLong> injectedByError = new EnumMap<>(Error.class);

  public FaultInjectingFileSystem(FileSystem inner) {
    this.inner = inner;
    for (Op o : Op.values()) {
      injectedByOp.put(o, new AtomicLong());
    }
    for (Error e : Error.values()) {
      injectedByError.put(e, new AtomicLong());
    }
  }

  /** Adds a fault (switched on) and returns it, to switch it off later. */
  public Fault inject(Fault fault) {
    faults.add(fault);
    return fault;
  }

  /**
   * Runs {@code hook} before every operation from now on, on the calling thread, before any fault
   * is checked: e.g. to interrupt a thread at the moment the store does I/O.
   */
  public void beforeEach(BiConsumer<Op, Path> hook) {
    this.beforeEach = hook;
  }

  /** Removes every fault. */
  public void clear() {
    faults.clear();
  }

  public FileSystem inner() {
    return inner;
  }

  /** Faults injected on operations of {@code op}. */
  public long injected(Op op) {
    return injectedByOp.get(op).get();
  }

  /** Faults injected with {@code error}. */
  public long injected(Error error) {
    return injectedByError.get(error).get();
  }

  /** Every fault injected so far. */
  public long injected() {
    return injectedByError.values().stream().mapToLong(AtomicLong::get).sum();
  }

  private void check(Op op, Path path) throws IOException {
    beforeEach.accept(op, path);
    for (Fault f : faults) {
      if (f.fires(op, path)) {
        injectedByOp.get(op).incrementAndGet();
        injectedByError.get(f.error()).incrementAndGet();
        throw new IOException(path + ": " + f.error().message() + " (injected on " + op + ")");
      }
    }
  }

  // ------------------------------------------------------------------ operations

  @Override
  public WritableFile create(Path file) throws IOException {
    check(Op.CREATE, file);
    WritableFile w = inner.create(file);
    return new WritableFile() {
      @Override
      public void append(ByteBuffer src) throws IOException {
        check(Op.WRITE, file);
        w.append(src);
      }

      @Override
      public void sync() throws IOException {
        check(Op.SYNC, file);
        w.sync();
      }

      @Override
      public void syncData() throws IOException {
        check(Op.SYNC, file);
        w.syncData();
      }

      @Override
      public long size() {
        return w.size();
      }

      @Override
      public void close() throws IOException {
        w.close();
      }
    };
  }

  @Override
  public ReadableFile open(Path file) throws IOException {
    check(Op.READ, file);
    ReadableFile r = inner.open(file);
    return new ReadableFile() {
      @Override
      public int read(ByteBuffer dst, long position) throws IOException {
        check(Op.READ, file);
        return r.read(dst, position);
      }

      @Override
      public long length() throws IOException {
        return r.length();
      }

      @Override
      public void close() throws IOException {
        r.close();
      }
    };
  }

  @Override
  public long length(Path file) throws IOException {
    return inner.length(file);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    check(Op.RENAME, from);
    inner.rename(from, to);
  }

  @Override
  public void link(Path existing, Path link) throws IOException {
    check(Op.LINK, link);
    inner.link(existing, link);
  }

  @Override
  public boolean delete(Path file) throws IOException {
    check(Op.DELETE, file);
    return inner.delete(file);
  }

  @Override
  public void truncate(Path file, long length) throws IOException {
    check(Op.TRUNCATE, file);
    inner.truncate(file, length);
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    check(Op.LIST, dir);
    return inner.list(dir);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    check(Op.CREATE_DIRECTORY, dir);
    inner.createDirectories(dir);
  }

  @Override
  public boolean deleteDirectory(Path dir) throws IOException {
    check(Op.DELETE_DIRECTORY, dir);
    return inner.deleteDirectory(dir);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    check(Op.SYNC_DIRECTORY, dir);
    inner.syncDirectory(dir);
  }

  @Override
  public boolean exists(Path path) {
    return inner.exists(path);
  }

  @Override
  public boolean isDirectory(Path path) {
    return inner.isDirectory(path);
  }

  @Override
  public boolean isFile(Path path) {
    return inner.isFile(path);
  }

  @Override
  public Lock tryLock(Path file, boolean create) throws IOException {
    check(Op.LOCK, file);
    return inner.tryLock(file, create);
  }

  @Override
  public String toString() {
    return "faults over " + inner;
  }
}
