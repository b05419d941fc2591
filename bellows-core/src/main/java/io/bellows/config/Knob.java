package io.bellows.config;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One configuration setting: its name, where it applies, type, default, unit, meaning and valid
 * range. Every knob of Bellows is declared once, in {@link Knobs}; the configuration table of the
 * README is checked against that registry by a test.
 */
public final class Knob<T> {
  /** Where a knob is set. */
  public enum Scope {
    /** Engine-wide, in {@link EngineOptions} given to {@code Bellows.open}. */
    ENGINE,
    /** Per table, in the table descriptor. */
    TABLE,
    /** Per column family, in the family descriptor. */
    FAMILY,
    /**
     * A server's own, in its config file; declared by the server module (its {@code ServerKnobs}), never in
     * {@link Knobs}, so no engine, table or family setting can be given one of these names.
     */
    SERVER
  }

  /** A size: digits, then optionally K, M or G, alone or as KB or KiB (upper-cased before matching). */
  private static final Pattern SIZE = Pattern.compile("([-+]?\\d+)\\s*(?:([KMG])I?B?|B)?");

  private final String name;
  private final Scope scope;
  private final Class<T> type;
  private final T defaultValue;
  private final String unit;
  private final String meaning;
  private final Function<String, T> parser;
  private final Predicate<T> valid;
  private final String validDescription;

  Knob(
      String name, Scope scope, Class<T> type, T defaultValue, String unit, String meaning,
      Function<String, T> parser, Predicate<T> valid, String validDescription) {
    this.name = name;
    this.scope = scope;
    this.type = type;
    this.defaultValue = defaultValue;
    this.unit = unit;
    this.meaning = meaning;
    this.parser = parser;
    this.valid = valid;
    this.validDescription = validDescription;
  }

  public String name() {
    return name;
  }

  public Scope scope() {
    return scope;
  }

  public Class<T> type() {
    return type;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public String unit() {
    return unit;
  }

  public String meaning() {
    return meaning;
  }

  public String validDescription() {
    return validDescription;
  }

  /** Whether the knob is a size in bytes, whose text may carry a K, M or G suffix. */
  public boolean isSize() {
    return isSize(unit);
  }

  private static boolean isSize(String unit) {
    return "bytes".equals(unit);
  }

  /** Checks a value, throwing {@link IllegalArgumentException} naming the knob if it is invalid. */
  public T validate(T value) {
    Objects.requireNonNull(value, name);
    if (!valid.test(value)) {
      throw new IllegalArgumentException(name + " = " + value + " is invalid: must be " + validDescription);
    }
    return value;
  }

  /** Parses a value from text (shell, properties) and validates it. */
  public T parse(String text) {
    T v;
    try {
      v = parser.apply(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(name + ": cannot read '" + text + "' as " + validDescription, e);
    }
    return validate(v);
  }

  /** Validates an arbitrary object given for this knob (e.g. from a map of options). */
  public T cast(Object value) {
    if (value instanceof String && type != String.class) {
      return parse((String) value);
    }
    if (type == Long.class && value instanceof Integer) {
      return validate(type.cast(Long.valueOf((Integer) value)));
    }
    if (type == Double.class && value instanceof Number) {
      return validate(type.cast(((Number) value).doubleValue()));
    }
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(name + " takes a " + type.getSimpleName() + ", not " + value);
    }
    return validate(type.cast(value));
  }

  @Override
  public String toString() {
    return name;
  }

  // ---- builders used by Knobs, and (public) by the registries of other scopes, such as the server's ----

  public static Knob<Integer> ofInt(String name, Scope scope, int def, int min, int max, String unit, String meaning) {
    Function<String, Integer> parser = isSize(unit) ? s -> Math.toIntExact(parseSize(s)) : Integer::valueOf;
    return new Knob<>(name, scope, Integer.class, def, unit, meaning, parser,
        v -> v >= min && v <= max, range(min, max, unit));
  }

  public static Knob<Long> ofLong(String name, Scope scope, long def, long min, long max, String unit, String meaning) {
    Function<String, Long> parser = isSize(unit) ? Knob::parseSize : s -> Long.parseLong(s.replace("_", ""));
    return new Knob<>(name, scope, Long.class, def, unit, meaning, parser,
        v -> v >= min && v <= max, range(min, max, unit));
  }

  /**
   * A long knob whose 0 means "let the engine choose" ({@code zeroMeans} says how), any other value
   * being in [min, max]; its default is 0.
   */
  static Knob<Long> ofLongOrZero(String name, Scope scope, long min, long max, String unit, String zeroMeans,
      String meaning) {
    Function<String, Long> parser = isSize(unit) ? Knob::parseSize : s -> Long.parseLong(s.replace("_", ""));
    return new Knob<>(name, scope, Long.class, 0L, unit, meaning, parser,
        v -> v == 0 || (v >= min && v <= max), "0 (" + zeroMeans + ") or " + range(min, max, unit));
  }

  private static String range(long min, long max, String unit) {
    return isSize(unit)
        ? "a size from " + min + " to " + max + " bytes; K, M, G suffixes (binary, any case) allowed"
        : "an integer from " + min + " to " + max;
  }

  static Knob<Double> ofDouble(String name, Scope scope, double def, double min, double max, String meaning) {
    return new Knob<>(name, scope, Double.class, def, "", meaning, Double::valueOf,
        v -> v >= min && v <= max, "a number from " + min + " to " + max);
  }

  static Knob<Boolean> ofBoolean(String name, Scope scope, boolean def, String meaning) {
    return new Knob<>(name, scope, Boolean.class, def, "", meaning, Knob::parseBoolean, v -> true, "true or false");
  }

  static <E extends Enum<E>> Knob<E> ofEnum(String name, Scope scope, Class<E> type, E def, String meaning) {
    StringBuilder names = new StringBuilder("one of");
    for (E e : type.getEnumConstants()) {
      names.append(' ').append(e.name());
    }
    return new Knob<>(name, scope, type, def, "", meaning,
        s -> Enum.valueOf(type, s.toUpperCase(Locale.ROOT)), v -> true, names.toString());
  }

  /**
   * Reads a size: a plain number or one with the suffix K, M or G (also KB, KiB, ...; binary
   * multiples, any case). Only sizes take suffixes: for a TTL or a period, "1M" could as well mean
   * minutes or months.
   */
  static long parseSize(String s) {
    Matcher m = SIZE.matcher(s.trim().toUpperCase(Locale.ROOT).replace("_", ""));
    if (!m.matches()) {
      throw new NumberFormatException("not a size: " + s);
    }
    int shift = m.group(2) == null ? 0 : 10 * (1 + "KMG".indexOf(m.group(2)));
    return Math.multiplyExact(Long.parseLong(m.group(1)), 1L << shift);
  }

  static boolean parseBoolean(String s) {
    switch (s.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException("not a boolean: " + s);
    }
  }
}
