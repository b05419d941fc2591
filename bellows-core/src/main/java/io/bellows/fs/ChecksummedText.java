package io.bellows.fs;

import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The small text files of a data directory (catalog, options): UTF-8 lines under a header line,
 * closed by {@code crc32c <8 lower-case hex digits>\n}, the CRC32C of every byte before that line,
 * replaced atomically. The checksum is verified on the raw bytes before anything is decoded, so
 * damage is always reported as damage (with the file), never as a decoding error.
 */
public final class ChecksummedText {
  private static final String CRC_PREFIX = "crc32c ";

  private ChecksummedText() {}

  /** Writes {@code body} (which must end with a newline) and its checksum line, atomically. */
  public static void write(FileSystem fs, Path file, String body) throws IOException {
    AtomicFiles.write(fs, file, render(body).getBytes(StandardCharsets.UTF_8));
  }

  /** {@code body} followed by its checksum line. */
  public static String render(String body) {
    CRC32C crc = new CRC32C();
    crc.update(body.getBytes(StandardCharsets.UTF_8));
    return body + String.format(CRC_PREFIX + "%08x\n", (int) crc.getValue());
  }

  /**
   * Reads a file written by {@link #write} whose first line is {@code header}; returns the body,
   * header line included. Throws {@link CorruptionException} naming the file and {@code what} it
   * should be for a wrong header, a missing or wrong checksum, or bytes that are not UTF-8.
   */
  public static String read(FileSystem fs, Path file, String header, String what) throws IOException {
    byte[] raw = fs.readAll(file);
    String bytes = new String(raw, StandardCharsets.ISO_8859_1); // one char per byte
    int crcLine = bytes.lastIndexOf(CRC_PREFIX);
    if (!bytes.startsWith(header + "\n") || crcLine < 0) {
      throw new CorruptionException(file + ": not a Bellows " + what + " (bad header or missing checksum)");
    }
    CRC32C crc = new CRC32C();
    crc.update(raw, 0, crcLine);
    if (!bytes.substring(crcLine + CRC_PREFIX.length()).equals(String.format("%08x\n", (int) crc.getValue()))) {
      throw new CorruptionException(file + ": " + what + " checksum mismatch (checksum line at offset " + crcLine + ")");
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(raw, 0, crcLine)).toString();
    } catch (CharacterCodingException e) {
      throw new CorruptionException(file + ": " + what + " is not valid UTF-8", e);
    }
  }
}
