package io.bellows.cli.stress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What the store must hold for each key, kept beside it: per key the last acknowledged state
 * ({@code committed}), the state of a write that was issued but not (yet) acknowledged ({@code
 * pending}), and the highest version ever issued. A state is {@code version << 1 | present}: a
 * present row has every column at that version; an absent one was deleted at that version (or never
 * written, version 0).
 *
 * <p>Kept in a memory-mapped file when the store outlives the process: a store written to the map
 * is in the OS page cache at once, so it survives a SIGKILL of the process, and the next process
 * knows which writes were acknowledged. Every slot of a key is touched only under that key's lock.
 *
 * <p>File layout: magic {@code BSTRESS1}, int keys, int columns (big-endian), then per key three
 * longs: committed, pending, issued.
 */
final class ExpectedState implements AutoCloseable {
  /** No write in flight. */
  static final long NONE = -1;
  private static final byte[] MAGIC = "BSTRESS1".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADER = 16;
  private static final int SLOT = 24;

  private final ByteBuffer slots;
  private final FileChannel channel;
  private final int keys;

  private ExpectedState(ByteBuffer slots, FileChannel channel, int keys) {
    this.slots = slots;
    this.channel = channel;
    this.keys = keys;
  }

  /** An expected state that lives as long as this process (for in-process runs). */
  static ExpectedState inMemory(int keys, int columns) {
    ByteBuffer b = ByteBuffer.allocate(HEADER + SLOT * keys);
    writeHeader(b, keys, columns);
    return new ExpectedState(b, null, keys);
  }

  /**
   * Opens the expected-state file, creating it for {@code keys} keys of {@code columns} columns if
   * it does not exist; an existing file made for other sizes is refused (the store beside it holds
   * other rows).
   */
  static ExpectedState mapped(Path file, int keys, int columns) throws IOException {
    boolean existed = Files.exists(file);
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try {
      long size = HEADER + (long) SLOT * keys;
      if (existed) {
        ByteBuffer h = ByteBuffer.allocate(HEADER);
        ch.read(h, 0);
        h.flip();
        byte[] magic = new byte[MAGIC.length];
        if (h.remaining() < HEADER) {
          throw new IOException(file + " is not an expected-state file of bellows stress (too short)");
        }
        h.get(magic);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
          throw new IOException(file + " is not an expected-state file of bellows stress");
        }
        int k = h.getInt();
        int c = h.getInt();
        if (k != keys || c != columns || ch.size() != size) {
          throw new IOException("the stress directory was made with --keys " + k + " --columns " + c
              + "; run it again with those, or use a new directory");
        }
      }
      MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
      map.order(ByteOrder.BIG_ENDIAN);
      if (!existed) {
        writeHeader(map, keys, columns);
      }
      return new ExpectedState(map, ch, keys);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  private static void writeHeader(ByteBuffer b, int keys, int columns) {
    b.put(0, MAGIC);
    b.putInt(8, keys);
    b.putInt(12, columns);
    for (int k = 0; k < keys; k++) {
      b.putLong(HEADER + SLOT * k + 8, NONE);
    }
  }

  int keys() {
    return keys;
  }

  long committed(int key) {
    return slots.getLong(HEADER + SLOT * key);
  }

  long pending(int key) {
    return slots.getLong(HEADER + SLOT * key + 8);
  }

  /** A new version for {@code key}, higher than every version issued for it before. */
  long issue(int key) {
    int at = HEADER + SLOT * key + 16;
    long v = slots.getLong(at) + 1;
    slots.putLong(at, v);
    return v;
  }

  /** The highest version issued for {@code key}. */
  long issued(int key) {
    return slots.getLong(HEADER + SLOT * key + 16);
  }

  /** Records a write about to be sent: until acknowledged, either state may be found after a crash. */
  void begin(int key, long state) {
    slots.putLong(HEADER + SLOT * key + 8, state);
  }

  /** The write of {@code state} was acknowledged (or {@code state} was found in the store). */
  void commit(int key, long state) {
    slots.putLong(HEADER + SLOT * key, state);
    slots.putLong(HEADER + SLOT * key + 8, NONE);
  }

  static long present(long version) {
    return version << 1 | 1;
  }

  static long absent(long version) {
    return version << 1;
  }

  static long version(long state) {
    return state >>> 1;
  }

  static boolean isPresent(long state) {
    return (state & 1) != 0;
  }

  /** Whether a read that found {@code observed} agrees with a write of {@code expected}. */
  static boolean sameVisible(long observed, long expected) {
    return isPresent(observed) ? observed == expected : !isPresent(expected);
  }

  static String describe(long state) {
    if (state == NONE) {
      return "none";
    }
    return (isPresent(state) ? "present@" : "absent@") + version(state);
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      if (slots instanceof MappedByteBuffer m) {
        m.force();
      }
      channel.close();
    }
  }
}
