package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.client.Append;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Increment;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.filter.CompareOperator;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.NoSuchColumnFamilyException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Increments and appends of several columns of one row: one atomic operation (one WAL record, one
 * sequence id), new values computed from the current ones, timestamps that sort as newest within one
 * millisecond, bad input refused before anything is written, and the same inside a conditional
 * operation.
 */
class AtomicUpdateTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");
  private static final byte[] ROW = Bytes.of("r");

  @TempDir Path dir;
  private final Clock.Manual clock = new Clock.Manual(1_000_000);

  private EngineOptions options() {
    return EngineOptions.builder().clock(clock).set(Knobs.MAX_VALUE_SIZE, 64L).build();
  }

  private static void createTable(Bellows db) {
    db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f").maxVersions(3).build())
        .family("g").build());
  }

  private static long metric(Bellows db, String name) {
    return db.metrics().get(name).longValue();
  }

  private static long counter(Result r, byte[] family, String qualifier) {
    return Bytes.getLong(r.getValue(family, Bytes.of(qualifier)), 0);
  }

  @Test
  void anIncrementOfSeveralColumnsIsOneWalRecordAndReturnsTheNewValues() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      t.put(new Put(ROW).addColumn(F, Bytes.of("a"), Bytes.toBytes(10L)));
      long records = metric(db, "wal.records.appended");
      Result r = t.increment(new Increment(ROW).addColumn(F, Bytes.of("a"), -3).addColumn(F, Bytes.of("b"), 5)
          .addColumn(G, Bytes.of("c"), Long.MIN_VALUE).setDurability(Durability.SYNC_WAL));
      assertThat(metric(db, "wal.records.appended") - records).as("one record for the whole row").isEqualTo(1);
      assertThat(counter(r, F, "a")).isEqualTo(7);
      assertThat(counter(r, F, "b")).as("absent counts as 0").isEqualTo(5);
      assertThat(counter(r, G, "c")).isEqualTo(Long.MIN_VALUE);
      assertThat(r.cells()).extracting(c -> Bytes.str(c.family()) + ":" + Bytes.str(c.qualifier()))
          .as("in cell order").containsExactly("f:a", "f:b", "g:c");
      Result read = t.get(new Get(ROW));
      assertThat(counter(read, F, "a")).isEqualTo(7);
      assertThat(counter(read, G, "c")).isEqualTo(Long.MIN_VALUE);
      assertThat(t.increment(new Increment(ROW).addColumn(G, Bytes.of("c"), -1)).getValue(G, Bytes.of("c")))
          .as("wraps around as a Java long does").isEqualTo(Bytes.toBytes(Long.MAX_VALUE));
    }
  }

  @Test
  void skipWalWritesNoRecordAndReturnResultsFalseReturnsNothing() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      long records = metric(db, "wal.records.appended");
      Result r = t.increment(new Increment(ROW).addColumn(F, Bytes.of("a"), 1).addColumn(F, Bytes.of("b"), 2)
          .setDurability(Durability.SKIP_WAL).setReturnResults(false));
      assertThat(metric(db, "wal.records.appended")).isEqualTo(records);
      assertThat(r.isEmpty()).isTrue();
      assertThat(counter(t.get(new Get(ROW)), F, "b")).as("applied all the same").isEqualTo(2);
    }
  }

  @Test
  void appendsConcatenateOntoTheCurrentValues() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      t.put(new Put(ROW).addColumn(F, Bytes.of("s"), Bytes.of("ab")));
      Result r = t.append(new Append(ROW).addColumn(F, Bytes.of("s"), Bytes.of("cd")).addColumn(G, Bytes.of("s"), Bytes.of("x")));
      assertThat(Bytes.str(r.getValue(F, Bytes.of("s")))).isEqualTo("abcd");
      assertThat(Bytes.str(r.getValue(G, Bytes.of("s")))).as("absent counts as empty").isEqualTo("x");
      t.append(new Append(ROW).addColumn(F, Bytes.of("s"), Bytes.EMPTY));
      assertThat(Bytes.str(t.get(new Get(ROW)).getValue(F, Bytes.of("s")))).isEqualTo("abcd");
      assertThatThrownBy(() -> t.append(new Append(ROW).addColumn(F, Bytes.of("s"), new byte[61])))
          .as("the new value is checked against the maximum value size")
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Knobs.MAX_VALUE_SIZE.name());
      assertThat(Bytes.str(t.get(new Get(ROW)).getValue(F, Bytes.of("s")))).isEqualTo("abcd");
    }
  }

  @Test
  void aValueThatIsNotACounterFailsTheWholeIncrementNamingTheColumn() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      t.put(new Put(ROW).addColumn(F, Bytes.of("n"), Bytes.toBytes(1L)).addColumn(G, Bytes.of("text"), Bytes.of("abc")));
      assertThatThrownBy(() -> t.increment(new Increment(ROW).addColumn(F, Bytes.of("n"), 1).addColumn(G, Bytes.of("text"), 1)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("g:text").hasMessageContaining("8-byte counter");
      assertThat(counter(t.get(new Get(ROW)), F, "n")).as("no column of the failed increment was written").isEqualTo(1);
      assertThatThrownBy(() -> t.increment(new Increment(ROW).addColumn(Bytes.of("nope"), Bytes.of("n"), 1)))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      assertThatThrownBy(() -> t.increment(new Increment(ROW))).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void aColumnUpdatedTwiceOrAlsoWrittenIsRefused() {
    try (LocalEngine engine = LocalEngine.open(dir, options())) {
      engine.createTable(TableDescriptor.builder("t").family("f").family("g").build());
      TableRef t = engine.table("t");
      ColumnUpdate inc = ColumnUpdate.increment(F, Bytes.of("n"), 1);
      assertThatThrownBy(() -> engine.mutateRow(t, RowOperation.updates(ROW, List.of(inc, ColumnUpdate.append(F, Bytes.of("n"),
          Bytes.of("x"))), Durability.USE_DEFAULT, true))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
      RowMutation put = RowMutation.of(ROW, List.of(Cells.put(ROW, F, Bytes.of("n"), Long.MAX_VALUE, Bytes.toBytes(5L))),
          Durability.USE_DEFAULT);
      assertThatThrownBy(() -> engine.mutateRow(t, new RowOperation(put, null, List.of(inc), true)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("f:n");
      RowMutation familyDelete = RowMutation.of(ROW, List.of(Cells.create(ROW, F, Bytes.EMPTY, Long.MAX_VALUE,
          CellType.DELETE_FAMILY, Bytes.EMPTY)), Durability.USE_DEFAULT);
      assertThatThrownBy(() -> engine.mutateRow(t, new RowOperation(familyDelete, null, List.of(inc), true)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deleted with its family");
      assertThatThrownBy(() -> engine.mutateRow(t, new RowOperation(new RowMutation(ROW, List.of(), 5, Durability.USE_DEFAULT),
          null, List.of(inc), true))).as("a whole-row delete deletes every family").isInstanceOf(IllegalArgumentException.class);
      assertThat(readRow(engine, t)).isEmpty();
    }
  }

  private static List<Cell> readRow(LocalEngine engine, TableRef t) {
    return engine.getAll(t, List.of(io.bellows.scan.ScanQuery.builder().singleRow(ROW).build())).get(0);
  }

  @Test
  void newValuesSortAsNewestEvenWithinOneMillisecond() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      for (int i = 0; i < 5; i++) {
        t.increment(new Increment(ROW).addColumn(F, Bytes.of("n"), 1));
        t.append(new Append(ROW).addColumn(F, Bytes.of("s"), Bytes.of("x")));
      }
      Result r = t.get(new Get(ROW));
      assertThat(counter(r, F, "n")).as("the clock never moved: every version has one timestamp").isEqualTo(5);
      assertThat(Bytes.str(r.getValue(F, Bytes.of("s")))).isEqualTo("xxxxx");
      // A current value stamped in the future: the new one takes its timestamp, and still wins.
      t.put(new Put(ROW).addColumn(F, Bytes.of("n"), clock.currentTimeMillis() + 60_000, Bytes.toBytes(100L)));
      Result inc = t.increment(new Increment(ROW).addColumn(F, Bytes.of("n"), 1));
      assertThat(inc.cells().get(0).timestamp()).isEqualTo(clock.currentTimeMillis() + 60_000);
      assertThat(counter(t.get(new Get(ROW)), F, "n")).isEqualTo(101);
      clock.advance(10);
      assertThat(t.increment(new Increment(ROW).addColumn(G, Bytes.of("m"), 1)).cells().get(0).timestamp())
          .isEqualTo(clock.currentTimeMillis());
    }
  }

  @Test
  void aConditionalOperationCanIncrementAndWriteTogether() {
    try (LocalEngine engine = LocalEngine.open(dir, options())) {
      engine.createTable(TableDescriptor.builder("t").family("f").family("g").build());
      TableRef t = engine.table("t");
      RowMutation put = RowMutation.of(ROW, List.of(Cells.put(ROW, G, Bytes.of("state"), Long.MAX_VALUE, Bytes.of("open"))),
          Durability.USE_DEFAULT);
      List<ColumnUpdate> updates = List.of(ColumnUpdate.increment(F, Bytes.of("n"), 2), ColumnUpdate.append(F, Bytes.of("log"),
          Bytes.of("+")));
      Outcome first = engine.mutateRow(t, new RowOperation(put, Condition.ifAbsent(G, Bytes.of("state")), updates, true));
      assertThat(first.applied()).isTrue();
      assertThat(first.values()).hasSize(2);
      Outcome second = engine.mutateRow(t, new RowOperation(put, Condition.ifAbsent(G, Bytes.of("state")), updates, true));
      assertThat(second).isEqualTo(Outcome.NOT_APPLIED);
      Outcome third = engine.mutateRow(t, new RowOperation(RowMutation.of(ROW, List.of(), Durability.USE_DEFAULT),
          Condition.column(G, Bytes.of("state"), CompareOperator.GREATER, Bytes.of("zzz")), updates, false));
      assertThat(third.applied()).as("'zzz' > 'open'").isTrue();
      assertThat(third.values()).isEmpty();
      List<Cell> row = readRow(engine, t);
      assertThat(row).extracting(c -> Bytes.str(c.qualifier())).containsExactly("log", "n", "state");
      assertThat(Bytes.str(row.get(0).value())).isEqualTo("++");
      assertThat(Bytes.getLong(row.get(1).value(), 0)).isEqualTo(4);
      assertThat(row.get(0).timestamp()).isEqualTo(clock.currentTimeMillis());
    }
  }

  @Test
  void anUpdateAfterADeleteStartsAgain() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      t.increment(new Increment(ROW).addColumn(F, Bytes.of("n"), 7));
      clock.advance(1); // a delete at the increment's own timestamp would hide the next one too
      t.delete(new Delete(ROW).addColumns(F, Bytes.of("n")));
      clock.advance(1);
      assertThat(counter(t.increment(new Increment(ROW).addColumn(F, Bytes.of("n"), 1)), F, "n")).isEqualTo(1);
    }
  }

  @Test
  void aTimeRangeChoosesTheVersionAnUpdateStartsFrom() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      t.put(new Put(ROW).addColumn(F, Bytes.of("n"), 10, Bytes.toBytes(1L)).addColumn(F, Bytes.of("s"), 10, Bytes.of("old")));
      t.put(new Put(ROW).addColumn(F, Bytes.of("n"), 20, Bytes.toBytes(100L)).addColumn(F, Bytes.of("s"), 20, Bytes.of("new")));
      Result inc = t.increment(new Increment(ROW).addColumn(F, Bytes.of("n"), 1).setTimeRange(0, 20));
      assertThat(counter(inc, F, "n")).as("from the version at 10, the newest in [0, 20)").isEqualTo(2);
      assertThat(inc.cells().get(0).timestamp()).as("written at now, newest of all").isEqualTo(clock.currentTimeMillis());
      assertThat(counter(t.get(new Get(ROW)), F, "n")).isEqualTo(2);
      Result app = t.append(new Append(ROW).addColumn(F, Bytes.of("s"), Bytes.of("+")).setTimeRange(30, 40));
      assertThat(Bytes.str(app.getValue(F, Bytes.of("s")))).as("nothing in [30, 40): starts empty").isEqualTo("+");
      assertThatThrownBy(() -> new Increment(ROW).setTimeRange(5, 1)).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
