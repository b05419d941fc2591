package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.CellType;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A brute-force, obviously correct model of Bellows' read semantics (docs/design/scan.md, "What a
 * reader sees", steps 1–7) and of the MAJOR retention rules, over a plain list of one store's cells.
 * It follows the definition literally, one column at a time, with sets and maps instead of a
 * streaming merge; tests compare the engine's scanners and filters against it. Stateless.
 */
public final class ReferenceReader {
  private ReferenceReader() {}

  /** The cells a reader of {@code q} sees at time {@code now}, in cell order. */
  public static List<Cell> read(List<Cell> all, ScanQuery q, ColumnFamilyDescriptor fam, long now) {
    List<Cell> out = new ArrayList<>();
    if (!q.wantsFamily(fam.nameBytes())) {
      return out;
    }
    Set<String> wanted = null;
    if (q.qualifiers(fam.nameBytes()) != null) {
      wanted = new HashSet<>();
      for (byte[] b : q.qualifiers(fam.nameBytes())) {
        wanted.add(key(b));
      }
    }
    // Step 1: C = cells with seqId <= rp.
    List<Cell> c = new ArrayList<>();
    for (Cell cell : all) {
      if (cell.seqId() <= q.readPoint()) {
        c.add(cell);
      }
    }
    for (Map.Entry<String, List<Cell>> row : byRow(c).entrySet()) {
      byte[] rowKey = row.getValue().get(0).row();
      if (!q.rowInRange(rowKey, 0, rowKey.length)) {
        continue;
      }
      Long familyDelete = maxTs(row.getValue(), null, CellType.DELETE_FAMILY);
      for (Map.Entry<String, List<Cell>> col : byColumn(row.getValue()).entrySet()) {
        if (wanted != null && !wanted.contains(col.getKey())) {
          continue;
        }
        out.addAll(readColumn(col.getValue(), familyDelete, q, fam, now));
      }
    }
    out.sort(CellComparator.INSTANCE);
    return out;
  }

  private static List<Cell> readColumn(
      List<Cell> column, Long familyDelete, ScanQuery q, ColumnFamilyDescriptor fam, long now) {
    Long columnDelete = maxTs(column, null, CellType.DELETE_COLUMN);
    Set<Long> versionDeletes = new HashSet<>();
    for (Cell cell : column) {
      if (cell.type() == CellType.DELETE) {
        versionDeletes.add(cell.timestamp());
      }
    }
    // Steps 2–3: unmasked puts; per timestamp (newest first) the put with the highest seqId.
    TreeMap<Long, Cell> versions = new TreeMap<>((a, b) -> Long.compare(b, a));
    for (Cell cell : column) {
      if (cell.type() != CellType.PUT || masked(cell, familyDelete, columnDelete)) {
        continue;
      }
      versions.merge(cell.timestamp(), cell, (x, y) -> x.seqId() >= y.seqId() ? x : y);
    }
    List<Cell> result = new ArrayList<>();
    int rank = 0;
    for (Cell v : versions.values()) {
      if (rank >= fam.maxVersions()) {
        break; // step 4
      }
      boolean deleted = versionDeletes.contains(v.timestamp()); // step 5
      boolean expired = isExpired(v.timestamp(), fam, now) && rank >= fam.minVersions(); // step 6
      boolean inRange = v.timestamp() >= q.minTimestamp() && v.timestamp() < q.maxTimestamp(); // step 7
      if (!deleted && !expired && inRange && result.size() < q.maxVersions()) {
        result.add(v);
      }
      rank++;
    }
    return result;
  }

  /**
   * The MAJOR retention rules applied to every cell of a store ({@code all}): what a major
   * compaction at {@code now} with the given smallest read point writes, in cell order.
   */
  public static List<Cell> majorCompact(List<Cell> all, ColumnFamilyDescriptor fam, long smallestReadPoint, long now) {
    List<Cell> out = new ArrayList<>();
    List<Cell> seen = new ArrayList<>();
    for (Cell cell : all) {
      if (cell.seqId() > smallestReadPoint) {
        out.add(cell); // kept, takes no part in any decision
      } else {
        seen.add(cell);
      }
    }
    for (List<Cell> row : byRow(seen).values()) {
      Long familyDelete = maxTs(row, null, CellType.DELETE_FAMILY);
      for (List<Cell> column : byColumn(row).values()) {
        Long columnDelete = maxTs(column, null, CellType.DELETE_COLUMN);
        Set<Long> versionDeletes = new HashSet<>();
        for (Cell cell : column) {
          if (cell.type() == CellType.DELETE) {
            versionDeletes.add(cell.timestamp());
          }
        }
        TreeMap<Long, Cell> versions = new TreeMap<>((a, b) -> Long.compare(b, a));
        for (Cell cell : column) {
          if (cell.type() == CellType.PUT && !masked(cell, familyDelete, columnDelete)) {
            versions.merge(cell.timestamp(), cell, (x, y) -> x.seqId() >= y.seqId() ? x : y);
          }
        }
        int rank = 0;
        for (Cell v : versions.values()) {
          boolean keep = rank < fam.maxVersions()
              && !(isExpired(v.timestamp(), fam, now) && rank >= fam.minVersions())
              && !versionDeletes.contains(v.timestamp());
          if (keep) {
            out.add(v);
          }
          rank++;
        }
        // Every marker (seqId <= sRP) is dropped; so is every masked or overwritten put.
      }
    }
    out.sort(CellComparator.INSTANCE);
    return out;
  }

  static boolean isExpired(long ts, ColumnFamilyDescriptor fam, long now) {
    long ttl = fam.ttlMillis();
    // In exact arithmetic: ts < now - ttl.
    return ttl != Long.MAX_VALUE && java.math.BigInteger.valueOf(ts)
        .compareTo(java.math.BigInteger.valueOf(now).subtract(java.math.BigInteger.valueOf(ttl))) < 0;
  }

  private static boolean masked(Cell put, Long familyDelete, Long columnDelete) {
    return (familyDelete != null && familyDelete >= put.timestamp())
        || (columnDelete != null && columnDelete >= put.timestamp());
  }

  private static Long maxTs(List<Cell> cells, Long init, CellType type) {
    Long max = init;
    for (Cell cell : cells) {
      if (cell.type() == type && (max == null || cell.timestamp() > max)) {
        max = cell.timestamp();
      }
    }
    return max;
  }

  /** Rows in cell order, keyed by a printable form of the row (grouping only). */
  private static Map<String, List<Cell>> byRow(List<Cell> cells) {
    List<Cell> sorted = new ArrayList<>(cells);
    sorted.sort(CellComparator.INSTANCE);
    Map<String, List<Cell>> rows = new LinkedHashMap<>();
    for (Cell cell : sorted) {
      rows.computeIfAbsent(key(cell.row()), k -> new ArrayList<>()).add(cell);
    }
    return rows;
  }

  /** The columns of one row, without its DELETE_FAMILY markers (they belong to the whole row). */
  private static Map<String, List<Cell>> byColumn(List<Cell> row) {
    Map<String, List<Cell>> cols = new LinkedHashMap<>();
    for (Cell cell : row) {
      if (cell.type() != CellType.DELETE_FAMILY) {
        cols.computeIfAbsent(key(cell.qualifier()), k -> new ArrayList<>()).add(cell);
      }
    }
    return cols;
  }

  private static String key(byte[] b) {
    return Bytes.toStringBinary(b, 0, b.length);
  }
}
