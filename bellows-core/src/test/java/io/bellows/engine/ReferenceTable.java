package io.bellows.engine;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.ValueFilter;
import io.bellows.scan.ReferenceReader;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-memory reference of one Bellows table for {@link EngineModelTest}: every cell ever written
 * (per family, with sequence ids the model assigns itself, increasing in operation order), read
 * through {@link ReferenceReader}. It knows nothing of memory stores, files, flushes or minor
 * compactions — those must not change what a reader sees. It does model the two things that do:
 * how the region stamps a mutation (LATEST → now; a DELETE of the latest version resolves to the
 * newest visible version's timestamp or is dropped; a whole-row delete is a DELETE_FAMILY per
 * family; increments and appends write ts = max(now, current ts), all cells of an operation with one
 * sequence id; conditions by HBase's rules), and major compaction, which is applied with
 * {@link ReferenceReader#majorCompact} to every family.
 *
 * <p>Not thread-safe; one test thread drives it. Invariant: {@code nextSeqId} is larger than every
 * sequence id held.
 */
final class ReferenceTable {
  private final TableDescriptor descriptor;
  private final Map<String, List<Cell>> cellsByFamily = new LinkedHashMap<>();
  private long nextSeqId = 1;

  ReferenceTable(TableDescriptor descriptor) {
    this.descriptor = descriptor;
    for (ColumnFamilyDescriptor f : descriptor.families()) {
      cellsByFamily.put(f.name(), new ArrayList<>());
    }
  }

  /** Applies a put or delete as the region does; {@code wholeRowDeleteTs >= 0} deletes the whole row. */
  void mutate(byte[] row, List<Cell> cells, long wholeRowDeleteTs, long now) {
    List<Cell> expanded = cells;
    if (wholeRowDeleteTs >= 0) {
      expanded = new ArrayList<>();
      for (ColumnFamilyDescriptor f : descriptor.families()) {
        expanded.add(Cells.create(row, f.nameBytes(), Bytes.EMPTY, wholeRowDeleteTs, CellType.DELETE_FAMILY, Bytes.EMPTY));
      }
    }
    // Stamp against the state before this mutation, then publish all cells with one sequence id.
    List<Cell> stamped = new ArrayList<>();
    for (Cell c : expanded) {
      long ts = c.timestamp();
      if (ts == Long.MAX_VALUE) {
        ts = now;
        if (c.type() == CellType.DELETE) {
          Cell latest = latest(row, c.family(), c.qualifier(), now);
          if (latest == null) {
            continue;
          }
          ts = latest.timestamp();
        }
      }
      stamped.add(Cells.create(c.row(), c.family(), c.qualifier(), ts, c.type(), c.value()));
    }
    if (stamped.isEmpty()) {
      return;
    }
    long seq = nextSeqId++;
    for (Cell c : stamped) {
      c.setSeqId(seq);
      cellsByFamily.get(Bytes.str(c.family())).add(c);
    }
  }

  /** Like the region's check-and-mutate with an equality condition (null or empty: absent or empty). */
  boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, byte[] expected, List<Cell> cells,
      long wholeRowDeleteTs, long now) {
    return mutateRow(row, Condition.ifEquals(family, qualifier, expected), cells, wholeRowDeleteTs, List.of(), now) != null;
  }

  /**
   * Like the region's atomic row operation: if the condition holds (null: none), writes the cells
   * and the updates' new values with one sequence id. Returns the update cells written (in cell
   * order), or null if the condition failed. Throws IllegalArgumentException (writing nothing) if an
   * increment meets a value that is not 8 bytes.
   */
  List<Cell> mutateRow(byte[] row, Condition condition, List<Cell> cells, long wholeRowDeleteTs,
      List<ColumnUpdate> updates, long now) {
    if (condition != null && !holds(row, condition, now)) {
      return null;
    }
    List<Cell> values = new ArrayList<>();
    for (ColumnUpdate u : updates) {
      String family = Bytes.str(u.family());
      List<Cell> read = ReferenceReader.read(cellsByFamily.get(family), ScanQuery.builder().singleRow(row)
          .addColumn(u.family(), u.qualifier()).timeRange(u.minTimestamp(), u.maxTimestamp()).build(),
          descriptor.family(family), now);
      Cell current = read.isEmpty() ? null : read.get(0);
      byte[] value;
      if (u.kind() == ColumnUpdate.Kind.INCREMENT) {
        if (current != null && current.valueLength() != 8) {
          throw new IllegalArgumentException("not an 8-byte counter");
        }
        value = Bytes.toBytes((current == null ? 0 : Bytes.getLong(current.value(), 0)) + u.amount());
      } else {
        byte[] old = current == null ? Bytes.EMPTY : current.value();
        value = java.util.Arrays.copyOf(old, old.length + u.operand().length);
        System.arraycopy(u.operand(), 0, value, old.length, u.operand().length);
      }
      long ts = current == null ? now : Math.max(now, current.timestamp());
      values.add(Cells.put(row, u.family(), u.qualifier(), ts, value));
    }
    if (wholeRowDeleteTs >= 0) {
      mutate(row, cells, wholeRowDeleteTs, now);
    } else {
      List<Cell> all = new ArrayList<>(cells);
      all.addAll(values);
      mutate(row, all, -1, now);
    }
    values.sort(CellComparator.INSTANCE);
    return values;
  }

  /**
   * Whether a condition holds at {@code now}, by HBase's rules written out here on their own: a
   * column's newest version in the time range compared as compare(expected, stored), unsigned; an
   * empty expected value asks about absence. Of filter conditions the model knows one kind, a
   * {@link ValueFilter} with {@code EQUAL} and a binary comparator: some newest cell of the row in
   * the time range holds the operand.
   */
  boolean holds(byte[] row, Condition c, long now) {
    ScanQuery.Builder q = ScanQuery.builder().singleRow(row).timeRange(c.minTimestamp(), c.maxTimestamp());
    if (c.isFilter()) {
      ValueFilter f = (ValueFilter) c.filter();
      if (f.operator() != CompareOperator.EQUAL || f.comparator().kind() != ByteComparator.Kind.BINARY) {
        throw new IllegalArgumentException("the model knows ValueFilter EQUAL binary only");
      }
      for (List<Cell> r : read(q.build(), now)) {
        for (Cell cell : r) {
          if (java.util.Arrays.equals(cell.value(), f.comparator().operand())) {
            return true;
          }
        }
      }
      return false;
    }
    String family = Bytes.str(c.family());
    List<Cell> column = ReferenceReader.read(cellsByFamily.get(family), q.addColumn(c.family(), c.qualifier()).build(),
        descriptor.family(family), now);
    byte[] stored = column.isEmpty() ? null : column.get(0).value();
    byte[] expected = c.expected();
    if (expected.length == 0) {
      boolean asksPresence = c.operator() == CompareOperator.NOT_EQUAL;
      return stored == null ? !asksPresence : (stored.length == 0) != asksPresence;
    }
    if (stored == null) {
      return false;
    }
    int cmp = java.util.Arrays.compareUnsigned(expected, stored);
    switch (c.operator()) {
      case LESS: return cmp < 0;
      case LESS_OR_EQUAL: return cmp <= 0;
      case EQUAL: return cmp == 0;
      case NOT_EQUAL: return cmp != 0;
      case GREATER_OR_EQUAL: return cmp >= 0;
      case GREATER: return cmp > 0;
      default: return false;
    }
  }

  /**
   * The new counter value, or throws IllegalArgumentException (writing nothing) if the column's
   * newest value is not 8 bytes.
   */
  long increment(byte[] row, byte[] family, byte[] qualifier, long amount, long now) {
    List<Cell> cells = mutateRow(row, null, List.of(), -1, List.of(ColumnUpdate.increment(family, qualifier, amount)), now);
    return Bytes.getLong(cells.get(0).value(), 0);
  }

  /** The newest visible version of a column at {@code now}, or null. */
  Cell latest(byte[] row, byte[] family, byte[] qualifier, long now) {
    ScanQuery q = ScanQuery.builder().singleRow(row).addColumn(family, qualifier).build();
    List<Cell> cells = ReferenceReader.read(cellsByFamily.get(Bytes.str(family)), q, descriptor.family(Bytes.str(family)), now);
    return cells.isEmpty() ? null : cells.get(0);
  }

  /** The rows a reader of {@code q} sees at {@code now}: each row's cells in cell order, at most q.limit() rows. */
  List<List<Cell>> read(ScanQuery q, long now) {
    List<Cell> all = new ArrayList<>();
    for (ColumnFamilyDescriptor f : descriptor.families()) {
      all.addAll(ReferenceReader.read(cellsByFamily.get(f.name()), q, f, now));
    }
    all.sort(CellComparator.INSTANCE);
    List<List<Cell>> rows = new ArrayList<>();
    for (Cell c : all) {
      if (rows.isEmpty() || !rows.get(rows.size() - 1).get(0).sameRow(c)) {
        if (rows.size() == q.limit()) {
          break;
        }
        rows.add(new ArrayList<>());
      }
      rows.get(rows.size() - 1).add(c);
    }
    return rows;
  }

  /**
   * A major compaction of every family at {@code now}. The engine test flushes first, so every cell
   * is in the files the compaction reads, and no reader is open, so the smallest read point covers
   * every cell.
   */
  void majorCompact(long now) {
    for (ColumnFamilyDescriptor f : descriptor.families()) {
      List<Cell> kept = ReferenceReader.majorCompact(cellsByFamily.get(f.name()), f, Long.MAX_VALUE, now);
      cellsByFamily.put(f.name(), new ArrayList<>(kept));
    }
  }

  /**
   * Makes this table hold what {@code snapshot} holds, as a restore of a snapshot does; the sequence
   * ids go on from this table's (the engine raises its sequence above the snapshot's edits too).
   */
  void restore(ReferenceTable snapshot) {
    cellsByFamily.clear();
    snapshot.cellsByFamily.forEach((f, cells) -> cellsByFamily.put(f, new ArrayList<>(cells)));
    nextSeqId = Math.max(nextSeqId, snapshot.nextSeqId);
  }

  /** Every cell held for a row (markers and hidden versions too), for failure reports. */
  List<Cell> rawCells(byte[] row) {
    List<Cell> out = new ArrayList<>();
    for (List<Cell> l : cellsByFamily.values()) {
      for (Cell c : l) {
        if (Bytes.compare(c.row(), row) == 0) {
          out.add(c);
        }
      }
    }
    out.sort(CellComparator.INSTANCE);
    return out;
  }

  /** Cells held (markers and hidden versions included); for sizing the test. */
  int cellCount() {
    int n = 0;
    for (List<Cell> l : cellsByFamily.values()) {
      n += l.size();
    }
    return n;
  }
}
