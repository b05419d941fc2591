package io.bellows.wal;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Text dump of WAL files for the {@code bellows wal-dump} tool. Read-only: it never repairs a torn
 * tail. Stateless and thread-safe.
 */
public final class WalDump {
  /** Value bytes printed per cell; longer values are cut and marked. */
  static final int MAX_VALUE_BYTES = 64;

  private WalDump() {}

  /**
   * Prints one WAL file, or every WAL file of a directory in log order: per file its header, per
   * record its offset, payload length, region id, sequence id and cell count, and each cell with its
   * value. At a bad record it prints the offset and the reason and goes on with the next file.
   *
   * @throws UncheckedIOException if a file or the directory cannot be read
   */
  public static void print(Path fileOrDir, PrintStream out) {
    try {
      List<Path> files = new ArrayList<>();
      if (Files.isDirectory(fileOrDir)) {
        try (Stream<Path> s = Files.list(fileOrDir)) {
          s.filter(p -> WalFormat.parseFileNumber(p) >= 0).forEach(files::add);
        }
        files.sort((a, b) -> Long.compare(WalFormat.parseFileNumber(a), WalFormat.parseFileNumber(b)));
        if (files.isEmpty()) {
          out.println("no WAL files in " + fileOrDir);
        }
      } else {
        files.add(fileOrDir);
      }
      for (Path f : files) {
        printFile(f, out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void printFile(Path file, PrintStream out) throws IOException {
    long number = WalFormat.parseFileNumber(file);
    out.println("WAL file " + file + " (" + Files.size(file) + " bytes)");
    byte[] h;
    try (var in = Files.newInputStream(file)) {
      h = in.readNBytes(WalFormat.HEADER_SIZE);
    }
    if (h.length == WalFormat.HEADER_SIZE) {
      out.println("  header: magic=" + Bytes.toStringBinary(h, 0, 4) + " version=" + Bytes.getInt(h, 4)
          + " file number=" + Bytes.getLong(h, 8));
      if (number < 0) {
        number = Bytes.getLong(h, 8); // not named like a WAL file: trust the header's number
      }
    }
    WalFileReader.Outcome o = WalFileReader.read(file, number, (offset, len, edit) -> {
      out.println("  record @" + offset + " len=" + len + " region=" + edit.regionId() + " seq=" + edit.seqId()
          + " cells=" + edit.cells().size());
      for (Cell c : edit.cells()) {
        int vlen = c.valueLength();
        int shown = Math.min(vlen, MAX_VALUE_BYTES);
        out.println("    " + c + " value=" + Bytes.toStringBinary(c.array(), c.valueOffset(), shown)
            + (shown < vlen ? "...(" + vlen + " bytes)" : ""));
      }
    });
    WalFileReader.Problem p = o.problem();
    if (p != null) {
      out.println("  BAD " + (p.offset() == 0 ? "header" : "record") + " @" + p.offset() + ": " + p.reason()
          + (p.tornTailCandidate() ? " (looks like a torn tail; recovery cuts it if this is the last file)" : ""));
    }
    out.println("  " + o.records() + " records, " + o.validEnd() + " good bytes"
        + (o.records() > 0 ? ", highest seq id " + o.maxSeqId() : ""));
  }
}
