package io.bellows.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Recomputes the checksums of a (mutated) file of each Bellows format, so that a mutation reaches
 * the parsing behind the checksums instead of stopping at the first one: what a writer bug, or a
 * deliberately crafted file, would present. Walks the framing as far as it holds together and
 * leaves the rest as it is. Layouts: docs/FORMAT.md.
 */
public final class Reseal {
  private Reseal() {}

  /** Sorted file: every block frame from offset 0 that fits before the trailer, then the trailer. */
  public static void sortedFile(byte[] f) {
    int trailer = f.length - 64;
    if (trailer < 0) {
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(f);
    int at = 0;
    while (at + 14 <= trailer) {
      int n = b.getInt(at + 6);
      if (n < 0 || (long) at + 14 + n > trailer) {
        break;
      }
      b.putInt(at + 10 + n, crc(f, at, 10 + n));
      at += 14 + n;
    }
    CRC32C c = new CRC32C();
    c.update(f, trailer, 48);
    c.update(f, trailer + 52, 12);
    b.putInt(trailer + 48, (int) c.getValue());
  }

  /** WAL file: the header, then each record whose length fits in the file. */
  public static void wal(byte[] f) {
    if (f.length < 20) {
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(f);
    b.putInt(16, crc(f, 0, 16));
    int at = 20;
    while (at + 12 <= f.length) {
      int len = b.getInt(at);
      if (len < 0 || (long) at + 12 + len > f.length) {
        break;
      }
      b.putInt(at + 4, crc(f, at + 12, len));
      b.putInt(at + 8, crc(f, at, 8));
      at += 12 + len;
    }
  }

  /** Store manifest: the checksum of everything before it in the last four bytes. */
  public static void manifest(byte[] f) {
    if (f.length >= 4) {
      ByteBuffer.wrap(f).putInt(f.length - 4, crc(f, 0, f.length - 4));
    }
  }

  /** Catalog and options: the text before the last {@code crc32c } line, then its checksum line. */
  public static byte[] text(byte[] f) {
    String s = new String(f, StandardCharsets.ISO_8859_1);
    int line = s.lastIndexOf("crc32c ");
    int end = line < 0 ? f.length : line;
    byte[] out = new byte[end + 16];
    System.arraycopy(f, 0, out, 0, end);
    System.arraycopy(String.format("crc32c %08x\n", crc(f, 0, end)).getBytes(StandardCharsets.ISO_8859_1), 0, out,
        end, 16);
    return out;
  }

  private static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }
}
