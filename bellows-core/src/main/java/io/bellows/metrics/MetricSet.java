package io.bellows.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Named counters (monotonic, {@link LongAdder}) and gauges (read on demand) of one component.
 * Thread-safe; counting is contention-free. Names are dotted lower case, e.g. {@code flush.count}.
 */
public final class MetricSet {
  private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
  private final Map<String, Supplier<? extends Number>> gauges = new ConcurrentHashMap<>();

  /** The counter of that name, created on first use. Keep the returned adder for hot paths. */
  public LongAdder counter(String name) {
    // A plain get first: computeIfAbsent locks the key's bin unless the key heads it, and gets
    // count on every read (threads waited there up to milliseconds with more threads than cores).
    LongAdder c = counters.get(name);
    return c != null ? c : counters.computeIfAbsent(name, n -> new LongAdder());
  }

  public void gauge(String name, Supplier<? extends Number> value) {
    gauges.put(name, value);
  }

  /** All values, sorted by name. */
  public Map<String, Number> snapshot() {
    Map<String, Number> out = new java.util.TreeMap<>();
    counters.forEach((k, v) -> out.put(k, v.sum()));
    gauges.forEach((k, v) -> out.put(k, v.get()));
    return new LinkedHashMap<>(out);
  }
}
