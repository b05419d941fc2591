package io.bellows.hbase;

import io.bellows.util.StorageException;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;

/**
 * Bellows' exceptions as HBase's, at the adapter's boundary (every method that declares {@code
 * IOException}): an unknown family is {@link NoSuchColumnFamilyException}, an unknown table {@link
 * TableNotFoundException}, an existing one {@link TableExistsException}, a disabled one {@link
 * TableNotEnabledException}, bad input ({@link IllegalArgumentException}, such as a counter that is
 * not 8 bytes) {@link DoNotRetryIOException} with its message, and any other Bellows failure
 * (storage, stopped writes, a closed engine, a remote call) an {@link IOException} with it as the
 * cause. Everything else ({@link UnsupportedOperationException} naming what Bellows does not do,
 * the JDK's own state errors, and {@link RegionNames.NotARegionName}, which HBase's client throws
 * unchecked too) passes unchanged.
 */
final class Exceptions {
  private Exceptions() {}

  /** A call that may throw HBase's checked exception. */
  interface IoCall<T> {
    T call() throws IOException;
  }

  /** Runs {@code call}, throwing HBase's exception for a Bellows one. */
  static <T> T io(IoCall<T> call) throws IOException {
    try {
      return call.call();
    } catch (RuntimeException e) {
      IOException translated = translate(e);
      if (translated != null) {
        throw translated;
      }
      throw e;
    }
  }

  /** HBase's exception for {@code e}, or null if it passes unchanged; an IOException is its own. */
  static IOException translate(Throwable e) {
    if (e instanceof IOException io) {
      return io;
    }
    if (e instanceof RegionNames.NotARegionName) {
      return null; // HBase's client throws it unchecked too, and its shell catches it
    }
    String message = e.getMessage();
    IOException out;
    if (e instanceof io.bellows.util.NoSuchColumnFamilyException) {
      out = new NoSuchColumnFamilyException(message);
    } else if (e instanceof io.bellows.util.TableNotFoundException) {
      out = new TableNotFoundException(message);
    } else if (e instanceof io.bellows.util.TableExistsException) {
      out = new TableExistsException(message);
    } else if (e instanceof io.bellows.util.TableNotEnabledException) {
      out = new TableNotEnabledException(message);
    } else if (e instanceof IllegalArgumentException) {
      return new DoNotRetryIOException(message, e);
    } else if (e instanceof StorageException || e.getClass().getName().startsWith("io.bellows.")) {
      return new IOException(message, e);
    } else {
      return null;
    }
    out.initCause(e);
    return out;
  }

  /** {@code e} as the invoked HBase method may throw it: translated if it declares IOException. */
  static Throwable thrownBy(Method method, Throwable e) {
    for (Class<?> declared : method.getExceptionTypes()) {
      if (declared.isAssignableFrom(IOException.class)) {
        IOException translated = translate(e);
        return translated != null ? translated : e;
      }
    }
    return e;
  }

  /**
   * The failed actions of a list call, as HBase reports them ({@code Table.put(List)}, {@code
   * batch}, ...): each error translated, with its action.
   */
  static final class Failures {
    private final List<Throwable> errors = new ArrayList<>();
    private final List<Row> actions = new ArrayList<>();

    void add(Row action, RuntimeException e) {
      IOException translated = translate(e);
      errors.add(translated != null ? translated : e);
      actions.add(action);
    }

    /** The last error added (what a batch's results array holds for its action). */
    Throwable last() {
      return errors.get(errors.size() - 1);
    }

    void throwIfAny() throws RetriesExhaustedWithDetailsException {
      if (!errors.isEmpty()) {
        List<String> where = new ArrayList<>();
        actions.forEach(a -> where.add("bellows"));
        throw new RetriesExhaustedWithDetailsException(errors, actions, where);
      }
    }
  }
}
