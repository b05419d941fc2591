package io.bellows.engine;

import java.util.List;

/**
 * Told of each step of a region split ({@link #STEPS}, in order), on the splitting thread, before
 * the split goes on: the split waits for the call. Given to the engine when it opens; tests use it
 * to stop or copy the data directory at a step as a crash would leave it, or to act at a step.
 */
@FunctionalInterface
interface SplitListener {
  /** The steps of a split, in order. */
  List<String> STEPS = List.of("flushed", "intent-written", "daughter-a-linked", "daughters-linked", "committed",
      "parent-closed", "parent-deleted");

  /** Listens to nothing. */
  SplitListener NONE = step -> { };

  /** The split reached {@code step}; throwing an Error here leaves the split as a crash would. */
  void step(String step);
}
