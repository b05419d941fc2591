package io.bellows.cli.shell;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A hash argument read as named options: keys (constants or strings) are matched by upper-case
 * name; {@link #take} removes what a command understands, and {@link #rejectRest} refuses the rest,
 * so no option is silently ignored. Not thread-safe; one use.
 */
final class Options {
  private final String command;
  private final Map<String, Object> remaining = new LinkedHashMap<>();

  Options(String command, Map<Object, Object> hash) {
    this.command = command;
    for (Map.Entry<Object, Object> e : hash.entrySet()) {
      String key = keyName(command, e.getKey());
      if (remaining.put(key, e.getValue()) != null) {
        throw new UsageException(command, command + ": option " + key + " given twice");
      }
    }
  }

  static String keyName(String command, Object key) {
    if (key instanceof Constant) {
      return ((Constant) key).name().toUpperCase(Locale.ROOT);
    }
    if (key instanceof ByteString) {
      return ((ByteString) key).text().toUpperCase(Locale.ROOT);
    }
    throw new UsageException(command, command + ": option names are constants such as VERSIONS, not " + Args.describe(key));
  }

  boolean has(String key) {
    return remaining.containsKey(key);
  }

  /** Removes and returns the option's value, or null if absent. */
  Object take(String key) {
    return remaining.remove(key);
  }

  /** The options not taken yet, in the order given. */
  Map<String, Object> rest() {
    return remaining;
  }

  ByteString takeString(String key) {
    Object v = take(key);
    if (v != null && !(v instanceof ByteString)) {
      throw usage(key + " must be a quoted string, not " + Args.describe(v));
    }
    return (ByteString) v;
  }

  /** An integer option; a quoted integer is accepted too, as HBase users often write '3'. */
  Long takeLong(String key) {
    Object v = take(key);
    if (v == null || v instanceof Long) {
      return (Long) v;
    }
    if (v instanceof ByteString) {
      try {
        return Long.parseLong(((ByteString) v).text().trim());
      } catch (NumberFormatException e) {
        // fall through to the error
      }
    }
    throw usage(key + " must be an integer, not " + Args.describe(v));
  }

  /** A [min, max) pair of integers. */
  long[] takeRange(String key) {
    Object v = take(key);
    if (v == null) {
      return null;
    }
    if (v instanceof List && ((List<?>) v).size() == 2
        && ((List<?>) v).get(0) instanceof Long && ((List<?>) v).get(1) instanceof Long) {
      return new long[] {(Long) ((List<?>) v).get(0), (Long) ((List<?>) v).get(1)};
    }
    throw usage(key + " must be an array of two integers [min, max], not " + Args.describe(v));
  }

  /** Refuses whatever was not taken, listing what the command accepts. */
  void rejectRest(String supported) {
    if (!remaining.isEmpty()) {
      String k = remaining.keySet().iterator().next();
      throw usage("option " + k + " is not supported (supported: " + supported + ")");
    }
  }

  UsageException usage(String message) {
    return new UsageException(command, command + ": " + message);
  }
}
