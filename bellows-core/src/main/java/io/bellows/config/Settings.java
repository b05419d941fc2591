package io.bellows.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable set of knob values of one scope; knobs not set read as their default. Shared base of
 * {@link EngineOptions} and the table/family descriptors.
 */
public class Settings {
  private final Knob.Scope scope;
  private final Map<Knob<?>, Object> values;

  protected Settings(Knob.Scope scope, Map<Knob<?>, Object> values) {
    this.scope = scope;
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    for (Knob<?> k : values.keySet()) {
      if (k.scope() != scope) {
        throw new IllegalArgumentException(k.name() + " is a " + k.scope() + " setting, not a " + scope + " setting");
      }
    }
  }

  public final <T> T get(Knob<T> knob) {
    if (knob.scope() != scope) {
      throw new IllegalArgumentException(knob.name() + " is a " + knob.scope() + " setting");
    }
    Object v = values.get(knob);
    return v == null ? knob.defaultValue() : knob.type().cast(v);
  }

  /** Only the knobs set explicitly. */
  public final Map<Knob<?>, Object> explicitValues() {
    return values;
  }

  public final Knob.Scope scope() {
    return scope;
  }

  /** Collects knob values, validating each as it is set. */
  public abstract static class Builder<B extends Builder<B>> {
    protected final Knob.Scope scope;
    protected final Map<Knob<?>, Object> values = new LinkedHashMap<>();

    protected Builder(Knob.Scope scope) {
      this.scope = scope;
    }

    @SuppressWarnings("unchecked")
    public final <T> B set(Knob<T> knob, T value) {
      if (knob.scope() != scope) {
        throw new IllegalArgumentException(knob.name() + " is a " + knob.scope() + " setting, not a " + scope + " setting");
      }
      values.put(knob, knob.validate(value));
      return (B) this;
    }

    /** Sets a knob by name from text or a boxed value, as the shell and properties files do. */
    @SuppressWarnings("unchecked")
    public final B set(String name, Object value) {
      Knob<?> knob = Knobs.find(scope, name);
      if (knob == null) {
        throw new IllegalArgumentException("unknown " + scope.name().toLowerCase() + " setting '" + name + "'");
      }
      values.put(knob, knob.cast(value));
      return (B) this;
    }

    protected final B setAll(Map<Knob<?>, Object> from) {
      from.forEach((k, v) -> values.put(k, v));
      @SuppressWarnings("unchecked")
      B self = (B) this;
      return self;
    }
  }
}
