package io.bellows.config;

import io.bellows.util.Clock;
import java.util.Map;

/** Engine-wide settings given to {@code Bellows.open}, plus the injectable clock. */
public final class EngineOptions extends Settings {
  private final Clock clock;

  private EngineOptions(Map<Knob<?>, Object> values, Clock clock) {
    super(Knob.Scope.ENGINE, values);
    this.clock = clock;
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

  public Builder toBuilder() {
    Builder b = new Builder();
    b.setAll(explicitValues());
    b.clock = clock;
    return b;
  }

  /** Builder; every setter validates. */
  public static final class Builder extends Settings.Builder<Builder> {
    private Clock clock = Clock.SYSTEM;

    private Builder() {
      super(Knob.Scope.ENGINE);
    }

    public Builder clock(Clock clock) {
      this.clock = clock;
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
      return new EngineOptions(values, clock);
    }
  }
}
