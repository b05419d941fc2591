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
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A get copies a row's cells out of each memory segment into a list, except for rows with many
 * versions of a column or many cells, which it reads in place (io.bellows.store.Store#pointRead).
 * Every shape — a few versions, a hot column with hundreds of versions and version deletes among
 * them, a wide row, a row spread over memory and files — must answer as the one-row scan, which
 * reads every segment in place, and as written down here.
 */
class MemoryPointReadTest {
  private static final byte[] F = Bytes.of("f");

  @TempDir Path dir;

  static List<EngineConfigurations> configurations() {
    return EngineConfigurations.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void getsAnswerAsOneRowScansWhateverTheRowsShape(EngineConfigurations config) {
    try (Bellows db = Bellows.open(dir, config.engine(EngineOptions.builder()).build())) {
      db.createTable(TableDescriptor.builder("t").family(config.family("f").maxVersions(3).build()).build());
      Table t = db.getTable("t");
      // few: 4 columns of 2 versions, one column deleted at its newest version.
      for (int q = 0; q < 4; q++) {
        t.put(new Put(Bytes.of("few")).addColumn(F, qual(q), 1, value(1)).addColumn(F, qual(q), 2, value(2)));
      }
      t.delete(new Delete(Bytes.of("few")).addColumn(F, qual(1), 2));
      // hot: 300 versions of one column, the newest 5 deleted one by one, and a column of one version.
      for (int ts = 1; ts <= 300; ts++) {
        t.put(new Put(Bytes.of("hot")).addColumn(F, qual(0), ts, value(ts)));
      }
      for (int ts = 296; ts <= 300; ts++) {
        t.delete(new Delete(Bytes.of("hot")).addColumn(F, qual(0), ts));
      }
      t.put(new Put(Bytes.of("hot")).addColumn(F, qual(1), 7, value(7)));
      // markers: version deletes of times never written take no version slot; the older puts show.
      for (int ts = 48; ts <= 50; ts++) {
        t.delete(new Delete(Bytes.of("markers")).addColumn(F, qual(2), ts));
      }
      t.put(new Put(Bytes.of("markers")).addColumn(F, qual(2), 47, value(47)).addColumn(F, qual(2), 46, value(46)));
      // family: empty-qualifier puts newer than a family delete, which still masks the older q001.
      for (int ts = 8; ts <= 10; ts++) {
        t.put(new Put(Bytes.of("family")).addColumn(F, Bytes.EMPTY, ts, value(ts)));
      }
      t.delete(new Delete(Bytes.of("family")).addFamily(F, 5));
      t.put(new Put(Bytes.of("family")).addColumn(F, qual(1), 6, value(6)).addColumn(F, qual(1), 4, value(4)));
      // wide: 300 columns.
      Put wide = new Put(Bytes.of("wide"));
      for (int q = 0; q < 300; q++) {
        wide.addColumn(F, qual(q), 5, value(5));
      }
      t.put(wide);

      check(t, "in memory");
      // Half of it in a file, newer versions in memory on top.
      db.flush("t");
      t.put(new Put(Bytes.of("few")).addColumn(F, qual(0), 3, value(3)));
      for (int ts = 301; ts <= 310; ts++) {
        t.put(new Put(Bytes.of("hot")).addColumn(F, qual(0), ts, value(ts)));
      }
      t.delete(new Delete(Bytes.of("hot")).addColumn(F, qual(0), 310));
      t.delete(new Delete(Bytes.of("wide")).addColumns(F, qual(299)));
      check(t, "in memory and a file");

      // VERSIONS 3 keeps 310, 309 and 308; the deleted 310 keeps its slot (docs/design/scan.md).
      assertThat(values(t.get(new Get("hot").addColumn(F, qual(0)).readVersions(3))))
          .containsExactly("q000=309", "q000=308");
      assertThat(values(t.get(new Get("few").readVersions(1)))).containsExactly("q000=3", "q001=1", "q002=2", "q003=2");
      assertThat(t.get(new Get("wide")).size()).isEqualTo(299);
      assertThat(values(t.get(new Get("markers").readVersions(2)))).containsExactly("q002=47", "q002=46");
      assertThat(values(t.get(new Get("family").readAllVersions()))).containsExactly("=10", "=9", "=8", "q001=6");
    }
  }

  /**
   * Rows of several cells read from flat segments, which a get enters through their row positions
   * (where each row starts): small active segments are flattened and merged while the rows arrive,
   * and every row must come back whole, as the one-row scan (which binary-searches) returns it.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.EnumSource(value = io.bellows.config.MemStorePolicy.class, names = {"BASIC", "EAGER", "ADAPTIVE"})
  void rowsOfSeveralCellsInFlatSegmentsComeBackWhole(io.bellows.config.MemStorePolicy policy) {
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().build())) {
      db.createTable(TableDescriptor.builder("t").flushSize(8L << 20)
          .family(io.bellows.schema.ColumnFamilyDescriptor.builder("f").memStorePolicy(policy).maxVersions(2)
              .set(io.bellows.config.Knobs.IN_MEMORY_FLUSH_FRACTION, 0.002).build())
          .build());
      Table t = db.getTable("t");
      int rows = 400;
      for (int ts = 1; ts <= 2; ts++) {
        for (int i = 0; i < rows; i++) {
          int r = (i * 7919) % rows; // rows out of order, so segments interleave
          Put p = new Put(Bytes.of(String.format("row%04d", r)));
          for (int q = 0; q < 4; q++) {
            p.addColumn(F, qual(q), ts, value(ts));
          }
          t.put(p);
        }
      }
      // Many active segments went to the pipeline (flattened and merged in the background meanwhile).
      assertThat(db.storeMetrics("t").get("f").get("memstore.in.memory.flushes").longValue()).isGreaterThan(10);
      for (int r = 0; r < rows; r++) {
        String row = String.format("row%04d", r);
        assertThat(values(t.get(new Get(row)))).as(row).containsExactly("q000=2", "q001=2", "q002=2", "q003=2");
        assertThat(values(t.get(new Get(row).readAllVersions()))).as(row)
            .containsExactly("q000=2", "q000=1", "q001=2", "q001=1", "q002=2", "q002=1", "q003=2", "q003=1");
      }
      check(t, "flat segments");
    }
  }

  private static void check(Table t, String where) {
    List<UnaryOperator<Query<?>>> shapes = List.of(
        q -> q,
        q -> q.readVersions(1),
        q -> q.readAllVersions(),
        q -> q.addColumn(F, qual(0)).readVersions(2),
        q -> q.setTimeRange(100, 299).readVersions(2),
        q -> q.addColumn(F, qual(150)).addColumn(F, qual(1)));
    for (String row : new String[] {"few", "hot", "markers", "family", "wide", "absent"}) {
      for (int i = 0; i < shapes.size(); i++) {
        Get get = (Get) shapes.get(i).apply(new Get(row));
        Scan scan = (Scan) shapes.get(i).apply(new Scan().withStartRow(Bytes.of(row), true)
            .withStopRow(Bytes.of(row), true));
        List<String> scanned = new ArrayList<>();
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            scanned.addAll(values(r));
          }
        }
        assertThat(values(t.get(get))).as("%s: row %s, shape %d", where, row, i).isEqualTo(scanned);
      }
    }
  }

  private static List<String> values(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.cells()) {
      out.add(Bytes.str(c.qualifier()) + "=" + Bytes.str(c.value()));
    }
    return out;
  }

  private static byte[] qual(int q) {
    return Bytes.of(String.format("q%03d", q));
  }

  private static byte[] value(long ts) {
    return Bytes.of(Long.toString(ts));
  }
}
