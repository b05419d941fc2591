package io.bellows.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The record's bytes against docs/FORMAT.md ("Payload"), and round trips of random records. */
@ExtendWith(SeedExtension.class)
class WriteRecordCodecTest {
  private static final Cell PUT = Cells.put(Bytes.of("r"), Bytes.of("f"), Bytes.of("q"), 5, Bytes.of("v"));
  private static final Cell TOMBSTONE =
      Cells.create(Bytes.of("r"), Bytes.of("f"), Bytes.of("q2"), 5, CellType.DELETE_COLUMN, Bytes.EMPTY);

  @Test
  void aRecordHasTheDocumentedBytes() {
    WriteRecord record = new WriteRecord(7, (1L << 31) + 1, List.of(PUT, TOMBSTONE));
    assertThat(HexFormat.of().formatHex(WriteRecordCodec.encode(record))).isEqualTo(RecordFixtures.GOLDEN);
    assertThat(WriteRecordCodec.encodedLength(record)).isEqualTo(RecordFixtures.GOLDEN.length() / 2);
  }

  @Test
  void theDocumentedBytesDecodeToTheRecord() {
    WriteRecord decoded = WriteRecordCodec.decode(HexFormat.of().parseHex(RecordFixtures.GOLDEN));
    assertThat(decoded.regionId()).isEqualTo(7);
    assertThat(decoded.seqId()).isEqualTo((1L << 31) + 1);
    assertThat(hex(decoded.cells())).containsExactlyElementsOf(hex(List.of(PUT, TOMBSTONE)));
    assertThat(decoded.cells()).allSatisfy(c -> assertThat(c.seqId()).isEqualTo((1L << 31) + 1));
  }

  @Test
  void aRecordInsideLargerBytesDecodesFromItsOffset() {
    WriteRecord record = new WriteRecord(3, 9, List.of(PUT, TOMBSTONE));
    byte[] framed = new byte[5 + WriteRecordCodec.encodedLength(record) + 3];
    int end = WriteRecordCodec.encode(record, framed, 5);
    assertThat(end).isEqualTo(framed.length - 3);
    assertThat(hex(WriteRecordCodec.decode(framed, 5, end - 5).cells())).containsExactlyElementsOf(hex(List.of(PUT, TOMBSTONE)));
  }

  @Test
  void randomRecordsRoundTrip(Seed seed) {
    Random random = seed.random();
    for (int round = 0; round < 500; round++) {
      WriteRecord record = RecordFixtures.randomRecord(random);
      byte[] bytes = WriteRecordCodec.encode(record);
      WriteRecord decoded = WriteRecordCodec.decode(bytes);
      assertThat(decoded.regionId()).isEqualTo(record.regionId());
      assertThat(decoded.seqId()).isEqualTo(record.seqId());
      assertThat(hex(decoded.cells())).containsExactlyElementsOf(hex(record.cells()));
      assertThat(WriteRecordCodec.encode(decoded)).as("decoded and encoded again").isEqualTo(bytes);
    }
  }

  @Test
  void damagedBytesAreRefusedNamingThePart() {
    byte[] golden = HexFormat.of().parseHex(RecordFixtures.GOLDEN);
    assertThatThrownBy(() -> WriteRecordCodec.decode(Arrays.copyOf(golden, golden.length - 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("cell 1: value length runs past the record");
    assertThatThrownBy(() -> WriteRecordCodec.decode(Arrays.copyOf(golden, 10)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shorter than 16");
    byte[] stray = Arrays.copyOf(golden, golden.length + 2);
    assertThatThrownBy(() -> WriteRecordCodec.decode(stray))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("2 stray bytes after the last cell");
  }

  @Test
  void aSearchKeyIsNoRecordCell() {
    Cell searchKey = Cells.firstOnRow(Bytes.of("r"));
    assertThatThrownBy(() -> WriteRecordCodec.encode(new WriteRecord(1, 1, List.of(searchKey))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("search key");
  }

  /** The cells' bytes (a cell's equality also compares its sequence id, which decoding sets). */
  static List<String> hex(List<Cell> cells) {
    List<String> out = new ArrayList<>();
    cells.forEach(c -> out.add(HexFormat.of().formatHex(c.toBytes())));
    return out;
  }
}
