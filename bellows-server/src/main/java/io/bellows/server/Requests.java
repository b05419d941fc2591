package io.bellows.server;

import io.bellows.protocol.Cell;
import io.bellows.protocol.Filter;
import io.bellows.protocol.MutateRowRequest;
import io.bellows.protocol.RowMutation;
import io.bellows.wire.WireErrors;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Checks of requests before anything runs, with the Java API's rules (a row key is never empty, a
 * timestamp never negative, filters nest at most {@link #MAX_FILTER_DEPTH} deep), and the budgets
 * of a batch ({@link ServerLimits}): a violation is INVALID_ARGUMENT or RESOURCE_EXHAUSTED, with
 * nothing applied. Stateless.
 */
final class Requests {
  /** Deepest filter nesting accepted (a list in a list ... ); HBase's filter language has no deeper need. */
  static final int MAX_FILTER_DEPTH = 32;

  private Requests() {}

  /** RESOURCE_EXHAUSTED for a request or answer over a budget: not retried, nothing applied. */
  static StatusRuntimeException exceeded(String message) {
    Metadata trailers = new Metadata();
    trailers.put(WireErrors.APPLIED, "false");
    return Status.RESOURCE_EXHAUSTED.withDescription(message).asRuntimeException(trailers);
  }

  static void checkBatch(String what, int count, ServerLimits limits) {
    if (count > limits.maxBatchRows()) {
      throw exceeded(count + " " + what + " in one call, more than max.batch.rows (" + limits.maxBatchRows()
          + "); split the batch");
    }
  }

  static void check(RowMutation m) {
    if (m.getRow().isEmpty()) {
      throw new IllegalArgumentException("row key must not be null or empty");
    }
    for (Cell c : m.getCellsList()) {
      if (c.getTimestamp() < 0) {
        throw new IllegalArgumentException("timestamp must not be negative: " + c.getTimestamp());
      }
    }
  }

  static void check(MutateRowRequest r) {
    if (r.hasMutation()) {
      check(r.getMutation());
    }
    if (r.hasCondition() && r.getCondition().hasFilter()) {
      check(r.getCondition().getFilter());
    }
  }

  /** A filter's nesting, walked without recursion so that a deep one cannot overflow the stack. */
  static void check(Filter f) {
    Deque<Filter> level = new ArrayDeque<>();
    level.add(f);
    int depth = 0;
    while (!level.isEmpty()) {
      if (++depth > MAX_FILTER_DEPTH) {
        throw new IllegalArgumentException("filters nest " + depth + " deep or more; at most " + MAX_FILTER_DEPTH);
      }
      Deque<Filter> next = new ArrayDeque<>();
      for (Filter x : level) {
        if (x.hasList()) {
          next.addAll(x.getList().getFiltersList());
        }
      }
      level = next;
    }
  }

  /** Bytes of cells answered so far by one call, against {@code max.response.bytes}. */
  static final class ResponseBudget {
    private final long max;
    private long used;

    ResponseBudget(long max) {
      this.max = max;
    }

    void add(java.util.List<io.bellows.cell.Cell> cells) {
      for (io.bellows.cell.Cell c : cells) {
        used += c.length();
      }
      if (used > max) {
        throw exceeded("the answer would hold more than max.response.bytes (" + max
            + ") of cells; ask for fewer rows, columns or versions, or scan");
      }
    }
  }
}
