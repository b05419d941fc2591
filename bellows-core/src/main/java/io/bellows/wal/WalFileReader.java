package io.bellows.wal;

import io.bellows.util.Bytes;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads one WAL file front to back, handing each good record to a visitor, and stops at the first
 * bad one, describing it. It does not decide what a bad record means: {@link Wal#replay} applies
 * the torn-tail rule (using {@link Problem#tornTailCandidate()}) and {@link WalDump} prints it.
 *
 * <p>Stateless (static methods; each call opens its own streams), so thread-safe as long as the
 * file is not being written concurrently beyond the length seen at the start.
 */
final class WalFileReader {
  private WalFileReader() {}

  /** Receives each good record. */
  interface RecordVisitor {
    /**
     * @param offset byte offset of the record (its length field) in the file
     * @param payloadLength the record's payload length
     */
    void accept(long offset, int payloadLength, WalEdit edit);
  }

  /**
   * The first bad spot of a file.
   *
   * @param offset where the bad record (or header, at 0) starts; everything before it is good
   * @param reason what is wrong, for messages
   * @param tornTailCandidate whether the damage looks like an interrupted append: the record header
   *     is incomplete, or the record runs to or past the end of the file, or every byte from
   *     {@code offset} to the end of the file is zero. Only meaningful for the last file.
   */
  record Problem(long offset, String reason, boolean tornTailCandidate) {}

  /**
   * What reading a file found.
   *
   * @param fileSize the file's length when reading started
   * @param records number of good records
   * @param maxSeqId highest sequence id among the good records, {@link Long#MIN_VALUE} if none
   * @param problem the first bad spot, or null if the file is good to its end
   */
  record Outcome(long fileSize, long records, long maxSeqId, Problem problem) {
    /** Where the good prefix of the file ends. */
    long validEnd() {
      return problem == null ? fileSize : problem.offset();
    }
  }

  /** Reads {@code file}, which by its name is WAL file number {@code fileNumber}. */
  static Outcome read(Path file, long fileNumber, RecordVisitor visitor) throws IOException {
    long size = Files.size(file);
    long records = 0;
    long maxSeqId = Long.MIN_VALUE;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      if (size < WalFormat.HEADER_SIZE) {
        return new Outcome(size, 0, maxSeqId, new Problem(0, "file header incomplete: file has " + size + " bytes", true));
      }
      byte[] header = in.readNBytes(WalFormat.HEADER_SIZE);
      String bad = header.length == WalFormat.HEADER_SIZE ? WalFormat.checkHeader(header, fileNumber) : "file shrank";
      if (bad != null) {
        return new Outcome(size, 0, maxSeqId, new Problem(0, bad, zeroFrom(file, 0, size)));
      }
      long pos = WalFormat.HEADER_SIZE;
      byte[] recordHeader = new byte[WalFormat.RECORD_HEADER_SIZE];
      while (pos < size) {
        long remaining = size - pos;
        if (remaining < WalFormat.RECORD_HEADER_SIZE) {
          return new Outcome(size, records, maxSeqId,
              new Problem(pos, "record header incomplete: " + remaining + " bytes left", true));
        }
        readFully(in, recordHeader);
        int len = Bytes.getInt(recordHeader, 0);
        int crc = Bytes.getInt(recordHeader, 4);
        if (len < WalFormat.MIN_PAYLOAD) {
          return new Outcome(size, records, maxSeqId,
              new Problem(pos, "invalid payload length " + len, zeroFrom(file, pos, size)));
        }
        long end = pos + WalFormat.RECORD_HEADER_SIZE + len;
        if (end > size) {
          return new Outcome(size, records, maxSeqId, new Problem(pos,
              "record of " + len + " payload bytes runs past the end of the file (" + size + " bytes)", true));
        }
        byte[] payload = new byte[len];
        readFully(in, payload);
        if (WalFormat.crc(payload, 0, len) != crc) {
          boolean torn = end == size || zeroFrom(file, pos, size);
          return new Outcome(size, records, maxSeqId, new Problem(pos,
              "record checksum mismatch (payload length " + len + ")", torn));
        }
        WalEdit edit;
        try {
          edit = WalFormat.decodePayload(payload);
        } catch (IllegalArgumentException e) {
          // The checksum matched, so these bytes were written like this: never a torn append.
          return new Outcome(size, records, maxSeqId, new Problem(pos, "malformed edit: " + e.getMessage(), false));
        }
        visitor.accept(pos, len, edit);
        records++;
        maxSeqId = Math.max(maxSeqId, edit.seqId());
        pos = end;
      }
      return new Outcome(size, records, maxSeqId, null);
    }
  }

  private static void readFully(InputStream in, byte[] b) throws IOException {
    int n = in.readNBytes(b, 0, b.length);
    if (n != b.length) {
      throw new IOException("file shrank while being read");
    }
  }

  /** Whether every byte of {@code file} in [from, size) is zero (a zero-filled, never-written tail). */
  private static boolean zeroFrom(Path file, long from, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buf = ByteBuffer.allocate(1 << 16);
      long pos = from;
      while (pos < size) {
        buf.clear();
        int n = ch.read(buf, pos);
        if (n < 0) {
          break;
        }
        for (int i = 0; i < n; i++) {
          if (buf.get(i) != 0) {
            return false;
          }
        }
        pos += n;
      }
      return true;
    }
  }
}
