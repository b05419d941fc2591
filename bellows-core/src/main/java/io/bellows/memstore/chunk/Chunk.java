package io.bellows.memstore.chunk;

import io.bellows.cell.Cell;
import io.bellows.util.RefCounted;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * A fixed-size block of memory-store memory (a heap or direct {@link ByteBuffer}) with an id that is
 * unique among the live chunks of its {@link ChunkAllocator}, filled by bump allocation.
 *
 * <p>The creator (whoever asked the allocator for it) holds the first reference; when the last
 * reference is released the allocator takes the memory back (into its pool, or drops it). A Chunk
 * object is used for exactly one hand-out: a pooled buffer comes back wrapped in a new Chunk with a
 * new id, so a stale id or Chunk never silently aliases reused memory.
 *
 * <p>Thread-safety: {@link #alloc} is lock-free (CAS on the bump pointer) and may be called by any
 * number of threads; {@link #allocAlone} is for a chunk that one thread alone allocates from. The
 * buffer is only ever accessed with absolute get/put, never its position or limit, so concurrent
 * readers and writers of disjoint ranges do not interfere. Publishing bytes written into a chunk to
 * other threads is the job of the structure that indexes them.
 *
 * <p>Invariants: {@code 0 <= used() <= capacity()}; allocated ranges never overlap; the buffer is
 * big-endian (the {@link Cell} layout's byte order).
 */
public final class Chunk extends RefCounted {
  /** What a chunk is used for, which decides where its memory comes from and whether it is pooled. */
  public enum Kind {
    /** Cell data or flat-index entries: heap or direct per configuration, pooled. */
    DATA,
    /** Skiplist nodes: always direct (atomic access needs it), pooled. */
    NODE,
    /** One oversized cell: exact size, never pooled. */
    JUMBO
  }

  private static final VarHandle NEXT_FREE;

  static {
    try {
      NEXT_FREE = MethodHandles.lookup().findVarHandle(Chunk.class, "nextFree", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final int id;
  private final ByteBuffer buffer;
  private final Kind kind;
  private final ChunkAllocator owner;
  @SuppressWarnings("unused") // accessed through NEXT_FREE
  private volatile int nextFree;

  Chunk(int id, ByteBuffer buffer, Kind kind, ChunkAllocator owner) {
    this.id = id;
    this.buffer = buffer;
    this.kind = kind;
    this.owner = owner;
  }

  public int id() {
    return id;
  }

  public Kind kind() {
    return kind;
  }

  /** The chunk's memory; use absolute access only (never change position or limit). */
  public ByteBuffer buffer() {
    return buffer;
  }

  public boolean isDirect() {
    return buffer.isDirect();
  }

  public int capacity() {
    return buffer.capacity();
  }

  /** Bytes handed out so far (the bump pointer). */
  public int used() {
    return (int) NEXT_FREE.getVolatile(this);
  }

  /**
   * Reserves {@code size} bytes and returns their offset, or -1 if the chunk has less than {@code
   * size} bytes left (a failed attempt reserves nothing).
   */
  public int alloc(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("negative allocation " + size);
    }
    for (;;) {
      int cur = (int) NEXT_FREE.getVolatile(this);
      if (size > buffer.capacity() - cur) {
        return -1;
      }
      if (NEXT_FREE.compareAndSet(this, cur, cur + size)) {
        return cur;
      }
    }
  }

  /**
   * {@link #alloc} without the compare-and-set, for a chunk that only the calling thread allocates
   * from (a compaction's output). Other threads may read {@link #used()} stale until the chunk is
   * published by what indexes it.
   */
  public int allocAlone(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("negative allocation " + size);
    }
    int cur = (int) NEXT_FREE.get(this);
    if (size > buffer.capacity() - cur) {
      return -1;
    }
    NEXT_FREE.set(this, cur + size);
    return cur;
  }

  /** Copies {@code len} bytes of {@code src} to {@code offset} of this chunk. */
  public void put(int offset, byte[] src, int srcOff, int len) {
    if (buffer.hasArray()) {
      System.arraycopy(src, srcOff, buffer.array(), buffer.arrayOffset() + offset, len);
    } else {
      buffer.put(offset, src, srcOff, len);
    }
  }

  /**
   * A {@link Cell} for the serialized cell at {@code offset}: for a heap chunk a view over the
   * chunk's array (no copy; valid only while the chunk is retained), for a direct chunk a copy into
   * a fresh array (temporary object per read).
   */
  public Cell cell(int offset, int length, long seqId) {
    if (buffer.hasArray()) {
      return new Cell(buffer.array(), buffer.arrayOffset() + offset, length, seqId);
    }
    byte[] copy = new byte[length];
    buffer.get(offset, copy, 0, length);
    return new Cell(copy, 0, length, seqId);
  }

  @Override
  protected void deallocate() {
    owner.free(this);
  }

  @Override
  public String toString() {
    return "Chunk#" + id + "(" + kind + (isDirect() ? ",direct" : ",heap") + ")";
  }
}
