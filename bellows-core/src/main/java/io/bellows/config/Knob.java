package io.bellows.config;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

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
    FAMILY
  }

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

  // ---- builders used by Knobs ----

  static Knob<Integer> ofInt(String name, Scope scope, int def, int min, int max, String unit, String meaning) {
    return new Knob<>(name, scope, Integer.class, def, unit, meaning, Integer::valueOf,
        v -> v >= min && v <= max, "an integer from " + min + " to " + max);
  }

  static Knob<Long> ofLong(String name, Scope scope, long def, long min, long max, String unit, String meaning) {
    return new Knob<>(name, scope, Long.class, def, unit, meaning, Knob::parseLong,
        v -> v >= min && v <= max, "an integer from " + min + " to " + max);
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

  /** Accepts plain numbers and the suffixes K, M, G (binary multiples) for sizes. */
  static long parseLong(String s) {
    String t = s.trim().toUpperCase(Locale.ROOT).replace("_", "");
    long mult = 1;
    if (t.endsWith("KIB") || t.endsWith("KB") || t.endsWith("K")) {
      mult = 1L << 10;
    } else if (t.endsWith("MIB") || t.endsWith("MB") || t.endsWith("M")) {
      mult = 1L << 20;
    } else if (t.endsWith("GIB") || t.endsWith("GB") || t.endsWith("G")) {
      mult = 1L << 30;
    }
    if (mult != 1) {
      t = t.replaceAll("[A-Z]+$", "");
    }
    return Math.multiplyExact(Long.parseLong(t.trim()), mult);
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
