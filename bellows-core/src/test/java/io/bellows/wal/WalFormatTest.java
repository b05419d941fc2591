package io.bellows.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.record.WriteRecord;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class WalFormatTest {
  /**
   * Random edits whose cells share rows, families and timestamps with the cell before or not, in
   * every stored type: each decodes to the same cells, in both the current version and version 2.
   */
  @Property(tries = 300)
  void encodeThenDecodeGivesTheSameEdit(
      @ForAll int region, @ForAll long seq, @ForAll long seed, @ForAll @IntRange(max = 30) int cellCount) {
    WriteRecord edit = new WriteRecord(region, seq, randomCells(new Random(seed), cellCount));
    WriteRecord back = WalFormat.decodePayload(payload(WalFormat.encode(edit)), WalFormat.VERSION);
    assertThat(WalTestSupport.flat(back)).isEqualTo(WalTestSupport.flat(edit));
    assertThat(back.cells()).allSatisfy(c -> assertThat(c.seqId()).isEqualTo(seq));
    WriteRecord fromVersion2 = WalFormat.decodePayload(WalTestSupport.version2Payload(edit), 2);
    assertThat(WalTestSupport.flat(fromVersion2)).isEqualTo(WalTestSupport.flat(edit));
  }

  /** Cells of few rows, families, qualifiers and timestamps, so that neighbours often share them. */
  static List<Cell> randomCells(Random rnd, int n) {
    CellType[] types = {CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN, CellType.DELETE_FAMILY};
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] row = new byte[1 + (rnd.nextInt(3) == 0 ? rnd.nextInt(300) : 1)];
      row[0] = (byte) rnd.nextInt(3);
      byte[] family = Bytes.of(rnd.nextInt(4) == 0 ? "" : "f" + rnd.nextInt(2));
      byte[] qualifier = new byte[rnd.nextInt(200)];
      rnd.nextBytes(qualifier);
      byte[] value = new byte[rnd.nextInt(5) == 0 ? 200 + rnd.nextInt(300) : rnd.nextInt(30)];
      rnd.nextBytes(value);
      long ts = rnd.nextBoolean() ? 1_700_000_000_000L : rnd.nextLong();
      cells.add(Cells.create(row, family, qualifier, ts, types[rnd.nextInt(types.length)], value));
    }
    return cells;
  }

  /** A batch of rows of one family at one time costs a row key per row and no repeated timestamp. */
  @Test
  void aBatchOfRowsStoresEachRowFamilyAndTimestampOnce() {
    List<Cell> cells = new ArrayList<>();
    for (int r = 0; r < 100; r++) {
      for (int q = 0; q < 4; q++) {
        cells.add(Cells.put(Bytes.of(String.format("user%020d", r)), Bytes.of("f"), Bytes.of("field" + q), 42,
            new byte[25]));
      }
    }
    byte[] payload = payload(WalFormat.encode(new WriteRecord(1, 2, cells)));
    // Per cell: flags, qualifier (1 + 6), value (1 + 25); per row: its key (1 + 24); once: family (1 + 1),
    // timestamp (8) and the edit's 16 header bytes.
    assertThat(payload.length).isEqualTo(400 * (1 + 7 + 26) + 100 * 25 + 2 + 8 + 16);
    // Version 2 logged every cell whole after its length: 4 + 8 + 12 + 24 + 1 + 6 + 25 bytes each.
    assertThat(WalTestSupport.version2Payload(new WriteRecord(1, 2, cells))).hasSize(400 * 80 + 16);
  }

  @Test
  void decodingRejectsMalformedCells() {
    Cell c = Cells.put("r".getBytes(), "f".getBytes(), "q".getBytes(), 1, "v".getBytes());
    byte[] payload = payload(WalFormat.encode(new WriteRecord(1, 2, List.of(c, c))));
    int second = WalFormat.MIN_PAYLOAD + 1 + 2 + 2 + 2 + 8 + 2; // flags, row, family, qualifier, ts, value
    assertThat(payload).hasSize(second + 1 + 2 + 2);
    assertThat(payload[second] & 0xff).isEqualTo(
        WalFormat.SAME_ROW | WalFormat.SAME_FAMILY | WalFormat.SAME_TIMESTAMP | CellType.PUT.code());

    assertRejected(payload, WalFormat.MIN_PAYLOAD, 0x80 | CellType.PUT.code(), "reserved flag bit");
    assertRejected(payload, WalFormat.MIN_PAYLOAD, 5, "unknown cell type code 5");
    assertRejected(payload, WalFormat.MIN_PAYLOAD, CellType.MINIMUM.code(), "unknown cell type code 0");
    assertRejected(payload, WalFormat.MIN_PAYLOAD, WalFormat.SAME_ROW | CellType.PUT.code(), "cell 0 repeats");
    assertRejected(payload, WalFormat.MIN_PAYLOAD + 1, 100, "row runs past the payload");
    byte[] longRow = payload.clone();
    longRow[WalFormat.MIN_PAYLOAD + 1] = (byte) 0xff; // varint 65535: ff ff 03
    longRow[WalFormat.MIN_PAYLOAD + 2] = (byte) 0xff;
    longRow[WalFormat.MIN_PAYLOAD + 3] = 3;
    assertThatThrownBy(() -> WalFormat.decodePayload(longRow, WalFormat.VERSION))
        .hasMessageContaining("cell 0: row length 65535 over 32768");
    assertRejected(payload, WalFormat.MIN_PAYLOAD + 3, 0x80, "family length 128 over 127");
    assertRejected(payload, second + 1, 5, "cell 1: qualifier runs past the payload");
    assertRejected(payload, 12, 3, "cell 2: flags runs past the payload");
    assertRejected(payload, 12, 8, "impossible cell count 8");
    assertThatThrownBy(() -> WalFormat.decodePayload(Arrays.copyOf(payload, payload.length - 1), WalFormat.VERSION))
        .hasMessageContaining("cell 1: value runs past the payload");
    assertThatThrownBy(() -> WalFormat.decodePayload(Arrays.copyOf(payload, payload.length + 1), WalFormat.VERSION))
        .hasMessageContaining("1 stray bytes");
  }

  private static void assertRejected(byte[] payload, int at, int value, String message) {
    byte[] bad = payload.clone();
    if (at == 12) {
      Bytes.putInt(bad, at, value);
    } else {
      bad[at] = (byte) value;
    }
    assertThatThrownBy(() -> WalFormat.decodePayload(bad, WalFormat.VERSION))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
  }

  @Test
  void searchKeysAreNotLogged() {
    Cell key = Cells.firstOnRow("r".getBytes());
    assertThatThrownBy(() -> WalFormat.encode(new WriteRecord(1, 2, List.of(key))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("search key");
  }

  @Test
  void version2DecodingRejectsInconsistentCellLengths() {
    Cell c = Cells.put("r".getBytes(), "f".getBytes(), "q".getBytes(), 1, "v".getBytes());
    byte[] payload = WalTestSupport.version2Payload(new WriteRecord(1, 2, List.of(c)));
    byte[] badCellLength = payload.clone();
    badCellLength[WalFormat.MIN_PAYLOAD + 3]++;
    assertThatThrownBy(() -> WalFormat.decodePayload(badCellLength, 2)).isInstanceOf(IllegalArgumentException.class);
    byte[] badType = payload.clone();
    badType[payload.length - 2] = 77; // the type byte precedes the one-byte value
    assertThatThrownBy(() -> WalFormat.decodePayload(badType, 2)).hasMessageContaining("unknown cell type");
    byte[] truncated = Arrays.copyOf(payload, payload.length - 1);
    assertThatThrownBy(() -> WalFormat.decodePayload(truncated, 2)).isInstanceOf(IllegalArgumentException.class);
  }

  private static byte[] payload(byte[] record) {
    return Arrays.copyOfRange(record, WalFormat.RECORD_HEADER_SIZE, record.length);
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
    assertThat(WalFormat.fencedLength(h)).isEqualTo(-1);
    assertThat(WalFormat.fencedLength(WalFormat.header(12, 4096))).isEqualTo(4096);
    assertThat(WalFormat.checkHeader(WalTestSupport.oldHeader(12, 2), 12)).isNull();
    assertThat(WalFormat.checkHeader(WalTestSupport.oldHeader(12, 3), 12)).isNull();
    assertThat(WalFormat.fencedLength(WalTestSupport.oldHeader(12, 3))).isEqualTo(-1);
    byte[] version5 = h.clone();
    Bytes.putInt(version5, 4, 5);
    Bytes.putInt(version5, 24, WalFormat.crc(version5, 0, 24));
    assertThat(WalFormat.checkHeader(version5, 12)).isEqualTo(
        "WAL format version 5 is not supported (this build reads versions 2 to 4)");
    assertThat(WalFormat.checkHeader(h, 13)).contains("file number 12");
    h[5] ^= 1;
    assertThat(WalFormat.checkHeader(h, 12)).contains("checksum");
  }
}
