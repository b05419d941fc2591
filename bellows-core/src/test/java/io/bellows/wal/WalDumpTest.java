package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flipByte;
import static io.bellows.wal.WalTestSupport.quiet;
import static io.bellows.wal.WalTestSupport.walFiles;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
      wal.append(new WalEdit(8, 3_000_000_001L,
          List.of(Cells.put(Bytes.of("beta"), Bytes.of("f"), Bytes.of("q"), 5, longValue))));
    }
    String out = dump(dir);
    assertThat(out)
        .contains("wal-00000000000000000001.log")
        .contains("magic=BWAL version=1 file number=1")
        .contains("record @20 ")
        .contains("region=7 seq=3000000000 cells=1")
        .contains("record @" + secondStart + " ")
        .contains("region=8 seq=3000000001 cells=1")
        .contains("alpha/f:q/1000/PUT/seq=3000000000/vlen=5 value=hello")
        .contains("value=\\x01\\x00")
        .contains("...(200 bytes)")
        .contains("2 records");
  }

  @Test
  void dumpReportsABadRecordAndStops() throws IOException {
    long secondStart;
    try (Wal wal = Wal.open(dir, quiet())) {
      secondStart = WalFormat.HEADER_SIZE + wal.append(edit(1, 1, "a", "x"));
      wal.append(edit(1, 2, "b", "y"));
      wal.append(edit(1, 3, "c", "z"));
    }
    Path file = walFiles(dir).get(0);
    flipByte(file, secondStart + 12);
    String out = dump(file);
    assertThat(out)
        .contains("record @20 ")
        .contains("BAD record @" + secondStart + ": record checksum mismatch")
        .doesNotContain("seq=3")
        .contains("1 records");
  }
}
