package io.bellows.cluster.region;

import io.bellows.cell.Cell;
import io.bellows.record.WriteRecord;
import io.bellows.record.WriteRecordCodec;
import io.bellows.util.StorageException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The file of a replica's {@link AnsweredCalls}, {@value #NAME} in the replica's directory, written
 * when the replica checkpoints and read when it opens (docs/FORMAT.md, "Answered calls"): the table
 * as it stood after the entry at its position, so a restart that replays the log from the
 * checkpoint (at or below that position) decides every replayed entry as the first time. Written
 * whole to a temporary file, forced, then renamed over the old one: a crash leaves the old file or
 * the new one. A damaged file (checksum, magic, version, lengths) is refused with an exception that
 * names it; an absent one is an empty table.
 *
 * <pre>
 * file    := magic "BACF" | version int32 (1) | position int64 | skipped count int32 | index int64*
 *            | client count int32 | client* | crc32c int32 (of every byte before it)
 * client  := id 16 bytes | watermark int64 | last index int64 | answer count int32 | answer*
 * answer  := call id int64 | index int64 | length int32 | the answer's cells as a record (WriteRecordCodec)
 * </pre>
 */
final class AnsweredCallsFile {
  static final String NAME = "answered-calls";
  private static final int MAGIC = 0x42414346; // "BACF"
  private static final int VERSION = 1;

  private AnsweredCallsFile() {}

  /** Writes {@code calls} to {@value #NAME} in {@code dir}, replacing what was there, durably. */
  static void write(Path dir, AnsweredCalls calls) {
    byte[] bytes = encode(calls.state());
    Path tmp = dir.resolve(NAME + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
          ch.write(b);
        }
        ch.force(true);
      }
      Files.move(tmp, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
        d.force(true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the answered calls " + dir.resolve(NAME), e);
    }
  }

  /**
   * The replica's table at open or after an install: a {@value #NAME} in {@code regionDir} (the
   * region's own directory, where only an installed checkpoint puts one: the table as of the
   * checkpoint's position) is newer than the replica's own and replaces it, moved atomically into
   * {@code dir} (the replica's directory); with {@code dir} null it is read and deleted. Else the
   * table in {@code dir} (null: an empty one).
   */
  static AnsweredCalls adopt(Path regionDir, Path dir) {
    Path installed = regionDir.resolve(NAME);
    try {
      if (Files.exists(installed)) {
        if (dir == null) {
          AnsweredCalls t = read(regionDir);
          Files.delete(installed);
          return t;
        }
        Files.move(installed, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        for (Path d : List.of(regionDir, dir)) {
          try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
            ch.force(true);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not take over the installed answered calls " + installed, e);
    }
    return dir == null ? new AnsweredCalls() : read(dir);
  }

  /** The table in {@code dir}'s {@value #NAME}; an empty one if there is no such file. */
  static AnsweredCalls read(Path dir) {
    Path file = dir.resolve(NAME);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new AnsweredCalls();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the answered calls " + file, e);
    }
    return AnsweredCalls.of(decode(bytes, file));
  }

  static byte[] encode(AnsweredCalls.State s) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(buf)) {
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeLong(s.position());
      out.writeInt(s.skipped().size());
      for (long i : s.skipped()) {
        out.writeLong(i);
      }
      out.writeInt(s.clients().size());
      for (AnsweredCalls.Client c : s.clients()) {
        out.writeLong(c.high);
        out.writeLong(c.low);
        out.writeLong(c.watermark);
        out.writeLong(c.lastIndex);
        out.writeInt(c.answers.size());
        for (var e : c.answers.entrySet()) {
          out.writeLong(e.getKey());
          out.writeLong(e.getValue().index());
          byte[] cells = WriteRecordCodec.encode(new WriteRecord(0, 0, e.getValue().values()));
          out.writeInt(cells.length);
          out.write(cells);
        }
      }
      CRC32C crc = new CRC32C();
      crc.update(buf.toByteArray());
      out.writeInt((int) crc.getValue());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array's stream does not fail
    }
    return buf.toByteArray();
  }

  static AnsweredCalls.State decode(byte[] bytes, Path file) {
    if (bytes.length < 4 + 4 + 8 + 4 + 4 + 4) {
      throw damaged(file, bytes.length + " bytes are fewer than an empty table's");
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    ByteBuffer b = ByteBuffer.wrap(bytes);
    int stored = b.getInt(bytes.length - 4);
    if ((int) crc.getValue() != stored) {
      throw damaged(file, String.format("its checksum is %08x, its bytes' %08x", stored, (int) crc.getValue()));
    }
    if (b.getInt() != MAGIC) {
      throw damaged(file, "it does not begin with BACF");
    }
    int version = b.getInt();
    if (version != VERSION) {
      throw damaged(file, "its version " + version + " is not " + VERSION);
    }
    b.limit(bytes.length - 4);
    try {
      long position = b.getLong();
      int skippedCount = count(b, 8, file);
      List<Long> skipped = new ArrayList<>(skippedCount);
      for (int i = 0; i < skippedCount; i++) {
        skipped.add(b.getLong());
      }
      int clientCount = count(b, 16 + 8 + 8 + 4, file);
      List<AnsweredCalls.Client> clients = new ArrayList<>(clientCount);
      for (int i = 0; i < clientCount; i++) {
        AnsweredCalls.Client c = new AnsweredCalls.Client(b.getLong(), b.getLong());
        c.watermark = b.getLong();
        c.lastIndex = b.getLong();
        int answers = count(b, 8 + 8 + 4, file);
        for (int j = 0; j < answers; j++) {
          long call = b.getLong();
          long index = b.getLong();
          int length = count(b, 1, file);
          List<Cell> values = WriteRecordCodec.decode(bytes, b.position(), length, file.toString()).cells();
          b.position(b.position() + length);
          c.answers.put(call, new AnsweredCalls.Answer(index, values));
        }
        clients.add(c);
      }
      if (b.hasRemaining()) {
        throw damaged(file, b.remaining() + " bytes follow its last client");
      }
      return new AnsweredCalls.State(position, skipped, clients);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw damaged(file, "it ends inside a field or holds a bad record (" + e + ")");
    }
  }

  /** A count read from {@code b}, checked against the bytes left (each item at least {@code itemBytes}). */
  private static int count(ByteBuffer b, int itemBytes, Path file) {
    int n = b.getInt();
    if (n < 0 || (long) n * itemBytes > b.remaining()) {
      throw damaged(file, "a count of " + n + " does not fit the " + b.remaining() + " bytes left");
    }
    return n;
  }

  private static StorageException damaged(Path file, String why) {
    return new StorageException("the answered calls " + file + " are damaged: " + why
        + "; the replica cannot open (restore it from a checkpoint of another replica)");
  }
}
