package io.bellows.memstore;

import java.util.SplittableRandom;

/** Creates the memory store a column family asks for with its {@code IN_MEMORY_COMPACTION} knob. */
public final class MemStores {
  private MemStores() {}

  /** NONE gives a {@link DefaultMemStore}; BASIC, EAGER and ADAPTIVE a {@link CompactingMemStore}. */
  public static MemStore create(MemStoreContext context) {
    return switch (context.options().policy()) {
      case NONE -> new DefaultMemStore(context);
      case BASIC, EAGER, ADAPTIVE -> new CompactingMemStore(context, new SplittableRandom()::nextDouble);
    };
  }
}
