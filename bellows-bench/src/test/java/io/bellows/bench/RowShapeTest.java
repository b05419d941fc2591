package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.client.Put;
import io.bellows.util.Bytes;
import org.junit.jupiter.api.Test;

class RowShapeTest {
  @Test
  void thePapersRowIsFourCellsOfItsCellLength() {
    assertThat(RowShape.PAPER.rowBytes()).isEqualTo(4L * PaperRows.cellLength());
    assertThat(RowShape.PAPER.rowsForBytes(10 * 1024)).as("the paper's 10 KB client buffer")
        .isEqualTo((int) Math.ceil(10 * 1024.0 / (4 * PaperRows.cellLength())));
    assertThat(RowShape.PAPER.rowsForBytes(1)).isEqualTo(1);
  }

  @Test
  void putsHaveTheShapesColumnsNamedAsYcsbNamesFields() {
    RowShape shape = new RowShape(12, 100);
    Put put = new PaperPuts(5, shape).put(42);
    assertThat(put.cells()).hasSize(12);
    for (int q = 0; q < 12; q++) {
      Cell c = put.cells().get(q);
      assertThat(Bytes.str(c.qualifier())).isEqualTo("field" + q);
      assertThat(c.value()).hasSize(100);
      assertThat(c.row()).isEqualTo(new PaperRows(0).rowKey(42));
    }
    long cells = 0;
    for (Cell c : put.cells()) {
      cells += io.bellows.cell.Cells.serializedLength(c.row().length, c.family().length, c.qualifier().length,
          c.value().length);
    }
    assertThat(shape.rowBytes()).isEqualTo(cells);
  }

  @Test
  void valuesArePrintableFreshForEveryCellAndSeeded() {
    PaperPuts a = new PaperPuts(9);
    PaperPuts b = new PaperPuts(9);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < 1000; i++) {
      byte[] v = a.value(25);
      assertThat(v).isEqualTo(b.value(25));
      for (byte x : v) {
        assertThat((int) x).isBetween((int) ' ', ' ' + 63);
      }
      assertThat(seen.add(new String(v, java.nio.charset.StandardCharsets.US_ASCII))).as("a fresh value").isTrue();
    }
  }

  @Test
  void badShapesAreRefused() {
    assertThatThrownBy(() -> new RowShape(0, 25)).hasMessageContaining("--fields");
    assertThatThrownBy(() -> new RowShape(4, 0)).hasMessageContaining("--field-length");
    assertThatThrownBy(() -> RowShape.PAPER.rowsForBytes(0)).hasMessageContaining("--batch-bytes");
  }
}
