package io.bellows.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cells;
import io.bellows.cell.CellType;
import io.bellows.util.Bytes;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A file's row range against the plain byte comparison it replaces, on rows that often share their
 * first 8 bytes with the range's ends. Failing properties print their seed; replay with
 * {@code @Property(seed = "...")}.
 */
class RowRangeTest {
  @Provide
  Arbitrary<byte[]> rows() {
    // A common 6-byte stem, then few distinct bytes: prefixes tie often, and rows differ past them.
    Arbitrary<byte[]> tail = Arbitraries.of((byte) 0, (byte) 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff)
        .array(byte[].class).ofMaxSize(6);
    return Arbitraries.oneOf(tail.map(t -> concat(Bytes.of("user00"), t)), tail);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Property(tries = 3000)
  void aGetsRowIsHeldExactlyWhenItLiesBetweenTheEnds(@ForAll("rows") byte[] x, @ForAll("rows") byte[] y,
      @ForAll("rows") byte[] row) {
    byte[] first = Bytes.compare(x, y) <= 0 ? x : y;
    byte[] last = first == x ? y : x;
    RowRange range = RowRange.of(cellOf(first), cellOf(last));
    boolean expected = Bytes.compare(first, row) <= 0 && Bytes.compare(row, last) <= 0;
    assertThat(range.holds(row, Bytes.prefix64(row, 0, row.length))).isEqualTo(expected);
    assertThat(range.overlaps(ScanQuery.builder().singleRow(row).build())).isEqualTo(expected);
  }

  @Property(tries = 2000)
  void aScanOverlapsExactlyWhenItsRowsMeetTheRange(@ForAll("rows") byte[] x, @ForAll("rows") byte[] y,
      @ForAll("rows") byte[] start, @ForAll("rows") byte[] stop) {
    byte[] first = Bytes.compare(x, y) <= 0 ? x : y;
    byte[] last = first == x ? y : x;
    RowRange range = RowRange.of(cellOf(first), cellOf(last));
    ScanQuery scan = ScanQuery.builder().startRow(start, true).stopRow(stop, false).build();
    // [start, stop) meets [first, last] when start <= last and (no stop, or first < stop).
    boolean expected = Bytes.compare(start, last) <= 0 && (stop.length == 0 || Bytes.compare(first, stop) < 0);
    assertThat(range.overlaps(scan)).isEqualTo(expected);
  }

  private static io.bellows.cell.Cell cellOf(byte[] row) {
    return Cells.create(row, Bytes.of("f"), Bytes.of("q"), 1, CellType.PUT, Bytes.of("v"));
  }
}
