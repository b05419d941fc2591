package io.bellows.cluster.region;

import io.bellows.cell.Cell;
import io.bellows.engine.CallId;
import io.bellows.record.WriteRecord;
import io.bellows.record.WriteRecordCodec;
import io.bellows.util.Bytes;
import java.util.List;

/**
 * A replicated region's log entry, and the replies of its applier (docs/FORMAT.md, "Replicated
 * region entry").
 *
 * <p>An entry is the term its leader evaluated the write in (8 bytes), then the write's record in
 * {@link WriteRecordCodec}'s layout, its sequence id not set (every replica gives it {@code base +
 * index} when it applies it). An entry of a write that names its call ({@link CallId}) sets the top
 * bit of the term (terms are positive, so an entry without it reads as before) and puts between the
 * term and the record the client's id (16 bytes), the call's id, the client's lowest outstanding
 * call id (8 bytes each) and the number of the record's last cells that are the call's answer (4
 * bytes: the new values of an increment or append that returns them).
 */
final class RegionEntry {
  /** The applier's reply: the record was applied. */
  static final byte[] APPLIED = {0};
  /** The applier's reply: the entry reached the log in a later term than it was evaluated in; nothing was applied. */
  static final byte[] REJECTED = {1};
  /** The applier's reply, followed by the first answer's cells as a record: the call applied before; nothing now. */
  static final byte DUPLICATE = 2;
  /** The applier's reply: the call lies below its client's watermark and is not remembered; nothing was applied. */
  static final byte[] STALE = {3};
  /**
   * The applier's reply: the region was split before this entry in its log, so the entry's write
   * belongs to a daughter; nothing was applied.
   */
  static final byte[] MOVED = {4};
  /** The term's top bit: the entry names its call. */
  private static final long NAMED = Long.MIN_VALUE;
  /**
   * The term's second bit: the entry is a command to the region's replicas, not a write: its
   * payload after the term is UTF-8 text whose first word names the command ({@code split},
   * {@code retire}).
   */
  private static final long COMMAND = 1L << 62;
  private static final int CALL_BYTES = 16 + 8 + 8 + 4;

  private RegionEntry() {}

  static byte[] encode(long term, WriteRecord record) {
    byte[] out = new byte[8 + WriteRecordCodec.encodedLength(record)];
    Bytes.putLong(out, 0, term);
    WriteRecordCodec.encode(record, out, 8);
    return out;
  }

  /** The entry of a write named {@code call}, whose record's last {@code answerCells} cells are its answer. */
  static byte[] encode(long term, CallId call, int answerCells, WriteRecord record) {
    if (answerCells < 0 || answerCells > record.cells().size()) {
      throw new IllegalArgumentException(answerCells + " answer cells of a record of " + record.cells().size());
    }
    byte[] out = new byte[8 + CALL_BYTES + WriteRecordCodec.encodedLength(record)];
    Bytes.putLong(out, 0, term | NAMED);
    Bytes.putLong(out, 8, call.clientHigh());
    Bytes.putLong(out, 16, call.clientLow());
    Bytes.putLong(out, 24, call.call());
    Bytes.putLong(out, 32, call.lowestOutstanding());
    Bytes.putInt(out, 40, answerCells);
    WriteRecordCodec.encode(record, out, 8 + CALL_BYTES);
    return out;
  }

  /** A command entry ({@link #COMMAND}) appended in term {@code term}, carrying {@code text}. */
  static byte[] command(long term, String text) {
    byte[] payload = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] out = new byte[8 + payload.length];
    Bytes.putLong(out, 0, term | COMMAND);
    System.arraycopy(payload, 0, out, 8, payload.length);
    return out;
  }

  /** The text of a command entry, or null if the entry is a write's. */
  static String commandText(byte[] entry) {
    if (entry.length < 8 || (Bytes.getLong(entry, 0) & (COMMAND | NAMED)) != COMMAND) {
      return null;
    }
    return new String(entry, 8, entry.length - 8, java.nio.charset.StandardCharsets.UTF_8);
  }

  static boolean moved(byte[] reply) {
    return reply.length == 1 && reply[0] == MOVED[0];
  }

  /** The term the entry's write was evaluated in. */
  static long term(byte[] entry) {
    if (entry.length < 8 + WriteRecordCodec.MIN_LENGTH) {
      throw new IllegalArgumentException("a region's log entry of " + entry.length + " bytes is shorter than "
          + (8 + WriteRecordCodec.MIN_LENGTH));
    }
    return Bytes.getLong(entry, 0) & ~NAMED;
  }

  private static boolean named(byte[] entry) {
    boolean named = (Bytes.getLong(entry, 0) & NAMED) != 0;
    if (named && entry.length < 8 + CALL_BYTES + WriteRecordCodec.MIN_LENGTH) {
      throw new IllegalArgumentException("a region's log entry naming its call of " + entry.length
          + " bytes is shorter than " + (8 + CALL_BYTES + WriteRecordCodec.MIN_LENGTH));
    }
    return named;
  }

  /** The call the entry's write names, or null (an entry of a write without ids, or of an older version). */
  static CallId call(byte[] entry) {
    if (!named(entry)) {
      return null;
    }
    return new CallId(Bytes.getLong(entry, 8), Bytes.getLong(entry, 16), Bytes.getLong(entry, 24),
        Bytes.getLong(entry, 32));
  }

  /** How many of the record's last cells are the call's answer (0 for an entry that names no call). */
  static int answerCells(byte[] entry) {
    return named(entry) ? Bytes.getInt(entry, 40) : 0;
  }

  /** The entry's record; its cells are new objects, free to be given a sequence id. */
  static WriteRecord record(byte[] entry) {
    int at = named(entry) ? 8 + CALL_BYTES : 8;
    return WriteRecordCodec.decode(entry, at, entry.length - at, "region log entry");
  }

  static boolean rejected(byte[] reply) {
    return reply.length == 1 && reply[0] == REJECTED[0];
  }

  static boolean stale(byte[] reply) {
    return reply.length == 1 && reply[0] == STALE[0];
  }

  /** The reply to a duplicate: its first answer's cells. */
  static byte[] duplicate(List<Cell> answer) {
    WriteRecord r = new WriteRecord(0, 0, answer);
    byte[] out = new byte[1 + WriteRecordCodec.encodedLength(r)];
    out[0] = DUPLICATE;
    WriteRecordCodec.encode(r, out, 1);
    return out;
  }

  /** The first answer a duplicate's reply carries, or null if the reply is not a duplicate's. */
  static List<Cell> duplicateAnswer(byte[] reply) {
    if (reply.length < 1 || reply[0] != DUPLICATE) {
      return null;
    }
    return WriteRecordCodec.decode(reply, 1, reply.length - 1, "region applier reply").cells();
  }
}
