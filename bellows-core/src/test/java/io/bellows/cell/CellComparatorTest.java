package io.bellows.cell;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CellComparatorTest {
  private static Cell cell(String row, String q, long ts, CellType type, long seq) {
    Cell c = Cells.create(Bytes.of(row), Bytes.of("f"), Bytes.of(q), ts, type, Bytes.of("v"));
    c.setSeqId(seq);
    return c;
  }

  @Test
  void ordersRowQualifierTimestampDescTypeDescSeqDesc() {
    List<Cell> expected = List.of(
        cell("a", "q", 5, CellType.PUT, 1),
        cell("b", "", 9, CellType.DELETE_FAMILY, 1),
        cell("b", "q", 9, CellType.DELETE_COLUMN, 1),
        cell("b", "q", 9, CellType.PUT, 7),
        cell("b", "q", 9, CellType.PUT, 3),
        cell("b", "q", 2, CellType.PUT, 9),
        cell("b", "r", 1, CellType.PUT, 1),
        cell("ba", "a", 1, CellType.PUT, 1));
    List<Cell> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new java.util.Random(42));
    shuffled.sort(CellComparator.INSTANCE);
    assertThat(shuffled).containsExactlyElementsOf(expected);
  }

  @Test
  void searchKeysBracketTheirCells() {
    Cell c = cell("r", "q", 10, CellType.PUT, 3);
    Cell first = Cells.firstOnColumn(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"));
    first.setSeqId(Long.MAX_VALUE);
    assertThat(CellComparator.INSTANCE.compare(first, c)).isNegative();
    assertThat(CellComparator.INSTANCE.compare(Cells.lastOnColumn(c), c)).isPositive();
    assertThat(CellComparator.INSTANCE.compare(Cells.lastOnRow(c), c)).isPositive();
    assertThat(CellComparator.INSTANCE.compare(Cells.lastOnRow(c), cell("r\0", "", 1, CellType.PUT, 1))).isNegative();
    assertThat(CellComparator.INSTANCE.compare(Cells.firstOnRow(Bytes.of("r")), c)).isNegative();
  }

  @Test
  void accessorsDecodeTheLayout() {
    Cell c = Cells.create(Bytes.of("row"), Bytes.of("fam"), Bytes.of("qual"), 123L, CellType.PUT, Bytes.of("value"));
    assertThat(Bytes.str(c.row())).isEqualTo("row");
    assertThat(Bytes.str(c.family())).isEqualTo("fam");
    assertThat(Bytes.str(c.qualifier())).isEqualTo("qual");
    assertThat(c.timestamp()).isEqualTo(123L);
    assertThat(c.type()).isEqualTo(CellType.PUT);
    assertThat(Bytes.str(c.value())).isEqualTo("value");
    assertThat(c.length()).isEqualTo(Cells.serializedLength(3, 3, 4, 5));
  }

  @Test
  void sameWriteIsCompareEqualsZero() {
    long seed = System.nanoTime();
    System.out.println("CellComparatorTest.sameWriteIsCompareEqualsZero seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    String[] rows = {"r", "row", "user0000000012", "user0000000013"};
    String[] qualifiers = {"", "q", "field0", "field1", "a-much-longer-qualifier-0", "a-much-longer-qualifier-1"};
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Cell c = cell(rows[random.nextInt(rows.length)], qualifiers[random.nextInt(qualifiers.length)],
          random.nextInt(3), random.nextBoolean() ? CellType.PUT : CellType.DELETE_COLUMN, random.nextInt(3));
      cells.add(c);
      // The same write again in an array of its own, at another offset.
      byte[] copy = new byte[c.length() + 5];
      System.arraycopy(c.array(), c.offset(), copy, 5, c.length());
      cells.add(new Cell(copy, 5, c.length(), c.seqId()));
    }
    for (Cell a : cells) {
      for (Cell b : cells) {
        assertThat(CellComparator.sameWrite(a, b))
            .as("seed %d: %s vs %s", seed, a, b)
            .isEqualTo(CellComparator.INSTANCE.compare(a, b) == 0);
      }
    }
  }

  @Test
  void columnRelationAgreesWithComparingRowFamilyAndQualifier() {
    String[] rows = {"", "r", "ro", "row"};
    String[] families = {"f", "fa", "g"};
    String[] qualifiers = {"", "q", "fq", "a-much-longer-qualifier"};
    List<Cell> cells = new ArrayList<>();
    for (String r : rows) {
      for (String f : families) {
        for (String q : qualifiers) {
          cells.add(Cells.create(Bytes.of(r), Bytes.of(f), Bytes.of(q), 1, CellType.PUT, Bytes.of("v")));
        }
      }
    }
    for (Cell a : cells) {
      for (Cell b : cells) {
        boolean sameRow = CellComparator.compareRows(a, b) == 0;
        int expected = !sameRow ? Cell.OTHER_ROW
            : CellComparator.compareColumns(a, b) == 0 ? Cell.SAME_COLUMN : Cell.SAME_ROW;
        assertThat(a.columnRelation(b)).as("%s vs %s", a, b).isEqualTo(expected);
        assertThat(a.sameColumn(b)).isEqualTo(expected == Cell.SAME_COLUMN);
      }
    }
  }

  /** Timestamps that differ in their low byte, their high byte, or both. */
  private static final long[] TIMESTAMPS = {0, 1, 2, 1L << 56, (1L << 56) + 1};

  /** The order written out from the components, as the class comment defines it. */
  private static int referenceCompare(Cell a, Cell b) {
    int c = java.util.Arrays.compareUnsigned(a.row(), b.row());
    if (c == 0) {
      c = java.util.Arrays.compareUnsigned(a.family(), b.family());
    }
    if (c == 0) {
      c = java.util.Arrays.compareUnsigned(a.qualifier(), b.qualifier());
    }
    if (c == 0) {
      c = Long.compare(b.timestamp(), a.timestamp());
    }
    if (c == 0) {
      c = Integer.compare(b.typeCode() & 0xff, a.typeCode() & 0xff);
    }
    return c != 0 ? c : Long.compare(b.seqId(), a.seqId());
  }

  @Test
  void orderAgreesWithTheComponentOrderOnRandomKeys() {
    long seed = System.nanoTime();
    System.out.println("CellComparatorTest.orderAgreesWithTheComponentOrderOnRandomKeys seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      // Short alphabets and lengths around the eight-byte words, so that prefixes, equal lengths and
      // ties are common; rows and families of equal and of different lengths both occur.
      Cell c = Cells.create(randomBytes(random, 0, 18), randomBytes(random, 1, 3), randomBytes(random, 0, 12),
          TIMESTAMPS[random.nextInt(TIMESTAMPS.length)], random.nextBoolean() ? CellType.PUT : CellType.DELETE,
          Bytes.of("v"));
      c.setSeqId(random.nextInt(3));
      cells.add(c);
    }
    for (Cell a : cells) {
      for (Cell b : cells) {
        assertThat(Integer.signum(CellComparator.INSTANCE.compare(a, b)))
            .as("seed %d: %s vs %s", seed, a, b)
            .isEqualTo(Integer.signum(referenceCompare(a, b)));
      }
    }
  }

  @Test
  void rowPrefixesThatDifferOrderTheRowsAndEqualRowsShareOne() {
    long seed = System.nanoTime();
    System.out.println("CellComparatorTest.rowPrefixesThatDifferOrderTheRowsAndEqualRowsShareOne seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Cell c = Cells.create(randomBytes(random, 0, 12), Bytes.of("f"), Bytes.of("q"), 1, CellType.PUT, Bytes.of("v"));
      // Half of them inside a larger array, at an offset: the prefix is read from the cell's own bytes.
      int off = random.nextInt(3) * 7;
      byte[] padded = new byte[off + c.length() + 9];
      java.util.Arrays.fill(padded, (byte) 0xff);
      System.arraycopy(c.array(), c.offset(), padded, off, c.length());
      cells.add(random.nextBoolean() ? c : new Cell(padded, off, c.length(), 0));
    }
    for (Cell a : cells) {
      for (Cell b : cells) {
        int rows = Integer.signum(java.util.Arrays.compareUnsigned(a.row(), b.row()));
        if (a.rowPrefix() != b.rowPrefix()) {
          assertThat(Integer.signum(Long.compareUnsigned(a.rowPrefix(), b.rowPrefix())))
              .as("seed %d: %s vs %s", seed, a, b).isEqualTo(rows);
        }
        if (rows == 0) {
          assertThat(a.rowPrefix()).as("seed %d: %s vs %s", seed, a, b).isEqualTo(b.rowPrefix());
        }
      }
    }
  }

  @Test
  void bytesTooShortForACellHaveAPrefixRatherThanAnException() {
    assertThat(new Cell(new byte[3]).rowPrefix()).isZero();
    assertThat(new Cell(new byte[0]).rowPrefix()).isZero();
    // A row length larger than what follows: only the bytes there count.
    byte[] b = {0, 0, 0, 0, 0, 0, 0, 0, 0x7f, (byte) 0xff, 'a', 'b'};
    assertThat(new Cell(b).rowPrefix()).isEqualTo(0x6162L << 48);
  }

  private static byte[] randomBytes(SplittableRandom random, int minLen, int maxLen) {
    byte[] alphabet = {0, 'a', 'b', (byte) 0x80, (byte) 0xff};
    byte[] out = new byte[minLen + random.nextInt(maxLen - minLen + 1)];
    for (int i = 0; i < out.length; i++) {
      out[i] = alphabet[random.nextInt(alphabet.length)];
    }
    return out;
  }
}
