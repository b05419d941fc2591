package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.Condition;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.PrefixFilter;
import io.bellows.filter.SingleColumnValueFilter;
import io.bellows.filter.ValueFilter;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.NoSuchColumnFamilyException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conditional mutations with HBase's conditions: every compare operator in HBase's operand order
 * ({@code compare(expected, stored)}), its rules for null and empty expected values and absent
 * columns, time ranges, filter conditions. Each case puts a marker column when the condition holds,
 * and the marker's presence is checked against the answer.
 */
class ConditionalMutationTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final byte[] G = Bytes.of("g");

  @TempDir Path dir;
  private final Clock.Manual clock = new Clock.Manual(1_000_000);
  private Bellows db;
  private Table t;
  private int rows;
  private int marks;

  @BeforeEach
  void open() {
    db = Bellows.open(dir, EngineOptions.builder().clock(clock).build());
    db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f").maxVersions(5).build())
        .family("g").build());
    t = db.getTable("t");
  }

  @AfterEach
  void close() {
    db.close();
  }

  /** A fresh row holding {@code value} in f:q (null: no f:q), for one case. */
  private byte[] rowWith(byte[] value) {
    byte[] row = Bytes.of("row" + rows++);
    t.put(new Put(row).addColumn(G, Q, Bytes.of("other")));
    if (value != null) {
      t.put(new Put(row).addColumn(F, Q, value));
    }
    return row;
  }

  /**
   * Whether a conditional put of a new marker column applied; asserts that the marker is there
   * exactly then. Each call has its own marker, so calls on one row do not see each other's.
   */
  private boolean applies(byte[] row, Condition c) {
    byte[] mark = Bytes.of("mark" + marks++);
    boolean applied = t.checkAndMutate(c, new Put(row).addColumn(G, mark, Bytes.of("marked")));
    assertThat(t.get(new Get(row).addColumn(G, mark)).isEmpty()).as("marker written iff applied: %s", c).isEqualTo(!applied);
    return applied;
  }

  private static Map<CompareOperator, Boolean> expect(boolean less, boolean lessOrEqual, boolean equal, boolean notEqual,
      boolean greaterOrEqual, boolean greater) {
    Map<CompareOperator, Boolean> m = new EnumMap<>(CompareOperator.class);
    m.put(CompareOperator.LESS, less);
    m.put(CompareOperator.LESS_OR_EQUAL, lessOrEqual);
    m.put(CompareOperator.EQUAL, equal);
    m.put(CompareOperator.NOT_EQUAL, notEqual);
    m.put(CompareOperator.GREATER_OR_EQUAL, greaterOrEqual);
    m.put(CompareOperator.GREATER, greater);
    m.put(CompareOperator.NO_OP, false);
    return m;
  }

  private void assertTruthTable(byte[] stored, byte[] expected, Map<CompareOperator, Boolean> answers) {
    for (CompareOperator op : CompareOperator.values()) {
      byte[] row = rowWith(stored);
      assertThat(applies(row, Condition.column(F, Q, op, expected)))
          .as("stored %s, ifMatches(%s, %s)", Bytes.toStringBinary(stored), op, Bytes.toStringBinary(expected))
          .isEqualTo(answers.get(op));
    }
  }

  @Test
  void operatorsCompareTheExpectedValueWithTheStoredOneInHBasesOrder() {
    byte[] stored = Bytes.of("m");
    // LESS holds when the expected value is less than the stored one (HBase: compare(expected, cell) < 0).
    assertTruthTable(stored, Bytes.of("a"), expect(true, true, false, true, false, false));
    assertTruthTable(stored, Bytes.of("m"), expect(false, true, true, false, true, false));
    assertTruthTable(stored, Bytes.of("z"), expect(false, false, false, true, true, true));
    // A proper prefix is less.
    assertTruthTable(Bytes.of("mm"), Bytes.of("m"), expect(true, true, false, true, false, false));
  }

  @Test
  void bytesCompareUnsigned() {
    // 0x01 < 0x80 unsigned (signed, 0x80 would be negative and smaller).
    assertTruthTable(new byte[] {(byte) 0x80}, new byte[] {0x01}, expect(true, true, false, true, false, false));
    assertTruthTable(new byte[] {0x01}, new byte[] {(byte) 0xff}, expect(false, false, false, true, true, true));
  }

  @Test
  void nullOrEmptyExpectedAsksAboutAbsence() {
    for (byte[] expected : new byte[][] {null, new byte[0]}) {
      String what = expected == null ? "null" : "empty";
      // Absent column: holds unless NOT_EQUAL.
      for (CompareOperator op : CompareOperator.values()) {
        assertThat(applies(rowWith(null), Condition.column(F, Q, op, expected)))
            .as("absent column, %s expected, %s", what, op).isEqualTo(op != CompareOperator.NOT_EQUAL);
      }
      // Present, empty value: holds iff the operator is not NOT_EQUAL.
      for (CompareOperator op : CompareOperator.values()) {
        assertThat(applies(rowWith(new byte[0]), Condition.column(F, Q, op, expected)))
            .as("empty value, %s expected, %s", what, op).isEqualTo(op != CompareOperator.NOT_EQUAL);
      }
      // Present, non-empty value: holds iff NOT_EQUAL.
      for (CompareOperator op : CompareOperator.values()) {
        assertThat(applies(rowWith(Bytes.of("v")), Condition.column(F, Q, op, expected)))
            .as("value v, %s expected, %s", what, op).isEqualTo(op == CompareOperator.NOT_EQUAL);
      }
    }
  }

  @Test
  void anAbsentColumnNeverMatchesANonEmptyExpectedValue() {
    for (CompareOperator op : CompareOperator.values()) {
      assertThat(applies(rowWith(null), Condition.column(F, Q, op, Bytes.of("v")))).as("%s", op).isFalse();
    }
  }

  @Test
  void aDeletedNewestVersionLeavesTheOneBeforeItToCompare() {
    byte[] row = Bytes.of("r");
    t.put(new Put(row).addColumn(F, Q, 10, Bytes.of("old")));
    t.put(new Put(row).addColumn(F, Q, 20, Bytes.of("new")));
    t.delete(new Delete(row).addColumn(F, Q, 20));
    assertThat(applies(row, Condition.ifEquals(F, Q, Bytes.of("old")))).isTrue();
  }

  @Test
  void aTimeRangeLimitsWhichVersionIsChecked() {
    byte[] row = Bytes.of("r");
    t.put(new Put(row).addColumn(F, Q, 10, Bytes.of("old")));
    t.put(new Put(row).addColumn(F, Q, 20, Bytes.of("new")));
    assertThat(applies(row, Condition.ifEquals(F, Q, Bytes.of("old")))).as("all time: the newest is 'new'").isFalse();
    assertThat(applies(row, Condition.ifEquals(F, Q, Bytes.of("old")).timeRange(0, 20)))
        .as("[0, 20): the newest in range is 'old' (the upper bound is exclusive)").isTrue();
    assertThat(applies(row, Condition.ifEquals(F, Q, Bytes.of("new")).timeRange(20, 21))).isTrue();
    assertThat(applies(row, Condition.column(F, Q, CompareOperator.GREATER, Bytes.of("z")).timeRange(10, 11)))
        .as("'z' > 'old'").isTrue();
    assertThat(applies(row, Condition.ifAbsent(F, Q).timeRange(30, 40))).as("nothing in [30, 40): absent").isTrue();
    assertThat(applies(row, Condition.ifAbsent(F, Q).timeRange(0, 15))).isFalse();
    assertThatThrownBy(() -> Condition.ifAbsent(F, Q).timeRange(5, 4)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFilterConditionHoldsWhenTheFilteredRowIsNotEmpty() {
    byte[] row = Bytes.of("r");
    t.put(new Put(row).addColumn(F, Q, 10, Bytes.of("v10")));
    t.put(new Put(row).addColumn(G, Q, 10, Bytes.of("w")));
    assertThat(applies(row, Condition.ifRowPasses(new ValueFilter(CompareOperator.EQUAL, ByteComparator.binary(Bytes.of("w"))))))
        .isTrue();
    assertThat(applies(row, Condition.ifRowPasses(new ValueFilter(CompareOperator.EQUAL, ByteComparator.binary(Bytes.of("no-cell-holds-this"))))))
        .isFalse();
    // A filter's own operators keep the filter's meaning: LESS passes a cell whose value is less than the operand.
    assertThat(applies(row, Condition.ifRowPasses(new SingleColumnValueFilter(F, Q, CompareOperator.LESS,
        ByteComparator.binary(Bytes.of("v99"))).setFilterIfMissing(true)))).isTrue();
    assertThat(applies(row, Condition.ifRowPasses(new PrefixFilter(Bytes.of("other"))))).as("the row's key decides").isFalse();
    assertThat(applies(row, Condition.ifRowPasses(new ValueFilter(CompareOperator.EQUAL, ByteComparator.binary(Bytes.of("w"))))
        .timeRange(11, 100))).as("nothing of the row in [11, 100)").isFalse();
    assertThat(applies(Bytes.of("empty-row"), Condition.ifRowPasses(new PrefixFilter(Bytes.of("empty")))))
        .as("a row without cells never passes").isFalse();
  }

  @Test
  void aConditionalDeleteAndItsCheckAreOneStep() {
    byte[] row = rowWith(Bytes.of("5"));
    assertThat(t.checkAndMutate(Condition.column(F, Q, CompareOperator.GREATER, Bytes.of("1")), new Delete(row)))
        .as("'1' > '5' is false").isFalse();
    assertThat(t.get(new Get(row)).isEmpty()).isFalse();
    assertThat(t.checkAndMutate(Condition.column(F, Q, CompareOperator.LESS, Bytes.of("9")), new Delete(row)))
        .as("'9' < '5' is false").isFalse();
    assertThat(t.checkAndMutate(Condition.column(F, Q, CompareOperator.LESS, Bytes.of("1")), new Delete(row)))
        .as("'1' < '5'").isTrue();
    assertThat(t.get(new Get(row)).isEmpty()).isTrue();
  }

  @Test
  void anUnknownFamilyInTheConditionIsRefusedAndNothingIsWritten() {
    byte[] row = rowWith(Bytes.of("v"));
    assertThatThrownBy(() -> t.checkAndMutate(Condition.ifAbsent(Bytes.of("nope"), Q), new Put(row).addColumn(F, Q, Bytes.of("x"))))
        .isInstanceOf(NoSuchColumnFamilyException.class).hasMessageContaining("nope");
    assertThat(t.get(new Get(row).addColumn(F, Q)).getValue(F, Q)).isEqualTo(Bytes.of("v"));
  }

  @Test
  void theOldEqualityMethodsKeepWorking() {
    byte[] row = Bytes.of("r");
    assertThat(t.checkAndPut(row, F, Q, null, new Put(row).addColumn(F, Q, Bytes.of("1")))).isTrue();
    assertThat(t.checkAndPut(row, F, Q, null, new Put(row).addColumn(F, Q, Bytes.of("2")))).isFalse();
    assertThat(t.checkAndPut(row, F, Q, Bytes.of("1"), new Put(row).addColumn(F, Q, Bytes.of("2")))).isTrue();
    t.put(new Put(row).addColumn(F, Q, new byte[0]));
    assertThat(t.checkAndPut(row, F, Q, null, new Put(row).addColumn(F, Q, Bytes.of("3"))))
        .as("null expected matches an empty value too (HBase)").isTrue();
  }
}
