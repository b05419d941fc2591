package io.bellows.cluster.region;

import io.bellows.record.WriteRecord;
import io.bellows.record.WriteRecordCodec;
import io.bellows.util.Bytes;

/**
 * A replicated region's log entry: the term its leader evaluated the write in (8 bytes), then the
 * write's record in {@link WriteRecordCodec}'s layout, its sequence id not set (every replica gives
 * it {@code base + index} when it applies it). And the two replies of the applier.
 */
final class RegionEntry {
  /** The applier's reply: the record was applied. */
  static final byte[] APPLIED = {0};
  /** The applier's reply: the entry reached the log in a later term than it was evaluated in; nothing was applied. */
  static final byte[] REJECTED = {1};

  private RegionEntry() {}

  static byte[] encode(long term, WriteRecord record) {
    byte[] out = new byte[8 + WriteRecordCodec.encodedLength(record)];
    Bytes.putLong(out, 0, term);
    WriteRecordCodec.encode(record, out, 8);
    return out;
  }

  /** The term the entry's write was evaluated in. */
  static long term(byte[] entry) {
    if (entry.length < 8 + WriteRecordCodec.MIN_LENGTH) {
      throw new IllegalArgumentException("a region's log entry of " + entry.length + " bytes is shorter than "
          + (8 + WriteRecordCodec.MIN_LENGTH));
    }
    return Bytes.getLong(entry, 0);
  }

  /** The entry's record; its cells are new objects, free to be given a sequence id. */
  static WriteRecord record(byte[] entry) {
    return WriteRecordCodec.decode(entry, 8, entry.length - 8, "region log entry");
  }

  static boolean rejected(byte[] reply) {
    return reply.length == 1 && reply[0] == REJECTED[0];
  }
}
