package io.bellows.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class WalFormatTest {
  @Property(tries = 200)
  void encodeThenDecodeGivesTheSameEdit(
      @ForAll int region, @ForAll long seq,
      @ForAll @Size(max = 5) List<@Size(max = 20) List<Byte>> values) {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      byte[] v = new byte[values.get(i).size()];
      for (int j = 0; j < v.length; j++) {
        v[j] = values.get(i).get(j);
      }
      cells.add(Cells.create(("r" + i).getBytes(), "fam".getBytes(), ("q" + i).getBytes(), seq, CellType.PUT, v));
    }
    WalEdit edit = new WalEdit(region, seq, cells);
    byte[] rec = WalFormat.encode(edit);
    byte[] payload = Arrays.copyOfRange(rec, WalFormat.RECORD_HEADER_SIZE, rec.length);
    WalEdit back = WalFormat.decodePayload(payload);
    assertThat(WalTestSupport.flat(back)).isEqualTo(WalTestSupport.flat(edit));
    assertThat(back.cells()).allSatisfy(c -> assertThat(c.seqId()).isEqualTo(seq));
  }

  @Test
  void decodingRejectsInconsistentCellLengths() {
    Cell c = Cells.put("r".getBytes(), "f".getBytes(), "q".getBytes(), 1, "v".getBytes());
    byte[] rec = WalFormat.encode(new WalEdit(1, 2, List.of(c)));
    byte[] payload = Arrays.copyOfRange(rec, WalFormat.RECORD_HEADER_SIZE, rec.length);
    byte[] badCellLength = payload.clone();
    badCellLength[WalFormat.MIN_PAYLOAD + 3]++;
    assertThatThrownBy(() -> WalFormat.decodePayload(badCellLength)).isInstanceOf(IllegalArgumentException.class);
    byte[] badType = payload.clone();
    badType[payload.length - 2] = 77; // the type byte precedes the one-byte value
    assertThatThrownBy(() -> WalFormat.decodePayload(badType)).hasMessageContaining("unknown cell type");
    byte[] truncated = Arrays.copyOf(payload, payload.length - 1);
    assertThatThrownBy(() -> WalFormat.decodePayload(truncated)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void fileNamesSortByNumberAndParseBack() {
    assertThat(WalFormat.fileName(1)).isEqualTo("wal-00000000000000000001.log");
    assertThat(WalFormat.parseFileNumber(Path.of("x", WalFormat.fileName(Long.MAX_VALUE)))).isEqualTo(Long.MAX_VALUE);
    assertThat(WalFormat.fileName(9).compareTo(WalFormat.fileName(10))).isNegative();
    assertThat(WalFormat.parseFileNumber(Path.of("wal-1.log"))).isEqualTo(-1);
    assertThat(WalFormat.parseFileNumber(Path.of("wal-99999999999999999999.log"))).isEqualTo(-1);
  }

  @Test
  void headerChecksNumberAndChecksum() {
    byte[] h = WalFormat.header(12);
    assertThat(WalFormat.checkHeader(h, 12)).isNull();
    assertThat(WalFormat.checkHeader(h, 13)).contains("file number 12");
    h[5] ^= 1;
    assertThat(WalFormat.checkHeader(h, 12)).contains("checksum");
  }
}
