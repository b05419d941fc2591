package io.bellows.scan;

import static io.bellows.scan.RandomCase.cell;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MergingScannerTest {
  private static final Cell A = cell("a", "q", 1, CellType.PUT, 1);
  private static final Cell B = cell("b", "q", 1, CellType.PUT, 2);
  private static final Cell C = cell("c", "q", 1, CellType.PUT, 3);
  private static final Cell D = cell("d", "q", 1, CellType.PUT, 4);
  private static final Cell E = cell("e", "q", 1, CellType.PUT, 5);
  private static final Cell F = cell("f", "q", 1, CellType.PUT, 6);

  private static Cell first(String row) {
    Cell k = Cells.firstOnRow(Bytes.of(row));
    k.setSeqId(Long.MAX_VALUE);
    return k;
  }

  private static List<Cell> drain(CellScanner s) {
    List<Cell> out = new ArrayList<>();
    Cell c;
    while ((c = s.next()) != null) {
      out.add(c);
    }
    return out;
  }

  @Test
  void mergesInOrderAndDropsExactDuplicates() {
    Cell sameKeyOtherWrite = cell("b", "q", 1, CellType.PUT, 9); // same key, later write: not a duplicate
    MergingScanner m = new MergingScanner(List.of(
        new ListScanner(List.of(A, B, E)),
        new ListScanner(List.of(B, C, sameKeyOtherWrite)),
        new ListScanner(List.of(B, D, F, F))));
    m.seek(first(""));
    assertThat(drain(m)).containsExactly(A, sameKeyOtherWrite, B, C, D, E, F);
    assertThat(m.peek()).isNull();
    assertThat(m.next()).isNull();
  }

  @Test
  void seekAndReseekMoveEveryChild() {
    MergingScanner m = new MergingScanner(List.of(
        new ListScanner(List.of(A, C, E)),
        new ListScanner(List.of(B, D, F))));
    assertThat(m.seek(first("c"))).isTrue();
    assertThat(m.next()).isEqualTo(C);
    assertThat(m.reseek(first("d"))).isTrue();
    assertThat(m.peek()).isEqualTo(D);
    // Reseek past D: both children move (one was at D, the other at E which stays put).
    assertThat(m.reseek(Cells.lastOnRow(D))).isTrue();
    assertThat(drain(m)).containsExactly(E, F);
    assertThat(m.reseek(first("z"))).isFalse();
    // A backward seek revives exhausted children.
    assertThat(m.seek(first("b"))).isTrue();
    assertThat(drain(m)).containsExactly(B, C, D, E, F);
  }

  @Test
  void reseekLeavesChildrenAlreadyPastTheKeyAlone() {
    ListScanner far = new ListScanner(List.of(E));
    ListScanner near = new ListScanner(List.of(A, B));
    MergingScanner m = new MergingScanner(List.of(far, near));
    m.seek(first(""));
    // ListScanner throws on a backward reseek, so this also proves 'far' was not asked to move.
    assertThat(m.reseek(first("b"))).isTrue();
    assertThat(drain(m)).containsExactly(B, E);
  }

  @Test
  void closeClosesEveryChildOnce() {
    ListScanner x = new ListScanner(List.of(A));
    ListScanner y = new ListScanner(List.of());
    MergingScanner m = new MergingScanner(List.of(x, y));
    m.close();
    m.close();
    assertThat(x.isClosed()).isTrue();
    assertThat(y.isClosed()).isTrue();
    assertThat(m.peek()).isNull();
  }

  @Test
  void emptyMergeIsExhausted() {
    MergingScanner m = new MergingScanner(List.of());
    assertThat(m.seek(first(""))).isFalse();
    assertThat(m.next()).isNull();
    assertThat(m.shouldUse(ScanQuery.builder().build())).isFalse();
  }
}
