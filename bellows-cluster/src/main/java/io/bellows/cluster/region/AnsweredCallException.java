package io.bellows.cluster.region;

import io.bellows.cell.Cell;
import io.bellows.engine.CallId;
import java.util.List;

/**
 * The write's call was applied before (a client's retry): nothing was applied now, and the answer
 * is the first one, {@link #values} (the cells its updates wrote). Thrown through the region's
 * writer, which evaluates nothing more, and caught by {@link RaftRegionLog#answerOnce}.
 */
final class AnsweredCallException extends RuntimeException {
  private final transient List<Cell> values;

  AnsweredCallException(CallId call, List<Cell> values) {
    super(call + " was applied before; answering its first answer", null, false, false);
    this.values = values;
  }

  List<Cell> values() {
    return values;
  }
}
