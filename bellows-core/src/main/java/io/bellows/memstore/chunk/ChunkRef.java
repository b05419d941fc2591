package io.bellows.memstore.chunk;

/**
 * Encodes a position in chunk memory, (chunk id, offset), as one {@code long}: the id in the high
 * 32 bits, the offset in the low 32. Chunk id 0 is never assigned, so {@link #NULL} (0) means "no
 * position" (the end of a skiplist level).
 */
public final class ChunkRef {
  public static final long NULL = 0L;

  private ChunkRef() {}

  public static long of(int chunkId, int offset) {
    return ((long) chunkId << 32) | (offset & 0xFFFFFFFFL);
  }

  public static int chunkId(long ref) {
    return (int) (ref >>> 32);
  }

  public static int offset(long ref) {
    return (int) ref;
  }

  public static String toString(long ref) {
    return ref == NULL ? "null" : chunkId(ref) + ":" + offset(ref);
  }
}
