package io.bellows.testing;

import io.bellows.util.StorageException;
import java.lang.management.ManagementFactory;
import java.util.HexFormat;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a reader on one (possibly hostile) input and checks the invariant every reader of Bellows'
 * files keeps: it ends in data or in a {@link StorageException} (a {@link
 * io.bellows.util.CorruptionException}, or the refusal of an unsupported version) — never another
 * exception, never a hang, never an allocation out of proportion to the input (a length field
 * believed before it was checked against the file).
 *
 * <p>The reader runs on this guard's own thread, so that a hang is cut off after {@link #TIME_LIMIT_S}
 * seconds and the bytes it allocated can be counted (HotSpot's per-thread allocation counter).
 * Thread-safe; a hung reader's thread is abandoned and a new one started.
 */
public final class ReaderGuard {
  /** Seconds one input may take; reading a file of a few KiB takes milliseconds. */
  public static final int TIME_LIMIT_S = 10;
  /**
   * Bytes a reader may allocate: a fixed allowance plus this many times the input's length. The
   * allowance covers what the JVM allocates on the reader's thread besides the reader (class
   * loading, and under the fuzzing agent its coverage instrumentation: up to ~50 MB seen); a reader
   * that trusts a length field allocates up to gigabytes, far above it.
   */
  private static final long ALLOWANCE = 128L << 20;
  private static final long PER_INPUT_BYTE = 64;

  /** What a reader does with the input (open it, read everything). */
  @FunctionalInterface
  public interface Read {
    void run() throws Exception;
  }

  private ExecutorService thread = newThread();

  private static ExecutorService newThread() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "reader-guard");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Runs {@code read} and throws an {@link AssertionError} naming {@code what} and the input (in hex,
   * to paste into a corpus file) when it breaks the invariant.
   */
  public synchronized void check(String what, byte[] input, Read read) {
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Future<Long> f = thread.submit(() -> {
      long before = mx.getCurrentThreadAllocatedBytes();
      read.run();
      return mx.getCurrentThreadAllocatedBytes() - before;
    });
    long allocated;
    try {
      allocated = f.get(TIME_LIMIT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      thread.shutdownNow();
      thread = newThread();
      throw new AssertionError(what + ": no answer after " + TIME_LIMIT_S + " s" + describe(input));
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof StorageException) {
        return; // the documented outcome for a damaged or unsupported file
      }
      throw new AssertionError(what + ": threw " + cause + " instead of a CorruptionException" + describe(input), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    long limit = ALLOWANCE + PER_INPUT_BYTE * input.length;
    if (allocated > limit) {
      throw new AssertionError(what + ": allocated " + allocated + " bytes for " + input.length
          + " bytes of input (limit " + limit + ")" + describe(input));
    }
  }

  private static String describe(byte[] input) {
    String hex = HexFormat.of().formatHex(input, 0, Math.min(input.length, 4096));
    return "\ninput (" + input.length + " bytes" + (input.length > 4096 ? ", first 4096" : "") + "): " + hex;
  }
}
