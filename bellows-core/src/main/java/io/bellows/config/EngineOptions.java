package io.bellows.config;

import io.bellows.util.Clock;
import io.bellows.util.EventListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Engine-wide settings given to {@code Bellows.open}, plus the injectable clock and the event
 * listeners.
 */
public final class EngineOptions extends Settings {
  private final Clock clock;
  private final List<EventListener> eventListeners;

  private EngineOptions(Map<Knob<?>, Object> values, Clock clock, List<EventListener> eventListeners) {
    super(Knob.Scope.ENGINE, values);
    this.clock = clock;
    this.eventListeners = List.copyOf(eventListeners);
  }

  public static EngineOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Clock clock() {
    return clock;
  }

  /** The registered event listeners, in registration order (the order they are called in). */
  public List<EventListener> eventListeners() {
    return eventListeners;
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.setAll(explicitValues());
    b.clock = clock;
    b.eventListeners.addAll(eventListeners);
    return b;
  }

  /** Builder; every setter validates. */
  public static final class Builder extends Settings.Builder<Builder> {
    private Clock clock = Clock.SYSTEM;
    private final List<EventListener> eventListeners = new ArrayList<>();

    private Builder() {
      super(Knob.Scope.ENGINE);
    }

    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /**
     * Adds a listener of the engine's flushes, compactions, write stalls and background errors; may
     * be called several times. See {@link EventListener} for the threads it is called on.
     */
    public Builder eventListener(EventListener listener) {
      eventListeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    public EngineOptions build() {
      if (values.containsKey(Knobs.COMPACTION_MIN_FILES) || values.containsKey(Knobs.COMPACTION_MAX_FILES)) {
        int min = (Integer) values.getOrDefault(Knobs.COMPACTION_MIN_FILES, Knobs.COMPACTION_MIN_FILES.defaultValue());
        int max = (Integer) values.getOrDefault(Knobs.COMPACTION_MAX_FILES, Knobs.COMPACTION_MAX_FILES.defaultValue());
        if (min > max) {
          throw new IllegalArgumentException(Knobs.COMPACTION_MIN_FILES + " (" + min + ") exceeds "
              + Knobs.COMPACTION_MAX_FILES + " (" + max + ")");
        }
      }
      return new EngineOptions(values, clock, eventListeners);
    }
  }
}
