package io.bellows.engine;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
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
 * family; increments write ts = max(now, current ts)), and major compaction, which is applied with
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

  /** Like the region's check-and-mutate: applies the mutation iff the newest value equals {@code expected}. */
  boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, byte[] expected, List<Cell> cells,
      long wholeRowDeleteTs, long now) {
    Cell current = latest(row, family, qualifier, now);
    byte[] actual = current == null ? null : current.value();
    boolean matches = expected == null ? actual == null : actual != null && Bytes.compare(expected, actual) == 0;
    if (matches) {
      mutate(row, cells, wholeRowDeleteTs, now);
    }
    return matches;
  }

  /**
   * The new counter value, or throws IllegalArgumentException (writing nothing) if the column's
   * newest value is not 8 bytes.
   */
  long increment(byte[] row, byte[] family, byte[] qualifier, long amount, long now) {
    Cell current = latest(row, family, qualifier, now);
    long base = 0;
    long ts = now;
    if (current != null) {
      if (current.valueLength() != 8) {
        throw new IllegalArgumentException("not an 8-byte counter");
      }
      base = Bytes.getLong(current.array(), current.valueOffset());
      ts = Math.max(ts, current.timestamp());
    }
    long result = base + amount;
    mutate(row, List.of(Cells.put(row, family, qualifier, ts, Bytes.toBytes(result))), -1, now);
    return result;
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
