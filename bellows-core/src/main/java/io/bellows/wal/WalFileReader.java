package io.bellows.wal;

import io.bellows.fs.FileSystem;
import io.bellows.fs.ReadableFile;
import io.bellows.record.WriteRecord;
import io.bellows.util.Bytes;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Reads one WAL file front to back, handing each good record to a visitor, and stops at the first
 * bad spot, describing it and where the next valid record after it starts (found by scanning
 * ahead byte by byte). It does not decide what a bad spot means: {@link Wal#replay} applies the
 * torn-tail rule (using {@link Problem#tornTailCandidate()}) and {@link WalDump} prints it and goes
 * on at {@link Problem#resumeAt()}.
 *
 * <p>Stateless (static methods; each call opens its own channel), so thread-safe as long as the
 * file is not being written concurrently beyond the length seen at the start.
 */
final class WalFileReader {
  private WalFileReader() {}

  /** Bytes read per step while scanning ahead for the next valid record. */
  private static final int SCAN_CHUNK = 1 << 20;

  /** Receives each good record. */
  interface RecordVisitor {
    /**
     * @param offset byte offset of the record (its length field) in the file
     * @param payloadLength the record's payload length
     */
    void accept(long offset, int payloadLength, WriteRecord edit);
  }

  enum Kind {
    /**
     * A checksum failed, a header is incomplete, or a record runs past the end of the file: what an
     * interrupted append leaves behind, but also what a flipped bit does.
     */
    DAMAGED,
    /**
     * Bytes that passed their checksums but are not well-formed (so they were written like this), or
     * a file header that is damaged but not zero: never an interrupted append.
     */
    CORRUPT,
    /** A WAL file of a format version this build does not read. */
    UNSUPPORTED
  }

  /**
   * The first bad spot of a file (or of the part read).
   *
   * @param offset where the bad record (or header, at 0) starts; everything before it is good
   * @param resumeAt the offset of the first valid record (header and payload checksums match) after
   *     {@code offset}, or -1 if there is none: then nothing after the bad spot can be an intact record
   */
  record Problem(long offset, Kind kind, String reason, long resumeAt) {
    /**
     * Whether this can be an interrupted append: damage after which nothing valid follows. Only the
     * last file of the log can end in one.
     */
    boolean tornTailCandidate() {
      return kind == Kind.DAMAGED && resumeAt < 0;
    }
  }

  /**
   * What reading found.
   *
   * @param fileSize the file's length when reading started
   * @param records number of good records
   * @param maxSeqId highest sequence id among the good records, {@link Long#MIN_VALUE} if none
   * @param problem the first bad spot, or null if the file is good to its end
   */
  record Outcome(long fileSize, long records, long maxSeqId, Problem problem, long fencedLength) {
    Outcome(long fileSize, long records, long maxSeqId, Problem problem) {
      this(fileSize, records, maxSeqId, problem, -1);
    }

    Outcome withFencedLength(long fenced) {
      return new Outcome(fileSize, records, maxSeqId, problem, fenced);
    }

    /** Where the good part that was read ends. */
    long validEnd() {
      return problem == null ? fileSize : problem.offset();
    }
  }

  /** Reads {@code file}, which by its name is WAL file number {@code fileNumber}, from its header on. */
  static Outcome read(FileSystem fs, Path file, long fileNumber, RecordVisitor visitor) throws IOException {
    try (ReadableFile ch = fs.open(file)) {
      long size = ch.length();
      byte[] h = readHeader(ch, size);
      if (h == null) {
        // The header is forced before any record is written: a short file is an interrupted creation.
        return new Outcome(size, 0, Long.MIN_VALUE,
            new Problem(0, Kind.DAMAGED, "file header incomplete: file has " + size + " bytes", -1));
      }
      String bad = WalFormat.checkHeader(h, fileNumber);
      if (bad != null) {
        Kind kind;
        if (allZero(h)) {
          kind = Kind.DAMAGED; // a file system can leave a created file zero-filled after a crash
        } else if (WalFormat.hasMagic(h) && WalFormat.headerChecksumMatches(h)
            && !WalFormat.readable(WalFormat.version(h))) {
          kind = Kind.UNSUPPORTED;
        } else {
          kind = Kind.CORRUPT;
        }
        long resume = kind == Kind.UNSUPPORTED ? -1 : nextValidRecord(ch, 1, size);
        return new Outcome(size, 0, Long.MIN_VALUE, new Problem(0, kind, bad, resume));
      }
      int version = WalFormat.version(h);
      return readRecords(ch, size, WalFormat.headerSize(version), version, visitor)
          .withFencedLength(WalFormat.fencedLength(h));
    }
  }

  /**
   * The header bytes (20 before version 4, 28 from it, as the version field says), or null if the
   * file is too short for them.
   */
  private static byte[] readHeader(ReadableFile ch, long size) throws IOException {
    if (size < WalFormat.HEADER_SIZE_V3) {
      return null;
    }
    byte[] h = new byte[WalFormat.HEADER_SIZE_V3];
    readFully(ch, 0, h, h.length);
    int want = WalFormat.hasMagic(h) ? WalFormat.headerSize(WalFormat.version(h)) : h.length;
    if (want > h.length) {
      if (size < want) {
        return null;
      }
      h = new byte[want];
      readFully(ch, 0, h, h.length);
    }
    return h;
  }

  /** The fenced length in the header of {@code file} (-1 if none, or if the header cannot be read). */
  static long fencedLength(FileSystem fs, Path file) {
    try (ReadableFile ch = fs.open(file)) {
      byte[] h = readHeader(ch, ch.length());
      return h != null && WalFormat.hasMagic(h) && WalFormat.headerChecksumMatches(h) ? WalFormat.fencedLength(h) : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * Reads the records of {@code file} from {@code start} on. The header is not checked: its version
   * says how to decode the records if it names one this build reads, else they are taken to be of
   * the current version.
   */
  static Outcome readFrom(FileSystem fs, Path file, long start, RecordVisitor visitor) throws IOException {
    try (ReadableFile ch = fs.open(file)) {
      long size = ch.length();
      int version = WalFormat.VERSION;
      if (size >= WalFormat.HEADER_SIZE_V3) {
        byte[] h = new byte[WalFormat.HEADER_SIZE_V3];
        readFully(ch, 0, h, h.length);
        if (WalFormat.hasMagic(h) && WalFormat.readable(WalFormat.version(h))) {
          version = WalFormat.version(h);
        }
      }
      return readRecords(ch, size, start, version, visitor);
    }
  }

  private static Outcome readRecords(ReadableFile ch, long size, long start, int version, RecordVisitor visitor)
      throws IOException {
    long records = 0;
    long maxSeqId = Long.MIN_VALUE;
    // Never a buffer larger than what is left of the file: a damaged file must not cost more memory.
    int bufferSize = (int) Math.max(1, Math.min(1 << 16, size - start));
    InputStream in = new BufferedInputStream(new PositionalStream(ch, start), bufferSize);
    byte[] header = new byte[WalFormat.RECORD_HEADER_SIZE];
    long pos = start;
    while (pos < size) {
      Kind kind = Kind.DAMAGED;
      String bad = null;
      long remaining = size - pos;
      if (remaining < WalFormat.RECORD_HEADER_SIZE) {
        bad = "record header incomplete: " + remaining + " bytes left";
      } else {
        readFully(in, header);
        int len = Bytes.getInt(header, 0);
        if (Bytes.getInt(header, 8) != WalFormat.crc(header, 0, 8)) {
          bad = "record header checksum mismatch";
        } else if (WalFormat.recordHeaderLength(header, 0) < 0) {
          kind = Kind.CORRUPT;
          bad = "invalid payload length " + len;
        } else if (len > remaining - WalFormat.RECORD_HEADER_SIZE) {
          bad = "record of " + len + " payload bytes runs past the end of the file (" + size + " bytes)";
        } else {
          byte[] payload = new byte[len];
          readFully(in, payload);
          if (WalFormat.crc(payload, 0, len) != Bytes.getInt(header, 4)) {
            bad = "record checksum mismatch (payload length " + len + ")";
          } else {
            try {
              WriteRecord edit = WalFormat.decodePayload(payload, version);
              visitor.accept(pos, len, edit);
              records++;
              maxSeqId = Math.max(maxSeqId, edit.seqId());
              pos += WalFormat.RECORD_HEADER_SIZE + len;
              continue;
            } catch (IllegalArgumentException e) {
              kind = Kind.CORRUPT;
              bad = "malformed edit: " + e.getMessage();
            }
          }
        }
      }
      return new Outcome(size, records, maxSeqId, new Problem(pos, kind, bad, nextValidRecord(ch, pos + 1, size)));
    }
    return new Outcome(size, records, maxSeqId, null);
  }

  /**
   * The offset of the first record at or after {@code from} whose header checksum and payload
   * checksum both match, or -1. Tries every byte offset: after damage, nothing says where the next
   * record starts. A false match needs two 32-bit checksums to agree by chance.
   */
  static long nextValidRecord(ReadableFile ch, long from, long size) throws IOException {
    int hs = WalFormat.RECORD_HEADER_SIZE;
    byte[] buf = new byte[(int) Math.max(hs, Math.min(SCAN_CHUNK + hs, size - from))];
    long base = from;
    while (size - base >= hs) {
      int n = (int) Math.min(buf.length, size - base);
      readFully(ch, base, buf, n);
      for (int i = 0; i + hs <= n; i++) {
        int len = WalFormat.recordHeaderLength(buf, i);
        long payloadAt = base + i + hs;
        if (len >= 0 && len <= size - payloadAt) {
          byte[] payload = new byte[len];
          readFully(ch, payloadAt, payload, len);
          if (WalFormat.crc(payload, 0, len) == Bytes.getInt(buf, i + 4)) {
            return base + i;
          }
        }
      }
      base += n - hs + 1; // the next window starts at the first offset this one could not check
    }
    return -1;
  }

  private static void readFully(InputStream in, byte[] b) throws IOException {
    int n = in.readNBytes(b, 0, b.length);
    if (n != b.length) {
      throw new IOException("file shrank while being read");
    }
  }

  private static void readFully(ReadableFile ch, long pos, byte[] b, int len) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(b, 0, len);
    while (buf.hasRemaining()) {
      if (ch.read(buf, pos + buf.position()) < 0) {
        throw new IOException("file shrank while being read");
      }
    }
  }

  /** Sequential reads of a file from a start position (closing it leaves the file open). */
  private static final class PositionalStream extends InputStream {
    private final ReadableFile file;
    private long pos;

    PositionalStream(ReadableFile file, long start) {
      this.file = file;
      this.pos = start;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      int n = file.read(ByteBuffer.wrap(b, off, len), pos);
      if (n > 0) {
        pos += n;
      }
      return n;
    }
  }

  private static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }
}
