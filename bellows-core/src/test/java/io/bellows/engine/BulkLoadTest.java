package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.BulkFileWriter;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.MemFileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.NoSuchColumnFamilyException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bulk load: files built with {@link BulkFileWriter} are split among the regions and their cells are
 * newer than every earlier write and older than every later one; a damaged file, one of another
 * family or an unknown family loads nothing; a power loss at any step loads all or nothing.
 */
class BulkLoadTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final long TS = 5_000;

  @TempDir Path dir;

  private static String row(int i) {
    return String.format("r%03d", i);
  }

  /** A file of rows [from, to) of family f at timestamp TS, valued {@code prefix + i}. */
  private static Path build(Path file, int from, int to, String prefix) {
    try (BulkFileWriter w = BulkFileWriter.create(file, ColumnFamilyDescriptor.of("f"))) {
      for (int i = from; i < to; i++) {
        w.put(Bytes.of(row(i)), Q, TS, Bytes.of(prefix + i));
      }
      w.finish();
    }
    return file;
  }

  private static Map<String, String> contents(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        out.put(Bytes.str(r.row()), Bytes.str(r.getValue(F, Q)));
      }
    }
    return out;
  }

  private static String value(Table t, int i) {
    byte[] v = t.get(new Get(Bytes.of(row(i)))).getValue(F, Q);
    return v == null ? null : Bytes.str(v);
  }

  @Test
  @Timeout(60)
  void loadedCellsAreSplitAmongRegionsAndOrderedBetweenEarlierAndLaterWrites() throws IOException {
    Path a = build(dir.resolve("a.sst"), 0, 60, "a");
    Path b = build(dir.resolve("b.sst"), 50, 100, "b"); // overlaps a, and both span every region
    byte[] aBefore = Files.readAllBytes(a);
    try (Bellows db = Bellows.open(dir.resolve("data"), EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").family("g").build(),
          List.of(Bytes.of(row(30)), Bytes.of(row(70))));
      Table t = db.getTable("t");
      t.put(new Put(Bytes.of(row(1))).addColumn(F, Q, TS, Bytes.of("older"))); // same timestamp, written before
      t.put(new Put(Bytes.of(row(2))).addColumn(F, Q, TS + 1, Bytes.of("newer ts")));
      db.flush("t");
      t.put(new Put(Bytes.of(row(3))).addColumn(F, Q, TS, Bytes.of("in memory")));
      assertThat(db.bulkLoad("t", Map.of("f", List.of(a, b)))).isEqualTo(110);
      t.put(new Put(Bytes.of(row(4))).addColumn(F, Q, TS, Bytes.of("later"))); // same timestamp, written after

      assertThat(value(t, 1)).as("the load is newer than an earlier write").isEqualTo("a1");
      assertThat(value(t, 2)).as("a newer timestamp still wins").isEqualTo("newer ts");
      assertThat(value(t, 3)).isEqualTo("a3");
      assertThat(value(t, 4)).as("a later write is newer than the load").isEqualTo("later");
      assertThat(value(t, 40)).isEqualTo("a40");
      assertThat(value(t, 55)).isIn("a55", "b55"); // both files, one load: either
      assertThat(value(t, 99)).isEqualTo("b99");
      assertThat(contents(t)).hasSize(100);
      for (RegionInfo r : db.regions("t")) {
        assertThat(r.storeFiles()).as("region %d got its part", r.id()).isGreaterThanOrEqualTo(1);
      }
      db.majorCompact("t");
      assertThat(value(t, 1)).isEqualTo("a1");
      assertThat(value(t, 4)).isEqualTo("later");
    }
    try (Bellows db = Bellows.open(dir.resolve("data"), EngineOptions.defaults())) {
      Table t = db.getTable("t");
      assertThat(value(t, 1)).isEqualTo("a1");
      assertThat(value(t, 4)).isEqualTo("later");
      assertThat(contents(t)).hasSize(100);
    }
    assertThat(Files.readAllBytes(a)).as("the input is not changed").isEqualTo(aBefore);
  }

  @Test
  void badInputLoadsNothingAndNamesTheFile() throws IOException {
    Path good = build(dir.resolve("good.sst"), 0, 50, "g");
    Path damaged = build(dir.resolve("damaged.sst"), 50, 100, "d");
    try (RandomAccessFile f = new RandomAccessFile(damaged.toFile(), "rw")) {
      f.seek(40);
      int x = f.read();
      f.seek(40);
      f.write(x ^ 0x5A);
    }
    Path other;
    try (BulkFileWriter w = BulkFileWriter.create(dir.resolve("g.sst"), ColumnFamilyDescriptor.of("g"))) {
      w.put(Bytes.of("r"), Q, TS, Bytes.of("x"));
      w.finish();
      other = dir.resolve("g.sst");
    }
    try (BulkFileWriter w = BulkFileWriter.create(dir.resolve("unsorted.sst"), ColumnFamilyDescriptor.of("f"))) {
      w.put(Bytes.of("b"), Q, TS, Bytes.of("x"));
      assertThatThrownBy(() -> w.put(Bytes.of("a"), Q, TS, Bytes.of("x"))).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("does not sort after");
    }
    assertThat(dir.resolve("unsorted.sst")).as("an unfinished file is deleted").doesNotExist();
    try (Bellows db = Bellows.open(dir.resolve("data"), EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of(row(50))));
      Table t = db.getTable("t");
      t.put(new Put(Bytes.of(row(1))).addColumn(F, Q, Bytes.of("mine")));
      assertThatThrownBy(() -> db.bulkLoad("t", Map.of("f", List.of(good, damaged))))
          .isInstanceOf(CorruptionException.class).hasMessageContaining(damaged.toString());
      assertThatThrownBy(() -> db.bulkLoad("t", Map.of("f", List.of(good, other))))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(other.toString())
          .hasMessageContaining("family 'g'");
      assertThatThrownBy(() -> db.bulkLoad("t", Map.of("g", List.of(other))))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      assertThatThrownBy(() -> db.bulkLoad("t", Map.of("f", List.of(dir.resolve("missing.sst")))))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing.sst");
      assertThat(contents(t)).as("nothing was loaded").containsExactly(Map.entry(row(1), "mine"));
      for (RegionInfo r : db.regions("t")) {
        assertThat(r.storeFiles()).isZero();
      }
      try (Stream<Path> s = Files.walk(dir.resolve("data").resolve("tables"))) {
        assertThat(s.filter(p -> p.toString().contains(".sst"))).as("no file was left behind").isEmpty();
      }
    }
  }

  /** A power loss at every operation of a load: after a reopen, all of it or none. */
  @Test
  @Timeout(300)
  void aPowerLossAtAnyStepLoadsAllOrNothing() throws IOException {
    Path data = Path.of("/bulk/data");
    for (int at = 0; ; at++) {
      MemFileSystem fs = new MemFileSystem();
      AtomicFiles.createDirectories(fs, data.getParent());
      Path input = Path.of("/bulk/in.sst");
      try (BulkFileWriter w = BulkFileWriter.create(fs, input, ColumnFamilyDescriptor.of("f"))) {
        for (int i = 0; i < 40; i++) {
          w.put(Bytes.of(row(i)), Q, TS, Bytes.of("l" + i));
        }
        w.finish();
      }
      EngineOptions fsync = EngineOptions.builder().set(Knobs.DEFAULT_DURABILITY, Durability.FSYNC_WAL).build();
      try (Bellows db = Bellows.open(data, fsync, fs)) {
        db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of(row(20))));
        db.getTable("t").put(new Put(Bytes.of(row(0))).addColumn(F, Q, TS, Bytes.of("before")));
      }
      fs.crashAtOperation(fs.mutations() + at, new Random(at), true);
      boolean finished = false;
      try (Bellows db = Bellows.open(data, fsync, fs)) {
        db.bulkLoad("t", Map.of("f", List.of(input)));
        finished = fs.crashed() == null;
      } catch (RuntimeException e) {
        if (fs.crashed() == null) {
          throw new AssertionError("failed without a power loss at operation " + at, e);
        }
      }
      MemFileSystem state = fs.crashed() == null ? fs : fs.crashed();
      if (fs.crashed() == null) {
        fs.crashAtOperation(-1, null, false);
      }
      try (Bellows db = Bellows.open(data, EngineOptions.defaults(), state)) {
        Map<String, String> c = contents(db.getTable("t"));
        if (c.size() == 1) {
          assertThat(c).as("power loss at %d: nothing loaded", at).containsExactly(Map.entry(row(0), "before"));
        } else {
          Map<String, String> all = new TreeMap<>();
          for (int i = 0; i < 40; i++) {
            all.put(row(i), "l" + i);
          }
          assertThat(c).as("power loss at %d: all loaded", at).isEqualTo(all);
        }
      }
      if (finished) {
        assertThat(at).as("operations cut").isGreaterThan(10);
        return;
      }
    }
  }
}
