package io.bellows.wal;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.record.WriteRecord;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** Builders and comparisons shared by the WAL tests. */
final class WalTestSupport {
  private WalTestSupport() {}

  /** Options whose background sync never fires during a test, so force counts are exact. */
  static WalOptions quiet() {
    return new WalOptions(64L << 20, 3_600_000);
  }

  static WriteRecord edit(int region, long seq, Random rnd) {
    int n = 1 + rnd.nextInt(4);
    List<Cell> cells = new ArrayList<>();
    byte[] row = Bytes.of("row-" + rnd.nextInt(1000));
    for (int i = 0; i < n; i++) {
      byte[] value = new byte[rnd.nextInt(40)];
      rnd.nextBytes(value);
      CellType type = rnd.nextInt(5) == 0 ? CellType.DELETE_COLUMN : CellType.PUT;
      cells.add(Cells.create(row, Bytes.of("f" + rnd.nextInt(3)), Bytes.of("q" + i), rnd.nextLong() & Long.MAX_VALUE,
          type, type == CellType.PUT ? value : Bytes.EMPTY));
    }
    return new WriteRecord(region, seq, cells);
  }

  static WriteRecord edit(int region, long seq, String row, String value) {
    return new WriteRecord(region, seq, List.of(Cells.put(Bytes.of(row), Bytes.of("f"), Bytes.of("q"), 1000L, Bytes.of(value))));
  }

  /** A comparable text form: region, seq and each cell's bytes and sequence id. */
  static String flat(WriteRecord e) {
    StringBuilder sb = new StringBuilder().append(e.regionId()).append('/').append(e.seqId());
    for (Cell c : e.cells()) {
      sb.append('/').append(HexFormat.of().formatHex(c.toBytes()));
    }
    return sb.toString();
  }

  static List<String> flat(List<WriteRecord> edits) {
    List<String> out = new ArrayList<>();
    edits.forEach(e -> out.add(flat(e)));
    return out;
  }

  static List<WriteRecord> replayAll(Wal wal) {
    List<WriteRecord> out = new ArrayList<>();
    wal.replay(out::add);
    return out;
  }

  /** Reopens the directory, replays it and closes it again. */
  static List<WriteRecord> reopenAndReplay(Path dir) {
    try (Wal wal = Wal.open(dir, quiet())) {
      return replayAll(wal);
    }
  }

  static List<Path> walFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> WalFormat.parseFileNumber(p) >= 0).sorted().toList();
    }
  }

  static void copyDir(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    for (Path p : walFiles(from)) {
      Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * The payload of {@code edit} in format version 2, which logged every cell whole after its
   * length: written by hand here, as this build no longer writes it but must still read it.
   */
  static byte[] version2Payload(WriteRecord edit) {
    int len = WalFormat.MIN_PAYLOAD;
    for (Cell c : edit.cells()) {
      len += 4 + c.length();
    }
    byte[] p = new byte[len];
    Bytes.putInt(p, 0, edit.regionId());
    Bytes.putLong(p, 4, edit.seqId());
    Bytes.putInt(p, 12, edit.cells().size());
    int at = WalFormat.MIN_PAYLOAD;
    for (Cell c : edit.cells()) {
      Bytes.putInt(p, at, c.length());
      System.arraycopy(c.array(), c.offset(), p, at + 4, c.length());
      at += 4 + c.length();
    }
    return p;
  }

  /** A version 2 file header, checksum included. */
  static byte[] version2Header(long fileNumber) {
    return oldHeader(fileNumber, 2);
  }

  /** The 20-byte header of versions 2 and 3 (no fenced length). */
  static byte[] oldHeader(long fileNumber, int version) {
    byte[] h = new byte[WalFormat.HEADER_SIZE_V3];
    System.arraycopy(WalFormat.MAGIC, 0, h, 0, 4);
    Bytes.putInt(h, 4, version);
    Bytes.putLong(h, 8, fileNumber);
    Bytes.putInt(h, 16, WalFormat.crc(h, 0, 16));
    return h;
  }

  /** A record around {@code payload} with both checksums right, whatever the payload holds. */
  static byte[] record(byte[] payload) {
    byte[] rec = new byte[WalFormat.RECORD_HEADER_SIZE + payload.length];
    Bytes.putInt(rec, 0, payload.length);
    Bytes.putInt(rec, 4, WalFormat.crc(payload, 0, payload.length));
    Bytes.putInt(rec, 8, WalFormat.crc(rec, 0, 8));
    System.arraycopy(payload, 0, rec, WalFormat.RECORD_HEADER_SIZE, payload.length);
    return rec;
  }

  static void flipByte(Path file, long offset) throws IOException {
    byte[] b = Files.readAllBytes(file);
    b[(int) offset] ^= 0x5A;
    Files.write(file, b);
  }
}
