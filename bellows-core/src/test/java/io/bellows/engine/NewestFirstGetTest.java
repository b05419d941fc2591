package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Query;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A get of named columns reads its sources newest timestamp first and leaves unread the memory
 * segments and files older than the versions it has found (io.bellows.store.Store#pointReads,
 * docs/design/scan.md "Gets: newest first"). It must answer exactly as the one-row scan, which
 * reads every source, whatever the timestamps' order, deletes, versions and TTL.
 */
@ExtendWith(SeedExtension.class)
class NewestFirstGetTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] ROW = Bytes.of("r");

  @TempDir Path dir;

  @Test
  void aColumnFoundInMemoryLeavesTheOlderFilesUnread() {
    // No minor compaction: it would merge the files whose reads are counted, whenever its thread got to it.
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().set(Knobs.COMPACTION_MIN_FILES, 10).build())) {
      db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.of("f")).build());
      Table t = db.getTable("t");
      for (long ts = 1; ts <= 3; ts++) {
        t.put(new Put(ROW).addColumn(F, qual(0), ts, value(ts)).addColumn(F, qual(1), ts, value(100 + ts)));
        if (ts < 3) {
          db.flush("t");
        }
      }
      long files = metric(db, "read.file.lookups");
      assertThat(values(t.get(new Get(ROW).addColumn(F, qual(0))))).containsExactly("q0@3=3");
      assertThat(metric(db, "read.file.lookups") - files).as("files read").isZero();
      assertThat(metric(db, "read.older.sources.skipped")).isEqualTo(2);

      // A newer timestamp written earlier, into a file, is still found: the file is newer than memory.
      t.put(new Put(ROW).addColumn(F, qual(2), 50, value(50)));
      db.flush("t");
      t.put(new Put(ROW).addColumn(F, qual(2), 40, value(40)));
      files = metric(db, "read.file.lookups");
      assertThat(values(t.get(new Get(ROW).addColumn(F, qual(2))))).containsExactly("q2@50=50");
      assertThat(metric(db, "read.file.lookups") - files).as("files read").isEqualTo(1);

      // A whole-row get cannot know that older files lack other columns: it reads them all.
      files = metric(db, "read.file.lookups");
      assertThat(values(t.get(new Get(ROW)))).containsExactly("q0@3=3", "q1@3=103", "q2@50=50");
      assertThat(metric(db, "read.file.lookups") - files).as("files read").isEqualTo(3);
    }
  }

  @Test
  void tombstonesInTheNewerSourcesKeepTheOlderOnesInTheRead() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f").maxVersions(2).build()).build());
      Table t = db.getTable("t");
      t.put(new Put(ROW).addColumn(F, qual(0), 1, value(1)).addColumn(F, qual(1), 1, value(1))
          .addColumn(F, qual(2), 1, value(1)));
      db.flush("t");
      // q0: two newer versions, the newest deleted: it keeps its slot, so version 1 is beyond VERSIONS.
      t.put(new Put(ROW).addColumn(F, qual(0), 2, value(2)).addColumn(F, qual(0), 3, value(3)));
      t.delete(new Delete(ROW).addColumn(F, qual(0), 3));
      // q1: two newer versions masked by a column tombstone; the file's version is masked too.
      t.put(new Put(ROW).addColumn(F, qual(1), 2, value(2)).addColumn(F, qual(1), 3, value(3)));
      t.delete(new Delete(ROW).addColumns(F, qual(1), 3));
      // q2: one newer version only: the second comes from the file.
      t.put(new Put(ROW).addColumn(F, qual(2), 2, value(2)));
      for (int q = 0; q < 3; q++) {
        UnaryOperator<Query<?>> shape = qualShape(q);
        assertThat(values(t.get((Get) shape.apply(new Get(ROW).readVersions(2)))))
            .isEqualTo(scanned(t, (Scan) shape.apply(oneRowScan(ROW).readVersions(2))));
      }
      assertThat(values(t.get(new Get(ROW).addColumn(F, qual(0)).readVersions(2)))).containsExactly("q0@2=2");
      assertThat(values(t.get(new Get(ROW).addColumn(F, qual(1)).readVersions(2)))).isEmpty();
      assertThat(values(t.get(new Get(ROW).addColumn(F, qual(2)).readVersions(2)))).containsExactly("q2@2=2", "q2@1=1");
    }
  }

  /**
   * Random puts (timestamps rising, older, equal or engine-stamped), version, column and family
   * deletes, flushes and compactions on a store whose memory segments are tiny, so that a row is
   * spread over many segments and files; every few operations a get of random named columns, with
   * random versions and time range, must equal the one-row scan of the same shape.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(MemStorePolicy.class)
  void getsOfNamedColumnsAnswerAsOneRowScans(MemStorePolicy policy, Seed seed) {
    Random rnd = seed.random();
    int versions = 1 + rnd.nextInt(3);
    int minVersions = rnd.nextInt(2);
    boolean ttl = rnd.nextBoolean();
    ColumnFamilyDescriptor.Builder family = ColumnFamilyDescriptor.builder("f").memStorePolicy(policy)
        .maxVersions(versions).minVersions(Math.min(minVersions, versions))
        .set(Knobs.IN_MEMORY_FLUSH_FRACTION, 0.002);
    if (ttl) {
      family.ttlSeconds(3600);
    }
    String setup = policy + ", VERSIONS " + versions + ", MIN_VERSIONS " + Math.min(minVersions, versions)
        + ", TTL " + (ttl ? "1 h" : "none") + "; " + seed.replay();
    // Timestamps 5, 15, ... 115 minutes before now: half of them expired under TTL 1 h, none near its edge.
    long now = System.currentTimeMillis();
    long[] stamps = new long[12];
    for (int i = 0; i < stamps.length; i++) {
      stamps[i] = now - (5 + 10L * (stamps.length - 1 - i)) * 60_000;
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").flushSize(1L << 20).family(family.build()).build());
      Table t = db.getTable("t");
      int rising = 0;
      int gets = 0;
      for (int op = 0; op < 1500; op++) {
        byte[] row = Bytes.of("r" + rnd.nextInt(4));
        int kind = rnd.nextInt(100);
        if (kind < 70) {
          Put p = new Put(row);
          for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
            byte[] q = qual(rnd.nextInt(4));
            int pick = rnd.nextInt(10);
            if (pick < 6) {
              rising = Math.min(stamps.length - 1, rising + (rnd.nextInt(4) == 0 ? 1 : 0));
              p.addColumn(F, q, stamps[rising], value(op));
            } else if (pick < 9) {
              p.addColumn(F, q, stamps[rnd.nextInt(stamps.length)], value(op));
            } else {
              p.addColumn(F, q, value(op)); // stamped by the engine: the newest of all
            }
          }
          t.put(p);
        } else if (kind < 78) {
          t.delete(new Delete(row).addColumn(F, qual(rnd.nextInt(4)), stamps[rnd.nextInt(stamps.length)]));
        } else if (kind < 84) {
          t.delete(new Delete(row).addColumns(F, qual(rnd.nextInt(4)), stamps[rnd.nextInt(stamps.length)]));
        } else if (kind < 87) {
          t.delete(new Delete(row).addFamily(F, stamps[rnd.nextInt(stamps.length)]));
        } else if (kind < 92) {
          db.flush("t");
        } else if (kind < 93) {
          if (rnd.nextBoolean()) {
            db.compact("t");
          } else {
            db.majorCompact("t");
          }
        } else {
          check(t, row, rnd, setup + ", operation " + op);
          gets++;
        }
      }
      for (int r = 0; r < 4; r++) {
        for (int i = 0; i < 20; i++) {
          check(t, Bytes.of("r" + r), rnd, setup + ", at the end");
        }
      }
      assertThat(gets).isPositive();
      assertThat(metric(db, "read.older.sources.skipped")).as("sources skipped; " + setup).isPositive();
    }
  }

  /** A get of 1–3 random named columns (the empty qualifier among them), versions and time range. */
  private static void check(Table t, byte[] row, Random rnd, String where) {
    List<byte[]> cols = new ArrayList<>();
    for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
      cols.add(qual(rnd.nextInt(4)));
    }
    int readVersions = 1 + rnd.nextInt(3);
    boolean range = rnd.nextInt(4) == 0;
    long from = System.currentTimeMillis() - (10 + rnd.nextInt(100)) * 60_000L;
    long to = from + (20 + rnd.nextInt(60)) * 60_000L;
    UnaryOperator<Query<?>> shape = q -> {
      cols.forEach(c -> q.addColumn(F, c));
      q.readVersions(readVersions);
      return range ? q.setTimeRange(from, to) : q;
    };
    List<String> got = values(t.get((Get) shape.apply(new Get(row))));
    List<String> expected = scanned(t, (Scan) shape.apply(oneRowScan(row)));
    assertThat(got).as("get of %s, columns %s, %d versions%s: %s", Bytes.str(row),
        cols.stream().map(Bytes::str).toList(), readVersions, range ? ", time range" : "", where).isEqualTo(expected);
  }

  private static UnaryOperator<Query<?>> qualShape(int q) {
    return query -> query.addColumn(F, qual(q));
  }

  private static Scan oneRowScan(byte[] row) {
    return new Scan().withStartRow(row, true).withStopRow(row, true);
  }

  private static List<String> scanned(Table t, Scan scan) {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.addAll(values(r));
      }
    }
    return out;
  }

  private static List<String> values(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.cells()) {
      out.add(Bytes.str(c.qualifier()) + "@" + c.timestamp() + "=" + Bytes.str(c.value()));
    }
    return out;
  }

  private static long metric(Bellows db, String name) {
    Number n = db.metrics().get(name);
    return n == null ? 0 : n.longValue();
  }

  /** Qualifier 3 is the empty one, which shares its column group with family tombstones. */
  private static byte[] qual(int q) {
    return q == 3 ? Bytes.EMPTY : Bytes.of("q" + q);
  }

  private static byte[] value(long v) {
    return Bytes.of(Long.toString(v));
  }
}
