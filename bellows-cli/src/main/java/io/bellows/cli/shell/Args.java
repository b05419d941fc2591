package io.bellows.cli.shell;

import java.util.List;
import java.util.Map;

/**
 * Typed, checked access to a command's positional arguments; every failure is a {@link
 * UsageException} naming the command and the argument. Immutable.
 */
final class Args {
  private final String command;
  private final List<Object> values;

  Args(String command, List<Object> values) {
    this.command = command;
    this.values = values;
  }

  int size() {
    return values.size();
  }

  Object get(int i) {
    return values.get(i);
  }

  /** Requires between min and max arguments (inclusive). */
  void arity(int min, int max) {
    int n = values.size();
    if (n < min || n > max) {
      String expected = min == max ? String.valueOf(min) : max == Integer.MAX_VALUE ? min + " or more" : min + " to " + max;
      throw usage("wrong number of arguments (given " + n + ", expected " + expected + ")");
    }
  }

  boolean isString(int i) {
    return i < values.size() && values.get(i) instanceof ByteString;
  }

  boolean isInteger(int i) {
    return i < values.size() && values.get(i) instanceof Long;
  }

  boolean isHash(int i) {
    return i < values.size() && values.get(i) instanceof Map;
  }

  ByteString string(int i, String what) {
    Object v = values.get(i);
    if (!(v instanceof ByteString)) {
      throw usage(what + " must be a quoted string, not " + describe(v));
    }
    return (ByteString) v;
  }

  /** A table (or other) name: a non-empty quoted string. */
  String name(int i, String what) {
    ByteString s = string(i, what);
    if (s.isEmpty()) {
      throw usage(what + " must not be empty");
    }
    return s.text();
  }

  long integer(int i, String what) {
    Object v = values.get(i);
    if (!(v instanceof Long)) {
      throw usage(what + " must be an integer, not " + describe(v));
    }
    return (Long) v;
  }

  @SuppressWarnings("unchecked")
  Options hash(int i, String what) {
    Object v = values.get(i);
    if (!(v instanceof Map)) {
      throw usage(what + " must be a hash {KEY => value, ...}, not " + describe(v));
    }
    return new Options(command, (Map<Object, Object>) v);
  }

  UsageException usage(String message) {
    return new UsageException(command, command + ": " + message);
  }

  /** How a value is named in error messages. */
  static String describe(Object v) {
    if (v instanceof ByteString) {
      return "the string " + v;
    }
    if (v instanceof Long || v instanceof Double) {
      return "the number " + v;
    }
    if (v instanceof Constant) {
      return "the constant " + v;
    }
    if (v instanceof List) {
      return "an array";
    }
    if (v instanceof Map) {
      return "a hash";
    }
    return String.valueOf(v);
  }
}
