package io.bellows.bench;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.MemStorePolicy;

/**
 * One memory-store configuration under test: policy, layout and flush size (the memory budget).
 * Turns itself into the family descriptor and engine options the engine would use, so every
 * setting reaches the memory store through the same knobs as in production. Immutable.
 *
 * @param policy the {@code IN_MEMORY_COMPACTION} policy
 * @param index the memory layout
 * @param flushSize bytes of footprint at which the store is flushed to "disk" (the memory budget)
 * @param inMemoryFlushFraction Accordion's A, or a negative value for the knob's default
 * @param familyKnobs further family knobs by their documented names (e.g. {@code ADAPTIVE_THRESHOLD}),
 *     applied last; engine knobs among them (dotted names) go to {@link #engine()} and the engine runs' options
 */
public record StoreConfig(MemStorePolicy policy, IndexKind index, long flushSize, double inMemoryFlushFraction,
    java.util.Map<String, String> familyKnobs) {
  public static final String FAMILY_NAME = "f";

  public StoreConfig {
    familyKnobs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(familyKnobs));
  }

  public StoreConfig(MemStorePolicy policy, IndexKind index, long flushSize) {
    this(policy, index, flushSize, -1);
  }

  public StoreConfig(MemStorePolicy policy, IndexKind index, long flushSize, double inMemoryFlushFraction) {
    this(policy, index, flushSize, inMemoryFlushFraction, java.util.Map.of());
  }

  public ColumnFamilyDescriptor family() {
    ColumnFamilyDescriptor.Builder b = ColumnFamilyDescriptor.builder(FAMILY_NAME)
        .memStorePolicy(policy)
        .set(Knobs.ACTIVE_INDEX, index.activeIndex)
        .set(Knobs.SEGMENT_INDEX, index.segmentIndex)
        .set(Knobs.MSLAB, index.mslab);
    if (inMemoryFlushFraction > 0) {
      b.set(Knobs.IN_MEMORY_FLUSH_FRACTION, inMemoryFlushFraction);
    }
    return io.bellows.config.KnobAssignments.of(familyKnobs).applyTo(b).build();
  }

  public EngineOptions engine() {
    EngineOptions.Builder b = EngineOptions.builder().set(Knobs.CHUNK_OFF_HEAP, index.offHeap);
    return io.bellows.config.KnobAssignments.of(familyKnobs).applyTo(b).build();
  }

  /** Short label for tables, e.g. {@code BASIC/OBJECT}. */
  public String label() {
    return policy + "/" + index;
  }
}
