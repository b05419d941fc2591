package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random stores, queries and family settings for the property tests, drawn from small alphabets
 * (3 rows, 3 qualifiers including the empty one, 5 timestamps) so that collisions, masking and
 * overwrites are common. Everything is derived from one seed, which the tests print.
 */
final class RandomCase {
  static final byte[] FAMILY = Bytes.of("f");
  static final String[] ROWS = {"a", "b", "c"};
  static final String[] QUALIFIERS = {"", "x", "y"};
  /** Row bounds for queries: the rows plus one between them. */
  private static final String[] BOUNDS = {"", "a", "b", "bb", "c"};

  private final Random random;

  RandomCase(long seed) {
    this.random = new Random(seed);
  }

  Random random() {
    return random;
  }

  /** Up to {@code max} cells with distinct sequence ids 1..n in random order. */
  List<Cell> cells(int max) {
    int n = random.nextInt(max + 1);
    List<Long> seqs = new ArrayList<>();
    for (long s = 1; s <= n; s++) {
      seqs.add(s);
    }
    Collections.shuffle(seqs, random);
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String row = ROWS[random.nextInt(ROWS.length)];
      String q = QUALIFIERS[random.nextInt(QUALIFIERS.length)];
      long ts = 1000L * (1 + random.nextInt(5));
      int t = random.nextInt(100);
      CellType type = t < 76 ? CellType.PUT : t < 85 ? CellType.DELETE : t < 94 ? CellType.DELETE_COLUMN
          : CellType.DELETE_FAMILY;
      if (type == CellType.DELETE_FAMILY) {
        q = "";
      }
      cells.add(cell(row, q, ts, type, seqs.get(i)));
    }
    return cells;
  }

  static Cell cell(String row, String q, long ts, CellType type, long seq) {
    Cell c = Cells.create(Bytes.of(row), FAMILY, Bytes.of(q), ts, type,
        type == CellType.PUT ? Bytes.of("v" + seq) : Bytes.EMPTY);
    c.setSeqId(seq);
    return c;
  }

  ColumnFamilyDescriptor family() {
    int versions = 1 + random.nextInt(3);
    ColumnFamilyDescriptor.Builder b = ColumnFamilyDescriptor.builder("f")
        .maxVersions(versions)
        .minVersions(random.nextInt(2));
    if (random.nextInt(3) == 0) {
      b.ttlSeconds(1 + random.nextInt(4));
    }
    return b.build();
  }

  long now() {
    return random.nextInt(8_000);
  }

  /** A read point from 0 to n + 1, or (often) "everything". */
  long readPoint(int n) {
    return random.nextInt(3) == 0 ? Long.MAX_VALUE : random.nextInt(n + 2);
  }

  ScanQuery query(long readPoint) {
    ScanQuery.Builder b = ScanQuery.builder().readPoint(readPoint);
    switch (random.nextInt(4)) {
      case 0:
        break;
      case 1:
        b.singleRow(Bytes.of(BOUNDS[1 + random.nextInt(BOUNDS.length - 1)]));
        break;
      default:
        b.startRow(Bytes.of(BOUNDS[random.nextInt(BOUNDS.length)]), random.nextBoolean());
        b.stopRow(Bytes.of(BOUNDS[random.nextInt(BOUNDS.length)]), random.nextBoolean());
    }
    switch (random.nextInt(8)) {
      case 0:
      case 1:
        break;
      case 2:
        b.addFamily(FAMILY);
        break;
      case 3:
        b.addFamily(Bytes.of("g")); // another family only: nothing of this store
        break;
      default:
        for (String q : QUALIFIERS) {
          if (random.nextInt(3) == 0) {
            b.addColumn(FAMILY, Bytes.of(q));
          }
        }
        b.addColumn(FAMILY, Bytes.of(QUALIFIERS[random.nextInt(QUALIFIERS.length)]));
    }
    if (random.nextInt(3) == 0) {
      long min = 1000L * random.nextInt(5);
      long max = random.nextBoolean() ? Long.MAX_VALUE : min + 1000L * random.nextInt(4);
      b.timeRange(min, max);
    }
    b.maxVersions(1 + random.nextInt(4));
    return b.build();
  }

  /** Spreads cells over 1–4 scanners; some cells also go into a second one (a duplicate). */
  List<List<Cell>> split(List<Cell> cells) {
    int k = 1 + random.nextInt(4);
    List<List<Cell>> parts = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      parts.add(new ArrayList<>());
    }
    for (Cell c : cells) {
      parts.get(random.nextInt(k)).add(c);
      if (k > 1 && random.nextInt(5) == 0) {
        parts.get(random.nextInt(k)).add(c);
      }
    }
    return parts;
  }

  static String describe(ScanQuery q) {
    return "rows [" + Bytes.str(q.startRow()) + (q.startInclusive() ? "]" : ")") + ".."
        + "[" + Bytes.str(q.stopRow()) + (q.stopInclusive() ? "]" : ")") + (q.isSingleRow() ? " get" : "")
        + " cols " + describeColumns(q) + " time [" + q.minTimestamp() + "," + q.maxTimestamp() + ")"
        + " versions " + q.maxVersions() + " rp " + q.readPoint();
  }

  private static String describeColumns(ScanQuery q) {
    StringBuilder sb = new StringBuilder("{");
    q.columns().forEach((f, qs) -> {
      sb.append(Bytes.str(f)).append('=');
      if (qs == null) {
        sb.append("*");
      } else {
        qs.forEach(x -> sb.append('\'').append(Bytes.str(x)).append('\''));
      }
      sb.append(' ');
    });
    return sb.append('}').toString();
  }
}
