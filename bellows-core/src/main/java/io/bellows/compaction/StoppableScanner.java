package io.bellows.compaction;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;
import java.util.function.BooleanSupplier;

/**
 * A compaction's input that ends the compaction when asked to: every {@link #CHECK_EVERY} cells
 * (the first included) it asks {@code stop}, and once that says yes it throws {@link Stopped}, which
 * the file writer passes on after deleting its unfinished output. Closing a store uses it, so that
 * a close does not wait for a compaction to rewrite files the next open still has. Not thread-safe.
 */
final class StoppableScanner implements CellScanner {
  /** Cells between two looks at the stop condition (a volatile read each). */
  static final int CHECK_EVERY = 256;

  /** Thrown through the writer when the compaction is stopped; nothing is committed. */
  static final class Stopped extends RuntimeException {
    Stopped() {
      super("compaction stopped: the store is closing", null, false, false);
    }
  }

  private final CellScanner in;
  private final BooleanSupplier stop;
  private int sinceCheck;

  StoppableScanner(CellScanner in, BooleanSupplier stop) {
    this.in = in;
    this.stop = stop;
  }

  @Override
  public Cell peek() {
    return in.peek();
  }

  @Override
  public Cell next() {
    if (sinceCheck-- == 0) {
      sinceCheck = CHECK_EVERY - 1;
      if (stop.getAsBoolean()) {
        throw new Stopped();
      }
    }
    return in.next();
  }

  @Override
  public boolean seek(Cell key) {
    return in.seek(key);
  }

  @Override
  public boolean reseek(Cell key) {
    return in.reseek(key);
  }

  @Override
  public void close() {
    in.close();
  }
}
