package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.atomic.Condition;
import io.bellows.cell.Cell;
import io.bellows.client.Append;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Increment;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.engine.RegionInfo;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.ValueFilter;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same random stream of API calls against an embedded engine and against a server's engine
 * through {@link RemoteEngine}: every answer — rows, cells, booleans, counters, and the type and
 * message of every error — must be the same. Prints its seed; replay with -Dbellows.test.seed=N.
 */
@ExtendWith(SeedExtension.class)
class EmbeddedRemoteComparisonTest {
  private static final String[] ROWS = new String[24];
  private static final String[] QUALIFIERS = {"a", "b", "c"};

  static {
    for (int i = 0; i < ROWS.length; i++) {
      ROWS[i] = String.format("r%02d", i);
    }
  }

  @TempDir
  Path dir;

  @Test
  void sameCallsGiveSameAnswersEmbeddedAndRemote(Seed testSeed) {
    long seed = testSeed.value();
    Random rnd = new Random(seed);
    // Timestamps the engines choose never repeat: two puts of a column in one millisecond on one
    // side only would keep one version there and two on the other.
    try (Bellows embedded = Bellows.open(dir.resolve("embedded"), distinctMillis());
        ServerFixture fixture = new ServerFixture(dir.resolve("server"), distinctMillis(), ServerConfig.defaults(),
            ServerEvents.NONE, -1);
        Bellows remote = fixture.connect()) {
      List<Bellows> both = List.of(embedded, remote);
      TableDescriptor schema = TableDescriptor.builder("t")
          .family(ColumnFamilyDescriptor.builder("f").maxVersions(3).build())
          .family("g")
          .build();
      same(seed, "create", both, db -> {
        db.createTable(schema, List.of(Bytes.of("r08"), Bytes.of("r16")));
        return "ok";
      });
      List<Table> tables = List.of(embedded.getTable("t"), remote.getTable("t"));
      for (int step = 0; step < 500; step++) {
        Op op = randomOp(rnd);
        String label = "step " + step + ": " + op.describe;
        String a = outcome(() -> op.run.apply(tables.get(0)));
        String b = outcome(() -> op.run.apply(tables.get(1)));
        assertThat(b).as("seed " + seed + ", " + label).isEqualTo(a);
        if (rnd.nextInt(60) == 0) {
          same(seed, "flush at step " + step, both, db -> {
            db.flush("t");
            return "ok";
          });
        }
        if (rnd.nextInt(150) == 0) {
          String key = ROWS[rnd.nextInt(ROWS.length)];
          same(seed, "split at " + key + " at step " + step, both, db -> {
            db.split("t", Bytes.of(key));
            return regions(db.regions("t"));
          });
        }
      }
      same(seed, "describe", both, db -> db.describeTable("t").toString());
      same(seed, "regions", both, db -> regions(db.regions("t")));
      same(seed, "list", both, db -> db.listTables().toString());
      same(seed, "unknown table", both, db -> db.getTable("nope").name());
      same(seed, "scan of a disabled table", both, db -> {
        Table t = db.getTable("t");
        db.disableTable("t");
        try (ResultScanner s = t.getScanner(new Scan())) {
          return "opened";
        } finally {
          db.enableTable("t");
        }
      });
      same(seed, "drop enabled", both, db -> {
        db.dropTable("t");
        return "dropped";
      });
      same(seed, "disable, drop, create again", both, db -> {
        db.disableTable("t");
        boolean enabled = db.isTableEnabled("t");
        db.dropTable("t");
        db.createTable(schema);
        return enabled + " " + db.tableExists("t");
      });
      for (Table old : tables) {
        assertThat(outcome(() -> {
          old.put(new Put("r00").addColumn("f", "a", "v"));
          return "ok";
        })).startsWith("TableNotFoundException");
      }
      same(seed, "old handle", both, db -> "n/a");
    }
  }

  private record Op(String describe, Function<Table, String> run) {}

  private static Op randomOp(Random rnd) {
    String row = ROWS[rnd.nextInt(ROWS.length)];
    String family = rnd.nextInt(4) == 0 ? "g" : "f";
    String qualifier = QUALIFIERS[rnd.nextInt(QUALIFIERS.length)];
    long ts = 1 + rnd.nextInt(20);
    switch (rnd.nextInt(15)) {
      case 0, 1, 2 -> {
        Put p = new Put(Bytes.of(row));
        int cells = 1 + rnd.nextInt(3);
        StringBuilder d = new StringBuilder("put " + row);
        for (int i = 0; i < cells; i++) {
          String q = QUALIFIERS[rnd.nextInt(QUALIFIERS.length)];
          long t = rnd.nextInt(10) == 0 ? Long.MAX_VALUE : 1 + rnd.nextInt(20);
          String v = "v" + rnd.nextInt(1000);
          p.addColumn(Bytes.of(family), Bytes.of(q), t, Bytes.of(v));
          d.append(' ').append(family).append(':').append(q).append('@').append(t).append('=').append(v);
        }
        return new Op(d.toString(), t -> {
          t.put(p);
          return "ok";
        });
      }
      case 3 -> {
        Delete del;
        String d;
        switch (rnd.nextInt(4)) {
          case 0 -> {
            del = new Delete(Bytes.of(row), ts);
            d = "delete row " + row + "@" + ts;
          }
          case 1 -> {
            del = new Delete(Bytes.of(row)).addFamily(Bytes.of(family), ts);
            d = "delete family " + row + " " + family + "@" + ts;
          }
          case 2 -> {
            del = new Delete(Bytes.of(row)).addColumns(Bytes.of(family), Bytes.of(qualifier), ts);
            d = "delete columns " + row + " " + family + ":" + qualifier + "@" + ts;
          }
          default -> {
            del = new Delete(Bytes.of(row)).addColumn(Bytes.of(family), Bytes.of(qualifier), ts);
            d = "delete version " + row + " " + family + ":" + qualifier + "@" + ts;
          }
        }
        return new Op(d, t -> {
          t.delete(del);
          return "ok";
        });
      }
      case 4 -> {
        byte[] expected = rnd.nextBoolean() ? null : Bytes.of("v" + rnd.nextInt(1000));
        String v = "c" + rnd.nextInt(100);
        Put p = new Put(Bytes.of(row)).addColumn(Bytes.of(family), Bytes.of(qualifier), ts, Bytes.of(v));
        return new Op("checkAndPut " + row + " " + family + ":" + qualifier, t ->
            String.valueOf(t.checkAndPut(Bytes.of(row), Bytes.of(family), Bytes.of(qualifier), expected, p)));
      }
      case 5 -> {
        byte[] expected = rnd.nextBoolean() ? null : Bytes.of("v" + rnd.nextInt(1000));
        Delete del = new Delete(Bytes.of(row), ts);
        return new Op("checkAndDelete " + row, t ->
            String.valueOf(t.checkAndDelete(Bytes.of(row), Bytes.of(family), Bytes.of(qualifier), expected, del)));
      }
      case 6 -> {
        long amount = rnd.nextInt(21) - 10;
        return new Op("increment " + row + " by " + amount, t ->
            String.valueOf(t.incrementColumnValue(Bytes.of(row), Bytes.of("g"), Bytes.of("n"), amount)));
      }
      case 12 -> {
        Condition c = randomCondition(rnd, family, qualifier);
        Put p = new Put(Bytes.of(row)).addColumn(Bytes.of(family), Bytes.of(qualifier), ts, Bytes.of("c" + rnd.nextInt(100)));
        Delete del = new Delete(Bytes.of(row)).addColumns(Bytes.of(family), Bytes.of(qualifier), ts);
        boolean put = rnd.nextBoolean();
        return new Op("checkAndMutate " + row + " if " + c + (put ? " put" : " delete"), t ->
            String.valueOf(t.checkAndMutate(c, put ? p : del)));
      }
      case 13 -> {
        Increment inc = new Increment(Bytes.of(row)).setReturnResults(rnd.nextInt(4) > 0);
        inc.addColumn(Bytes.of("g"), Bytes.of("n"), rnd.nextInt(21) - 10);
        if (rnd.nextBoolean()) {
          inc.addColumn(Bytes.of(family), Bytes.of(qualifier), rnd.nextInt(5));
        }
        return new Op("increment " + row + " " + inc.columns(), t -> render(t.increment(inc)));
      }
      case 14 -> {
        Append app = new Append(Bytes.of(row)).addColumn(Bytes.of(family), Bytes.of(qualifier), Bytes.of("+" + rnd.nextInt(10)));
        if (rnd.nextBoolean()) {
          app.addColumn(Bytes.of(rnd.nextInt(3) == 0 ? "nofamily" : "g"), Bytes.of("log"), Bytes.of("x"));
        }
        return new Op("append " + row + " " + app.columns(), t -> render(t.append(app)));
      }
      case 7, 8 -> {
        Get g = new Get(Bytes.of(row));
        StringBuilder d = new StringBuilder("get " + row);
        if (rnd.nextBoolean()) {
          g.addColumn(Bytes.of(family), Bytes.of(qualifier));
          d.append(' ').append(family).append(':').append(qualifier);
        }
        if (rnd.nextInt(5) == 0) {
          g.addFamily(Bytes.of(rnd.nextInt(3) == 0 ? "nofamily" : "g"));
          d.append(" +family");
        }
        if (rnd.nextBoolean()) {
          g.readVersions(1 + rnd.nextInt(4));
        }
        if (rnd.nextInt(4) == 0) {
          g.setTimeRange(ts, ts + rnd.nextInt(10));
        }
        if (rnd.nextInt(3) == 0) {
          // A multi-get of this get and two plain ones (one call over the wire).
          List<Get> gets = List.of(g, new Get(Bytes.of(ROWS[rnd.nextInt(ROWS.length)])),
              new Get(Bytes.of(ROWS[rnd.nextInt(ROWS.length)])));
          return new Op("multi-" + d, t -> {
            StringBuilder out = new StringBuilder();
            for (Result r : t.get(gets)) {
              out.append(render(r)).append('\n');
            }
            return out.toString();
          });
        }
        return new Op(d.toString(), t -> render(t.get(g)));
      }
      default -> {
        Scan s = new Scan();
        String start = ROWS[rnd.nextInt(ROWS.length)];
        String stop = ROWS[rnd.nextInt(ROWS.length)];
        if (rnd.nextBoolean()) {
          s.withStartRow(Bytes.of(start), rnd.nextBoolean());
        }
        if (rnd.nextBoolean()) {
          s.withStopRow(Bytes.of(stop), rnd.nextBoolean());
        }
        if (rnd.nextInt(3) == 0) {
          s.setLimit(1 + rnd.nextInt(10));
        }
        if (rnd.nextBoolean()) {
          s.readVersions(1 + rnd.nextInt(4));
        }
        if (rnd.nextInt(4) == 0) {
          s.addFamily(Bytes.of(family));
        }
        return new Op("scan " + start + ".." + stop, t -> {
          StringBuilder out = new StringBuilder();
          try (ResultScanner sc = t.getScanner(s)) {
            for (Result r : sc) {
              out.append(render(r)).append('\n');
            }
          }
          return out.toString();
        });
      }
    }
  }

  /** A column compared by a random operator, or a value filter; sometimes within a time range. */
  private static Condition randomCondition(Random rnd, String family, String qualifier) {
    byte[] value = rnd.nextInt(4) == 0 ? null : Bytes.of((rnd.nextBoolean() ? "v" : "c") + rnd.nextInt(100));
    Condition c;
    if (rnd.nextInt(5) == 0) {
      c = Condition.ifRowPasses(new ValueFilter(CompareOperator.values()[rnd.nextInt(6)],
          ByteComparator.binary(value == null ? Bytes.EMPTY : value)));
    } else {
      c = Condition.column(Bytes.of(rnd.nextInt(10) == 0 ? "nofamily" : family), Bytes.of(qualifier),
          CompareOperator.values()[rnd.nextInt(CompareOperator.values().length)], value);
    }
    if (rnd.nextInt(3) == 0) {
      long min = rnd.nextInt(10);
      c = c.timeRange(min, min + rnd.nextInt(15));
    }
    return c;
  }

  /** Engine options whose clock gives the wall-clock time, but never the same millisecond twice. */
  private static EngineOptions distinctMillis() {
    java.util.concurrent.atomic.AtomicLong last = new java.util.concurrent.atomic.AtomicLong();
    return EngineOptions.builder()
        .clock(() -> last.updateAndGet(before -> Math.max(before + 1, System.currentTimeMillis())))
        .build();
  }

  /** Cells with their explicit timestamps; a timestamp the engine chose ("now") shows as "now". */
  private static String render(Result r) {
    List<String> cells = new ArrayList<>();
    for (Cell c : r.cells()) {
      String ts = c.timestamp() < 1_000_000 ? Long.toString(c.timestamp()) : "now";
      cells.add(Bytes.str(c.row()) + "/" + Bytes.str(c.family()) + ":" + Bytes.str(c.qualifier()) + "@" + ts + " "
          + c.type() + "=" + Bytes.toStringBinary(c.value()));
    }
    return cells.toString();
  }

  private static String regions(List<RegionInfo> regions) {
    StringBuilder sb = new StringBuilder();
    for (RegionInfo r : regions) {
      sb.append(r.id()).append('[').append(Bytes.toStringBinary(r.startKey())).append(',')
          .append(Bytes.toStringBinary(r.endKey())).append(") ");
    }
    return sb.toString();
  }

  private static void same(long seed, String what, List<Bellows> both, Function<Bellows, String> call) {
    String a = outcome(() -> call.apply(both.get(0)));
    String b = outcome(() -> call.apply(both.get(1)));
    assertThat(b).as("seed " + seed + ", " + what).isEqualTo(a);
  }

  private static String outcome(java.util.function.Supplier<String> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }
}
