package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.ColumnPrefixFilter;
import io.bellows.filter.ColumnRangeFilter;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.FamilyFilter;
import io.bellows.filter.Filter;
import io.bellows.filter.FilterList;
import io.bellows.filter.FirstKeyOnlyFilter;
import io.bellows.filter.KeyOnlyFilter;
import io.bellows.filter.MultipleColumnPrefixFilter;
import io.bellows.filter.PrefixFilter;
import io.bellows.filter.QualifierFilter;
import io.bellows.filter.RowFilter;
import io.bellows.filter.SingleColumnValueFilter;
import io.bellows.filter.TimestampsFilter;
import io.bellows.filter.ValueFilter;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filters and reversed scans against {@link ReferenceTable} under every memory-store configuration:
 * a seeded stream of puts and deletes (with explicit timestamps), flushes, major compactions and
 * splits, and after every few operations random scans — forward or reversed, with row bounds and
 * inclusiveness, columns, versions, limits and a random filter — must return the reference's rows.
 * The expected answer filters the reference's rows with predicates written here, independently of
 * the filter classes (a filter tree of stateless filters, a single-column-value filter, or
 * first-key-only), then reverses and limits them.
 *
 * <p>Seed: {@code -Dbellows.test.seed=N}, printed at the start; {@code -Dbellows.filtermodel.ops}.
 */
class FilterReversedModelTest {
  private static final long SEED = Long.getLong("bellows.test.seed", System.nanoTime());
  private static final int OPS = Integer.getInteger("bellows.filtermodel.ops", 300);
  private static final String[] ROWS = {"a", "a1", "a2", "b", "b1", "c", "c0", "c1", "d"};
  private static final String[] FAMS = {"f", "g"};
  private static final String[] QUALS = {"", "p", "q", "q1", "r"};
  private static final String[] VALUES = {"x", "y", "xy", "Yes", "zz", ""};

  static Stream<EngineConfigurations> configurations() {
    System.out.println("FilterReversedModelTest seed " + SEED + " (-Dbellows.test.seed=" + SEED + ")");
    return EngineConfigurations.all().stream();
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void scansMatchTheReference(EngineConfigurations config, @TempDir Path dir) {
    Random rnd = new Random(SEED);
    Clock.Manual clock = new Clock.Manual(1_000_000);
    TableDescriptor.Builder tb = TableDescriptor.builder("t").set(Knobs.MEMSTORE_FLUSHSIZE, 64L * 1024);
    for (String f : FAMS) {
      tb.family(config.family(f).maxVersions(3).blockSize(1024).build());
    }
    TableDescriptor td = tb.build();
    ReferenceTable model = new ReferenceTable(td);
    EngineOptions opts = config.engine(EngineOptions.builder().clock(clock)).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(td, List.of(Bytes.of("b")));
      Table t = db.getTable("t");
      int splits = 0;
      for (int op = 0; op < OPS; op++) {
        String context = "seed " + SEED + " " + config + " op " + op;
        int kind = rnd.nextInt(100);
        byte[] row = Bytes.of(ROWS[rnd.nextInt(ROWS.length)]);
        long now = clock.currentTimeMillis();
        if (kind < 60) {
          Put p = new Put(row);
          List<Cell> cells = new ArrayList<>();
          for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
            byte[] f = Bytes.of(FAMS[rnd.nextInt(FAMS.length)]);
            byte[] q = Bytes.of(QUALS[rnd.nextInt(QUALS.length)]);
            long ts = 1 + rnd.nextInt(6);
            byte[] v = Bytes.of(VALUES[rnd.nextInt(VALUES.length)]);
            p.addColumn(f, q, ts, v);
            cells.add(Cells.put(row, f, q, ts, v));
          }
          t.put(p);
          model.mutate(row, cells, -1, now);
        } else if (kind < 72) {
          byte[] f = Bytes.of(FAMS[rnd.nextInt(FAMS.length)]);
          byte[] q = Bytes.of(QUALS[rnd.nextInt(QUALS.length)]);
          long ts = 1 + rnd.nextInt(6);
          int which = rnd.nextInt(4);
          Delete d = which == 3 ? new Delete(row, ts) : new Delete(row);
          CellType type = which == 0 ? CellType.DELETE : which == 1 ? CellType.DELETE_COLUMN : CellType.DELETE_FAMILY;
          if (which == 0) {
            d.addColumn(f, q, ts);
          } else if (which == 1) {
            d.addColumns(f, q, ts);
          } else if (which == 2) {
            d.addFamily(f, ts);
            q = Bytes.EMPTY;
          }
          t.delete(d);
          model.mutate(row, which == 3 ? List.of() : List.of(Cells.create(row, f, q, ts, type, Bytes.EMPTY)),
              which == 3 ? ts : -1, now);
        } else if (kind < 78) {
          db.flush("t");
        } else if (kind < 80) {
          db.flush("t");
          db.majorCompact("t");
          model.majorCompact(now);
        } else if (kind < 82 && splits < 3) {
          try {
            db.split("t", row);
            splits++;
          } catch (IllegalArgumentException e) {
            // a region boundary already: fine
          }
        } else {
          for (int i = 0; i < 3; i++) {
            checkScan(t, model, rnd, now, context);
          }
          checkGet(t, model, rnd, now, context);
        }
      }
    }
  }

  private void checkScan(Table t, ReferenceTable model, Random rnd, long now, String context) {
    boolean reversed = rnd.nextBoolean();
    String lo = rnd.nextInt(3) == 0 ? "" : ROWS[rnd.nextInt(ROWS.length)];
    String hi = rnd.nextInt(3) == 0 ? "" : ROWS[rnd.nextInt(ROWS.length)];
    boolean loIncl = rnd.nextBoolean();
    boolean hiIncl = rnd.nextBoolean();
    int versions = 1 + rnd.nextInt(3);
    long limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(4) : Long.MAX_VALUE;
    FilterSpec spec = randomSpec(rnd);

    Scan scan = new Scan().readVersions(versions).setFilter(spec == null ? null : spec.filter);
    if (reversed) {
      scan.setReversed(true).withStartRow(Bytes.of(hi), hiIncl).withStopRow(Bytes.of(lo), loIncl);
    } else {
      scan.withStartRow(Bytes.of(lo), loIncl).withStopRow(Bytes.of(hi), hiIncl);
    }
    ScanQuery.Builder qb = ScanQuery.builder().startRow(Bytes.of(lo), loIncl).stopRow(Bytes.of(hi), hiIncl)
        .maxVersions(versions);
    if (rnd.nextInt(4) == 0) {
      scan.addFamily(Bytes.of("g"));
      qb.addFamily(Bytes.of("g"));
    }
    if (limit != Long.MAX_VALUE) {
      scan.setLimit(limit);
    }
    List<List<Cell>> expected = new ArrayList<>();
    for (List<Cell> row : model.read(qb.build(), now)) {
      List<Cell> kept = spec == null ? row : spec.apply(row);
      if (!kept.isEmpty()) {
        expected.add(kept);
      }
    }
    if (reversed) {
      Collections.reverse(expected);
    }
    if (expected.size() > limit) {
      expected = expected.subList(0, (int) limit);
    }
    List<String> want = new ArrayList<>();
    expected.forEach(r -> want.add(render(r)));
    List<String> got = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        got.add(render(r.cells()));
      }
    }
    assertThat(got).as("%s: %s scan [%s%s, %s%s] versions %d limit %d filter %s", context,
        reversed ? "reversed" : "forward", loIncl ? "[" : "(", lo, hi, hiIncl ? "]" : ")", versions, limit,
        spec == null ? "none" : spec.filter).isEqualTo(want);
  }

  /** A get with a random filter: the reference's row, filtered, or nothing. */
  private void checkGet(Table t, ReferenceTable model, Random rnd, long now, String context) {
    byte[] row = Bytes.of(ROWS[rnd.nextInt(ROWS.length)]);
    int versions = 1 + rnd.nextInt(3);
    FilterSpec spec = randomSpec(rnd);
    List<List<Cell>> rows = model.read(ScanQuery.builder().singleRow(row).maxVersions(versions).build(), now);
    List<Cell> expected = rows.isEmpty() ? List.of() : spec == null ? rows.get(0) : spec.apply(rows.get(0));
    Result got = t.get(new io.bellows.client.Get(row).readVersions(versions).setFilter(spec == null ? null : spec.filter));
    assertThat(render(got.cells())).as("%s: get %s versions %d filter %s", context, Bytes.str(row), versions,
        spec == null ? "none" : spec.filter).isEqualTo(render(expected));
  }

  private static String render(List<Cell> cells) {
    StringBuilder sb = new StringBuilder();
    for (Cell c : cells) {
      sb.append(Bytes.toStringBinary(c.row())).append('/').append(Bytes.str(c.family())).append(':')
          .append(Bytes.str(c.qualifier())).append('@').append(c.timestamp()).append('=')
          .append(Bytes.toStringBinary(c.value())).append(' ');
    }
    return sb.toString();
  }

  /** A filter and, independently, what it keeps of a row (cells in, cells out; empty drops the row). */
  private record FilterSpec(Filter filter, java.util.function.Function<List<Cell>, List<Cell>> apply) {
    List<Cell> apply(List<Cell> row) {
      return apply.apply(row);
    }
  }

  /** A stateless filter and the cells it passes. */
  private record Leaf(Filter filter, Predicate<Cell> passes) {}

  private static FilterSpec randomSpec(Random rnd) {
    int mode = rnd.nextInt(10);
    if (mode == 0) {
      return null;
    }
    if (mode == 1) {
      return new FilterSpec(new FirstKeyOnlyFilter(), row -> List.of(row.get(0)));
    }
    if (mode == 2) {
      byte[] f = Bytes.of(FAMS[rnd.nextInt(FAMS.length)]);
      byte[] q = Bytes.of(QUALS[rnd.nextInt(QUALS.length)]);
      byte[] v = Bytes.of(VALUES[rnd.nextInt(VALUES.length)]);
      CompareOperator op = CompareOperator.values()[rnd.nextInt(6)];
      boolean ifMissing = rnd.nextBoolean();
      boolean latestOnly = rnd.nextBoolean();
      SingleColumnValueFilter scvf = new SingleColumnValueFilter(f, q, op, ByteComparator.binary(v))
          .setFilterIfMissing(ifMissing).setLatestVersionOnly(latestOnly);
      return new FilterSpec(scvf, row -> {
        List<Cell> column = row.stream().filter(c -> Bytes.compare(c.family(), f) == 0 && Bytes.compare(c.qualifier(), q) == 0).toList();
        if (column.isEmpty()) {
          return ifMissing ? List.of() : row;
        }
        List<Cell> tested = latestOnly ? column.subList(0, 1) : column;
        boolean pass = tested.stream().anyMatch(c -> passes(op, Bytes.compare(c.value(), v)));
        return pass ? row : List.of();
      });
    }
    Leaf tree = randomTree(rnd, 0);
    boolean keyOnly = rnd.nextInt(4) == 0;
    Filter f = keyOnly ? new FilterList(FilterList.Operator.MUST_PASS_ALL, tree.filter, new KeyOnlyFilter()) : tree.filter;
    return new FilterSpec(f, row -> {
      List<Cell> out = new ArrayList<>();
      for (Cell c : row) {
        if (tree.passes.test(c)) {
          out.add(keyOnly ? Cells.create(c.row(), c.family(), c.qualifier(), c.timestamp(), c.type(), Bytes.EMPTY) : c);
        }
      }
      return out;
    });
  }

  private static Leaf randomTree(Random rnd, int depth) {
    if (depth < 2 && rnd.nextInt(3) == 0) {
      boolean all = rnd.nextBoolean();
      List<Leaf> kids = new ArrayList<>();
      for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
        kids.add(randomTree(rnd, depth + 1));
      }
      List<Filter> fs = kids.stream().map(Leaf::filter).toList();
      Predicate<Cell> p = c -> all ? kids.stream().allMatch(k -> k.passes.test(c)) : kids.stream().anyMatch(k -> k.passes.test(c));
      return new Leaf(new FilterList(all ? FilterList.Operator.MUST_PASS_ALL : FilterList.Operator.MUST_PASS_ONE, fs), p);
    }
    CompareOperator op = CompareOperator.values()[rnd.nextInt(6)];
    switch (rnd.nextInt(9)) {
      case 0: {
        String r = ROWS[rnd.nextInt(ROWS.length)];
        return new Leaf(new RowFilter(op, ByteComparator.binary(Bytes.of(r))), c -> passes(op, Bytes.compare(c.row(), Bytes.of(r))));
      }
      case 1: {
        String fam = FAMS[rnd.nextInt(FAMS.length)];
        return new Leaf(new FamilyFilter(op, ByteComparator.binary(Bytes.of(fam))),
            c -> passes(op, Bytes.compare(c.family(), Bytes.of(fam))));
      }
      case 2: {
        String q = rnd.nextBoolean() ? "q" : "r";
        boolean eq = rnd.nextBoolean();
        return new Leaf(new QualifierFilter(eq ? CompareOperator.EQUAL : CompareOperator.NOT_EQUAL, ByteComparator.binaryPrefix(Bytes.of(q))),
            c -> Bytes.str(c.qualifier()).startsWith(q) == eq);
      }
      case 3: {
        boolean regex = rnd.nextBoolean();
        boolean eq = rnd.nextBoolean();
        CompareOperator o = eq ? CompareOperator.EQUAL : CompareOperator.NOT_EQUAL;
        Predicate<Cell> m = regex
            ? c -> Pattern.compile("^x").matcher(new String(c.value(), StandardCharsets.UTF_8)).find()
            : c -> new String(c.value(), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).contains("y");
        return new Leaf(new ValueFilter(o, regex ? ByteComparator.regex("^x") : ByteComparator.substring("Y")),
            c -> m.test(c) == eq);
      }
      case 4: {
        String v = VALUES[rnd.nextInt(VALUES.length)];
        return new Leaf(new ValueFilter(op, ByteComparator.binary(Bytes.of(v))), c -> passes(op, Bytes.compare(c.value(), Bytes.of(v))));
      }
      case 5: {
        String p = rnd.nextBoolean() ? "a" : "c";
        return new Leaf(new PrefixFilter(Bytes.of(p)), c -> Bytes.str(c.row()).startsWith(p));
      }
      case 6: {
        if (rnd.nextBoolean()) {
          String p = rnd.nextBoolean() ? "q" : "p";
          return new Leaf(new ColumnPrefixFilter(Bytes.of(p)), c -> Bytes.str(c.qualifier()).startsWith(p));
        }
        return new Leaf(new MultipleColumnPrefixFilter(List.of(Bytes.of("r"), Bytes.of("q1"))),
            c -> Bytes.str(c.qualifier()).startsWith("r") || Bytes.str(c.qualifier()).startsWith("q1"));
      }
      case 7: {
        String lo = QUALS[rnd.nextInt(QUALS.length)];
        String hi = QUALS[rnd.nextInt(QUALS.length)];
        boolean li = rnd.nextBoolean();
        boolean hiIncl = rnd.nextBoolean();
        return new Leaf(new ColumnRangeFilter(Bytes.of(lo), li, Bytes.of(hi), hiIncl), c -> {
          int a = Bytes.compare(c.qualifier(), Bytes.of(lo));
          int b = Bytes.compare(c.qualifier(), Bytes.of(hi));
          return (a > 0 || (a == 0 && li)) && (b < 0 || (b == 0 && hiIncl));
        });
      }
      default: {
        List<Long> ts = List.of(1L + rnd.nextInt(6), 1L + rnd.nextInt(6));
        return new Leaf(new TimestampsFilter(ts), c -> ts.contains(c.timestamp()));
      }
    }
  }

  /** Whether a cell whose bytes compare {@code cellVsOperand} with the operand passes the operator. */
  private static boolean passes(CompareOperator op, int cellVsOperand) {
    switch (op) {
      case LESS: return cellVsOperand < 0;
      case LESS_OR_EQUAL: return cellVsOperand <= 0;
      case EQUAL: return cellVsOperand == 0;
      case NOT_EQUAL: return cellVsOperand != 0;
      case GREATER_OR_EQUAL: return cellVsOperand >= 0;
      case GREATER: return cellVsOperand > 0;
      default: return false;
    }
  }
}
