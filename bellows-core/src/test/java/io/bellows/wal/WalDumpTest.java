package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flipByte;
import static io.bellows.wal.WalTestSupport.quiet;
import static io.bellows.wal.WalTestSupport.walFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cells;
import io.bellows.record.WriteRecord;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalDumpTest {
  @TempDir Path dir;

  private static String dump(Path p) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WalDump.print(p, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void dumpShowsHeaderRecordsCellsAndTruncatedValues() {
    byte[] longValue = new byte[200];
    longValue[0] = 1;
    long secondStart;
    try (Wal wal = Wal.open(dir, quiet())) {
      secondStart = WalFormat.HEADER_SIZE + wal.append(edit(7, 3_000_000_000L, "alpha", "hello"));
      wal.append(new WriteRecord(8, 3_000_000_001L,
          List.of(Cells.put(Bytes.of("beta"), Bytes.of("f"), Bytes.of("q"), 5, longValue))));
    }
    String out = dump(dir);
    assertThat(out)
        .contains("wal-00000000000000000001.log")
        .contains("magic=BWAL version=4 file number=1 fenced length=-1")
        .contains("record @28 ")
        .contains("region=7 seq=3000000000 cells=1")
        .contains("record @" + secondStart + " ")
        .contains("region=8 seq=3000000001 cells=1")
        .contains("alpha/f:q/1000/PUT/seq=3000000000/vlen=5 value=hello")
        .contains("value=\\x01\\x00")
        .contains("...(200 bytes)")
        .contains("2 records");
  }

  @Test
  void dumpReportsADamagedRecordAndGoesOnWithTheValidOnesAfterIt() throws IOException {
    long secondStart;
    long thirdStart;
    try (Wal wal = Wal.open(dir, quiet())) {
      secondStart = WalFormat.HEADER_SIZE + wal.append(edit(1, 1, "a", "x"));
      thirdStart = WalFormat.HEADER_SIZE + wal.append(edit(1, 2, "b", "y"));
      wal.append(edit(1, 3, "c", "z"));
    }
    Path file = walFiles(dir).get(0);
    flipByte(file, secondStart + 1); // the length field
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean clean = WalDump.print(file, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(clean).isFalse();
    assertThat(out)
        .contains("record @28 ")
        .contains("DAMAGED record @" + secondStart + ": record header checksum mismatch; bytes " + secondStart + ".."
            + thirdStart)
        .doesNotContain("seq=2 ")
        .contains("record @" + thirdStart + " ")
        .contains("seq=3")
        .contains("2 records, " + (thirdStart - secondStart) + " damaged bytes");
  }

  @Test
  void dumpOfAGoodLogIsClean() {
    try (Wal wal = Wal.open(dir, quiet())) {
      wal.append(edit(1, 1, "a", "x"));
    }
    assertThat(WalDump.print(dir, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).isTrue();
  }

  @Test
  void dumpOfAFileThatIsNoWalSaysSo() throws IOException {
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "hello, this is not a log\n");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertThat(WalDump.print(text, new PrintStream(bytes, true, StandardCharsets.UTF_8))).isFalse();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("not a Bellows WAL file").doesNotContain("record");
  }

  @Test
  void dumpOfAMissingPathIsAOneLineReason() {
    Path missing = dir.resolve("nope.log");
    assertThatThrownBy(() -> dump(missing))
        .isInstanceOf(StorageException.class)
        .hasMessage(missing + ": no such file or directory");
  }

  @Test
  void truncateCutsAtTheFirstDamageAndTheLogOpensAgain() throws IOException {
    long secondStart;
    try (Wal wal = Wal.open(dir, quiet())) {
      secondStart = WalFormat.HEADER_SIZE + wal.append(edit(1, 1, "a", "x"));
      wal.append(edit(1, 2, "b", "y"));
      wal.append(edit(1, 3, "c", "z"));
    }
    Path file = walFiles(dir).get(0);
    assertThat(WalDump.truncateAtDamage(file)).isEqualTo(-1);
    flipByte(file, secondStart + 1);
    assertThatThrownBy(() -> WalTestSupport.reopenAndReplay(dir)).isInstanceOf(CorruptionException.class);
    assertThat(WalDump.truncateAtDamage(file)).isEqualTo(secondStart);
    assertThat(Files.size(file)).isEqualTo(secondStart);
    assertThat(WalTestSupport.reopenAndReplay(dir)).hasSize(1);
  }

  @Test
  void dumpOfAFileOfAnotherFormatVersionSaysSo() throws IOException {
    try (Wal wal = Wal.open(dir, quiet())) {
      wal.append(edit(1, 1, "a", "x"));
    }
    Path file = walFiles(dir).get(0);
    byte[] b = Files.readAllBytes(file);
    Bytes.putInt(b, 4, 1);
    Bytes.putInt(b, 16, WalFormat.crc(b, 0, 16));
    Files.write(file, b);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertThat(WalDump.print(file, new PrintStream(bytes, true, StandardCharsets.UTF_8))).isFalse();
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("UNSUPPORTED: WAL format version 1 is not supported (this build reads versions 2 to 4)")
        .doesNotContain("DAMAGED");
  }
}
