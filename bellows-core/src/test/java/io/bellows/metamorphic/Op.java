package io.bellows.metamorphic;

import io.bellows.cell.Cell;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Mutation;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One operation of the metamorphic stream. {@link #run} applies it to one engine and returns what
 * the test compares across configurations — the cells a read returned, a counter's value, whether a
 * check matched, the class of an exception — or null when the operation has no answer to compare
 * (flushes, compactions, splits, reopening, the clock).
 *
 * <p>An operation holds its own request objects; {@link OpStream} makes a fresh one for every
 * configuration, so nothing one engine does to a request can reach another.
 */
sealed interface Op {
  String run(Subject s);

  /** The operation in one line, for failure reports. */
  String describe();

  record PutOp(Put put) implements Op {
    public String run(Subject s) {
      return outcome(() -> s.table().put(put));
    }

    public String describe() {
      return "put " + Show.mutation(put);
    }
  }

  record PutBatch(List<Put> puts) implements Op {
    public String run(Subject s) {
      return outcome(() -> s.table().put(puts));
    }

    public String describe() {
      return "batch put " + puts.stream().map(Show::mutation).collect(Collectors.joining(", "));
    }
  }

  record DeleteOp(Delete delete) implements Op {
    public String run(Subject s) {
      return outcome(() -> s.table().delete(delete));
    }

    public String describe() {
      return "delete " + Show.mutation(delete);
    }
  }

  record DeleteBatch(List<Delete> deletes) implements Op {
    public String run(Subject s) {
      return outcome(() -> s.table().delete(deletes));
    }

    public String describe() {
      return "batch delete " + deletes.stream().map(Show::mutation).collect(Collectors.joining(", "));
    }
  }

  record Increment(byte[] row, byte[] family, byte[] qualifier, long amount) implements Op {
    public String run(Subject s) {
      try {
        return "= " + s.table().incrementColumnValue(row, family, qualifier, amount);
      } catch (RuntimeException e) {
        return "threw " + e.getClass().getSimpleName();
      }
    }

    public String describe() {
      return "increment " + Show.column(row, family, qualifier) + " by " + amount;
    }
  }

  /** Check-and-put or check-and-delete: the answer is whether the check matched. */
  record CheckAndMutate(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Mutation then) implements Op {
    public String run(Subject s) {
      try {
        boolean applied = then instanceof Put p
            ? s.table().checkAndPut(row, family, qualifier, expected, p)
            : s.table().checkAndDelete(row, family, qualifier, expected, (Delete) then);
        return "applied " + applied;
      } catch (RuntimeException e) {
        return "threw " + e.getClass().getSimpleName();
      }
    }

    public String describe() {
      return "check " + Show.column(row, family, qualifier) + " == " + Show.value(expected) + " then "
          + (then instanceof Put ? "put " : "delete ") + Show.mutation(then);
    }
  }

  record GetOp(Get get, String shape) implements Op {
    public String run(Subject s) {
      Result r = s.table().get(get);
      return r.isEmpty() ? "(no cells)" : Show.row(r.cells());
    }

    public String describe() {
      return "get " + Bytes.toStringBinary(get.row()) + shape;
    }
  }

  record ScanOp(Scan scan, String shape) implements Op {
    public String run(Subject s) {
      List<String> rows = new ArrayList<>();
      try (ResultScanner rs = s.table().getScanner(scan)) {
        Result r;
        while ((r = rs.next()) != null) {
          rows.add(Show.row(r.cells()));
        }
      }
      return rows.isEmpty() ? "(no rows)" : String.join("\n", rows);
    }

    public String describe() {
      return "scan" + shape;
    }
  }

  record Flush() implements Op {
    public String run(Subject s) {
      s.maintain(() -> s.db().flush(Configuration.TABLE));
      return null;
    }

    public String describe() {
      return "flush";
    }
  }

  record Compact(boolean major) implements Op {
    public String run(Subject s) {
      if (major) {
        s.majorCompact();
      } else {
        s.maintain(() -> s.db().compact(Configuration.TABLE));
      }
      return null;
    }

    public String describe() {
      return major ? "flush + major compaction" : "compaction";
    }
  }

  /** Splits the region holding the row at the row, unless it already starts a region or there are many. */
  record Split(byte[] row) implements Op {
    public String run(Subject s) {
      s.split(row);
      return null;
    }

    public String describe() {
      return "split at " + Bytes.toStringBinary(row);
    }
  }

  record Reopen() implements Op {
    public String run(Subject s) {
      s.reopen();
      return null;
    }

    public String describe() {
      return "close + reopen";
    }
  }

  record Advance(long millis) implements Op {
    public String run(Subject s) {
      s.clock().advance(millis);
      return null;
    }

    public String describe() {
      return "clock +" + millis + " ms";
    }
  }

  private static String outcome(Runnable write) {
    try {
      write.run();
      return null;
    } catch (RuntimeException e) {
      return "threw " + e.getClass().getSimpleName();
    }
  }

  /** Printing of cells and requests. */
  final class Show {
    private Show() {}

    static String row(List<Cell> cells) {
      StringBuilder sb = new StringBuilder();
      for (Cell c : cells) {
        if (sb.length() > 0) {
          sb.append("  ");
        }
        sb.append(Bytes.toStringBinary(c.row())).append('/').append(Bytes.toStringBinary(c.family())).append(':')
            .append(Bytes.toStringBinary(c.qualifier())).append('/').append(c.timestamp()).append('/')
            .append(c.type()).append('=').append(value(c.value()));
      }
      return sb.toString();
    }

    static String mutation(Mutation m) {
      StringBuilder sb = new StringBuilder(Bytes.toStringBinary(m.row())).append('{');
      if (m instanceof Delete d && d.isWholeRow()) {
        sb.append("whole row @").append(ts(d.timestamp()));
      }
      for (Cell c : m.cells()) {
        sb.append(' ').append(Bytes.toStringBinary(c.family())).append(':').append(Bytes.toStringBinary(c.qualifier()))
            .append('@').append(ts(c.timestamp())).append(' ').append(c.type());
        if (!c.isDelete()) {
          sb.append('=').append(value(c.value()));
        }
      }
      return sb.append(" }").toString();
    }

    static String column(byte[] row, byte[] family, byte[] qualifier) {
      return Bytes.toStringBinary(row) + "/" + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier);
    }

    static String ts(long ts) {
      return ts == Mutation.LATEST_TIMESTAMP ? "LATEST" : Long.toString(ts);
    }

    /** Length and a short hash keep long values readable; 8-byte values are shown as counters. */
    static String value(byte[] v) {
      if (v == null) {
        return "<absent>";
      }
      if (v.length == 8) {
        return "long:" + Bytes.getLong(v, 0);
      }
      return v.length + "b#" + Integer.toHexString(java.util.Arrays.hashCode(v));
    }
  }
}
