package io.bellows.wal;

import io.bellows.cell.Cell;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.fs.ReadableFile;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Text dump of WAL files for the {@code bellows wal-dump} tool, and its one repair: cutting a file
 * at its first damage when the user accepts the loss. Stateless and thread-safe.
 */
public final class WalDump {
  /** Value bytes printed per cell; longer values are cut and marked. */
  static final int MAX_VALUE_BYTES = 64;
  /** An offline tool on files of the local disk. */
  private static final FileSystem FS = LocalFileSystem.INSTANCE;

  private WalDump() {}

  /**
   * The offset at which {@code file} was fenced if its damage all lies after it: the log started
   * {@code next} because {@code file} failed, and rewrote there what followed its last forced record
   * (docs/design/wal.md). -1 if {@code next} says no such thing or the damage starts before.
   */
  public static long fencedTail(Path file, Path next) {
    long fencedAt = WalFileReader.fencedLength(FS, next);
    if (fencedAt < 0) {
      return -1;
    }
    try {
      WalFileReader.Outcome o = WalFileReader.read(FS, file, WalFormat.parseFileNumber(file), (off, len, e) -> { });
      return o.problem() == null || o.problem().offset() >= fencedAt ? fencedAt : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * Prints one WAL file, or every WAL file of a directory in log order: per file its header, per
   * record its offset, payload length, region id, sequence id and cell count, and each cell with its
   * value. Each damaged region is printed with its offset and the reason, and the dump goes on with
   * the next valid record after it. Never modifies a file.
   *
   * @return true if every file is a well-formed WAL file without damage (a torn tail counts as
   *     damage: the file holds bytes that are no record)
   * @throws StorageException with a one-line reason if the path or a file cannot be read
   */
  public static boolean print(Path fileOrDir, PrintStream out) {
    List<Path> files = new ArrayList<>();
    try {
      if (FS.isDirectory(fileOrDir)) {
        FS.list(fileOrDir).stream().filter(p -> WalFormat.parseFileNumber(p) >= 0).forEach(files::add);
        files.sort((a, b) -> Long.compare(WalFormat.parseFileNumber(a), WalFormat.parseFileNumber(b)));
        if (files.isEmpty()) {
          out.println("no WAL files in " + fileOrDir);
        }
      } else {
        files.add(fileOrDir);
      }
    } catch (IOException e) {
      throw new StorageException(fileOrDir + ": " + StorageException.reason(e), e);
    }
    boolean clean = true;
    for (Path f : files) {
      try {
        clean &= printFile(f, out);
      } catch (IOException e) {
        throw new StorageException(f + ": " + StorageException.reason(e), e);
      }
    }
    return clean;
  }

  private static boolean printFile(Path file, PrintStream out) throws IOException {
    long size = FS.length(file);
    byte[] h;
    try (ReadableFile in = FS.open(file)) {
      ByteBuffer b = ByteBuffer.allocate((int) Math.min(size, WalFormat.HEADER_SIZE));
      while (b.hasRemaining() && in.read(b, b.position()) >= 0) {
        // positional reads until the header (or the whole, shorter file) is in
      }
      h = java.util.Arrays.copyOf(b.array(), b.position());
    }
    if (!mayBeWal(h)) {
      out.println(file + ": not a Bellows WAL file (it does not start with the magic \"BWAL\")");
      return false;
    }
    out.println("WAL file " + file + " (" + size + " bytes)");
    long number = WalFormat.parseFileNumber(file);
    if (h.length >= WalFormat.HEADER_SIZE_V3) {
      out.println("  header: magic=" + Bytes.toStringBinary(h, 0, 4) + " version=" + Bytes.getInt(h, 4)
          + " file number=" + Bytes.getLong(h, 8)
          + (Bytes.getInt(h, 4) >= 4 && h.length >= WalFormat.HEADER_SIZE ? " fenced length=" + Bytes.getLong(h, 16) : ""));
      if (number < 0) {
        number = Bytes.getLong(h, 8); // not named like a WAL file: trust the header's number
      }
    }
    long[] seen = {0, Long.MIN_VALUE}; // records, highest seq id
    WalFileReader.RecordVisitor printer = (offset, len, edit) -> {
      seen[0]++;
      seen[1] = Math.max(seen[1], edit.seqId());
      out.println("  record @" + offset + " len=" + len + " region=" + edit.regionId() + " seq=" + edit.seqId()
          + " cells=" + edit.cells().size());
      for (Cell c : edit.cells()) {
        int vlen = c.valueLength();
        int shown = Math.min(vlen, MAX_VALUE_BYTES);
        out.println("    " + c + " value=" + Bytes.toStringBinary(c.array(), c.valueOffset(), shown)
            + (shown < vlen ? "...(" + vlen + " bytes)" : ""));
      }
    };
    WalFileReader.Outcome o = WalFileReader.read(FS, file, number, printer);
    long damaged = 0;
    if (o.problem() != null && o.problem().kind() == WalFileReader.Kind.UNSUPPORTED) {
      out.println("  UNSUPPORTED: " + o.problem().reason() + "; not read further");
      return false;
    }
    while (o.problem() != null) {
      WalFileReader.Problem p = o.problem();
      long end = p.resumeAt() >= 0 ? p.resumeAt() : size;
      damaged += end - p.offset();
      out.println("  DAMAGED " + (p.offset() == 0 ? "header" : "record") + " @" + p.offset() + ": " + p.reason()
          + "; bytes " + p.offset() + ".." + end + " are no valid record"
          + (p.tornTailCandidate() ? " (nothing valid follows: looks like a torn tail, which recovery cuts"
              + " if this is the last file)" : ""));
      if (p.resumeAt() < 0) {
        break;
      }
      o = WalFileReader.readFrom(FS, file, p.resumeAt(), printer);
    }
    out.println("  " + seen[0] + " records" + (damaged > 0 ? ", " + damaged + " damaged bytes" : "")
        + (seen[0] > 0 ? ", highest seq id " + seen[1] : ""));
    return damaged == 0;
  }

  /** Whether a file starting with {@code h} may be a WAL file: magic, a torn (short or zero) header. */
  private static boolean mayBeWal(byte[] h) {
    int n = Math.min(h.length, WalFormat.MAGIC.length);
    if (Bytes.equals(h, 0, n, WalFormat.MAGIC, 0, n)) {
      return true;
    }
    for (byte x : h) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Cuts {@code file} at its first damaged byte, dropping that record and every byte after it in
   * the file (valid records after the damage included), and forces it. For a user who accepts that
   * loss so that the engine can open; never call it while an engine has the directory open. Returns
   * the offset cut at, or -1 if the file has no damage (then it is not modified).
   *
   * @throws StorageException if the file's header is damaged or of another version (cutting cannot
   *     help: move the file away instead), or the file cannot be read or written
   */
  public static long truncateAtDamage(Path file) {
    try {
      long number = WalFormat.parseFileNumber(file);
      if (number < 0) {
        throw new StorageException(file + ": not named like a WAL file (wal-<20 digits>.log); not modified");
      }
      WalFileReader.Problem p = WalFileReader.read(FS, file, number, (off, len, edit) -> { }).problem();
      if (p == null) {
        return -1;
      }
      if (p.offset() == 0) {
        throw new StorageException(file + ": the file header is bad (" + p.reason() + "); cutting cannot repair it."
            + " Move the file out of the WAL directory if you accept losing all of its records; not modified");
      }
      FS.truncate(file, p.offset());
      return p.offset();
    } catch (IOException e) {
      throw new StorageException(file + ": " + StorageException.reason(e), e);
    }
  }
}
