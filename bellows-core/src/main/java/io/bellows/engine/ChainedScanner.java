package io.bellows.engine;

import io.bellows.cell.Cell;
import io.bellows.scan.RowScanner;
import java.util.List;
import java.util.function.LongFunction;

/**
 * The rows of several scanners one after the other, each opened when the one before it ends (a
 * scan across regions that some other party serves: a cluster's region leaders), within one limit
 * of rows: {@code open} gets the rows still allowed and returns the next part's scanner, or null
 * when there is no next part. Stale if any part it opened was.
 */
public final class ChainedScanner implements RowScanner {
  /** Opens part {@code index} of a chain, allowed {@code rowsLeft} rows. */
  public interface Parts {
    /** The next part's scanner, or null: the chain has no part {@code index}. */
    RowScanner open(int index, long rowsLeft);
  }

  private final Parts parts;
  private final long limit;
  private int next;
  private long returned;
  private boolean stale;
  private RowScanner current;

  /** Opens the first part at once (its failure is the chain's). */
  public ChainedScanner(Parts parts, long limit) {
    this.parts = parts;
    this.limit = limit;
    this.current = parts.open(next++, limit);
    this.stale = current != null && current.mayBeStale();
  }

  /** A chain over the given open functions' order (a convenience for a list of parts). */
  public static ChainedScanner of(List<LongFunction<RowScanner>> parts, long limit) {
    return new ChainedScanner((i, left) -> i < parts.size() ? parts.get(i).apply(left) : null, limit);
  }

  @Override
  public boolean nextRow(List<Cell> out) {
    while (current != null) {
      if (returned < limit && current.nextRow(out)) {
        returned++;
        return true;
      }
      current.close();
      current = null;
      if (returned < limit) {
        current = parts.open(next++, limit == Long.MAX_VALUE ? limit : limit - returned);
        stale |= current != null && current.mayBeStale();
      }
    }
    return false;
  }

  @Override
  public boolean mayBeStale() {
    return stale;
  }

  @Override
  public void close() {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
