package io.bellows.memstore;

import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Runs a memory store's in-memory flushes and compactions on threads its owner provides. A task
 * <em>returns</em> what its owner needs to know — the memory store's new oldest unflushed sequence
 * id when the work raised it (old versions were eliminated), else {@link #UNCHANGED} — so the
 * engine decides about WAL files from results, not from callbacks relayed up through the layers.
 */
@FunctionalInterface
public interface InMemoryWork {
  /** A task's result when the oldest unflushed sequence id did not rise. */
  long UNCHANGED = -1;

  /** Runs {@code task} later on another thread. */
  void submit(LongSupplier task);

  /** Runs tasks on {@code executor} and ignores their results (tests and benchmarks). */
  static InMemoryWork on(Executor executor) {
    return task -> executor.execute(task::getAsLong);
  }
}
