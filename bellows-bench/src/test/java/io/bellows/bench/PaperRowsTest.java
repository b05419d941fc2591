package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.util.Bytes;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PaperRowsTest {
  @Test
  void rowHasFourCellsOfThePapersShape() {
    PaperRows rows = new PaperRows(3);
    Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
    rows.row(123, 99, row);
    for (int q = 0; q < 4; q++) {
      Cell c = row[q];
      assertThat(new String(c.row(), java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("user00000000000000000123");
      assertThat(c.family()).isEqualTo(Bytes.of("f"));
      assertThat(c.qualifier()).isEqualTo(Bytes.of("field" + q));
      assertThat(c.value()).hasSize(25);
      assertThat(c.timestamp()).isEqualTo(99);
      assertThat(c.type()).isEqualTo(CellType.PUT);
      assertThat(c.length()).isEqualTo(PaperRows.cellLength());
    }
    assertThat(row[0].value()).isNotEqualTo(row[1].value());
  }

  @Test
  void rowKeysSortLikeUnsignedIds() {
    PaperRows rows = new PaperRows(3);
    long[] ids = {0, 9, 10, Long.MAX_VALUE, Long.MIN_VALUE, -1};
    for (int i = 1; i < ids.length; i++) {
      assertThat(Arrays.compareUnsigned(rows.rowKey(ids[i - 1]), rows.rowKey(ids[i]))).isNegative();
    }
    assertThat(new String(rows.rowKey(-1), java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("user" + Long.toUnsignedString(-1));
  }
}
