package io.bellows.sstable;

import io.bellows.util.Bytes;
import io.bellows.util.VarInt;
import java.util.Arrays;

/** A growable byte array for building block payloads (big-endian fixed ints, LEB128 varints). Not thread-safe. */
final class ByteSink {
  private byte[] buf;
  private int size;

  ByteSink(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  int size() {
    return size;
  }

  byte[] array() {
    return buf;
  }

  void reset() {
    size = 0;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  private void ensure(int extra) {
    if (size + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
    }
  }

  void putByte(int v) {
    ensure(1);
    buf[size++] = (byte) v;
  }

  void putInt(int v) {
    ensure(4);
    Bytes.putInt(buf, size, v);
    size += 4;
  }

  void putLong(long v) {
    ensure(8);
    Bytes.putLong(buf, size, v);
    size += 8;
  }

  void putVarLong(long v) {
    ensure(10);
    size = VarInt.put(buf, size, v);
  }

  void putBytes(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
  }
}
