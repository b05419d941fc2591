package io.bellows.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Knob values given as text, {@code name=value}, read by the one parser over the registry ({@link Knobs}).
 * Every entry point that takes knobs by name uses it: the shell's and the server's {@code --set}, the
 * server's config file, the YCSB binding's properties and the benchmarks' {@code --set}. A name finds its
 * knob in any scope (case-insensitive; no two knobs share a name); the knob reads and checks the value.
 * Errors name the knob and what it accepts. Later assignments of a knob replace earlier ones.
 */
public final class KnobAssignments {
  private final Map<Knob<?>, Object> values;

  private KnobAssignments(Map<Knob<?>, Object> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  public static KnobAssignments none() {
    return new KnobAssignments(new LinkedHashMap<>());
  }

  /** Reads {@code name=value} items, as given to {@code --set}. */
  public static KnobAssignments parse(Iterable<String> assignments) {
    Map<String, String> byName = new LinkedHashMap<>();
    for (String a : assignments) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("'" + a + "' is not name=value (e.g. bellows.wal.max.files=64)");
      }
      byName.put(a.substring(0, eq).trim(), a.substring(eq + 1).trim());
    }
    return of(byName);
  }

  /** Reads values by knob name, as a properties file or YCSB's {@code -p} gives them. */
  public static KnobAssignments of(Map<String, String> byName) {
    Map<Knob<?>, Object> values = new LinkedHashMap<>();
    byName.forEach((name, text) -> {
      Knob<?> knob = knob(name);
      values.remove(knob); // the last assignment wins, in its own position
      values.put(knob, knob.parse(text));
    });
    return new KnobAssignments(values);
  }

  /** The knob called {@code name} in any scope; an unknown name is an error that says where the names are. */
  public static Knob<?> knob(String name) {
    for (Knob.Scope scope : Knob.Scope.values()) {
      Knob<?> k = Knobs.find(scope, name);
      if (k != null) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown setting '" + name + "': no engine, table or family knob has that"
        + " name (the README's configuration table lists them)");
  }

  /** The values read, by knob, in the order given. */
  public Map<Knob<?>, Object> values() {
    return values;
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** The values of knobs of {@code scope} alone. */
  public Map<Knob<?>, Object> values(Knob.Scope scope) {
    Map<Knob<?>, Object> out = new LinkedHashMap<>();
    values.forEach((k, v) -> {
      if (k.scope() == scope) {
        out.put(k, v);
      }
    });
    return out;
  }

  /**
   * Checks that every knob is of one of the {@code allowed} scopes, else throws naming the knob, its
   * scope and {@code where} the other scopes are set (e.g. "the shell's create and alter commands").
   */
  public KnobAssignments requireScopes(String where, Knob.Scope... allowed) {
    List<Knob.Scope> ok = List.of(allowed);
    List<String> wrong = new ArrayList<>();
    values.keySet().stream().filter(k -> !ok.contains(k.scope()))
        .forEach(k -> wrong.add(k.name() + " (a " + k.scope().name().toLowerCase(Locale.ROOT) + " setting)"));
    if (!wrong.isEmpty()) {
      throw new IllegalArgumentException(String.join(", ", wrong) + ": not settable here; " + where);
    }
    return this;
  }

  /** Sets on {@code builder} the values of its scope; the others are left for the builders of theirs. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public <B extends Settings.Builder<B>> B applyTo(B builder) {
    values.forEach((k, v) -> {
      if (k.scope() == builder.scope) {
        builder.set((Knob) k, v);
      }
    });
    return builder;
  }

  /** As {@code name=value} items, parseable by {@link #parse}. */
  public List<String> asText() {
    List<String> out = new ArrayList<>();
    values.forEach((k, v) -> out.add(k.name() + "=" + v));
    return out;
  }
}
