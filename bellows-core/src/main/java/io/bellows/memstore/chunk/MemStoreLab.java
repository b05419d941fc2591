package io.bellows.memstore.chunk;

import io.bellows.cell.Cell;
import io.bellows.util.RefCounted;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A memory-store local allocation buffer (MSLAB), one per memory segment: copies cells' serialized
 * bytes into chunks from the engine's {@link ChunkAllocator}, so a segment's data lives in a few
 * large blocks instead of many small writer arrays. A cell larger than a chunk gets a jumbo chunk
 * of its own.
 *
 * <p>Lifetime: the lab is {@link RefCounted}. Its creator holds the first reference and gives it up
 * with {@link #close()}; a reader that scans the segment's data takes its own reference first
 * ({@link #tryRetain()}) and {@link #release()}s it when done. Only when the last reference goes
 * does the lab release its chunks to the allocator, so memory under a scan in progress is never
 * recycled.
 *
 * <p>Thread-safety: {@link #copy} may be called by many writers at once (the current chunk is
 * bump-allocated with CAS; a writer that finds it full installs a new one with CAS). Copies must
 * not race with {@link #close()}: the owner stops writing to a segment before closing it. A lab
 * made by {@link #forOneWriter} is copied into by its creating thread alone (a flatten's or
 * compaction's output, built before anyone else can see it): its copies skip the two atomic
 * updates per cell (the bump pointer's CAS and the byte count's adder), which cost the in-memory
 * compaction thread about a tenth of its time.
 *
 * <p>Invariants: the lab holds exactly one reference on each chunk in {@code chunks}; every byte
 * range returned by {@code copy} lies within one chunk of {@code chunks}.
 */
public final class MemStoreLab extends RefCounted implements AutoCloseable {
  private final ChunkAllocator allocator;
  private final AtomicReference<Chunk> current = new AtomicReference<>();
  private final ConcurrentLinkedQueue<Chunk> chunks = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicInteger chunkCount = new AtomicInteger();
  private final LongAdder dataBytes = new LongAdder();
  private final LongAdder allocatedBytes = new LongAdder();
  private final LongAdder offHeapBytes = new LongAdder();

  /**
   * Bytes the owner expects to copy in all (0: unknown). Once less than a chunk of it is left, the
   * lab takes a chunk of just what is left (unpooled) rather than a whole one: a compaction or
   * flatten knows its output's size, and a segment should not hold a mostly empty chunk.
   */
  private final long expectedBytes;

  /** Whether only the creating thread copies into this lab ({@link #forOneWriter}). */
  private final boolean oneWriter;
  /** With {@code oneWriter}: the chunk the writer bump-allocates from without CAS, or null. */
  private Chunk ownCurrent;
  /** With {@code oneWriter}: bytes copied on the fast path (the rest is in {@code dataBytes}). */
  private long ownDataBytes;

  public MemStoreLab(ChunkAllocator allocator) {
    this(allocator, 0);
  }

  /** A lab whose owner expects to copy about {@code expectedBytes} in all (an upper bound is best). */
  public MemStoreLab(ChunkAllocator allocator, long expectedBytes) {
    this(allocator, expectedBytes, false);
  }

  private MemStoreLab(ChunkAllocator allocator, long expectedBytes, boolean oneWriter) {
    this.allocator = allocator;
    this.expectedBytes = Math.max(0, expectedBytes);
    this.oneWriter = oneWriter;
  }

  /**
   * A lab that only the calling thread copies into, until it hands the lab (or what indexes its
   * cells) to others through a synchronizing publication; it expects about {@code expectedBytes}.
   */
  public static MemStoreLab forOneWriter(ChunkAllocator allocator, long expectedBytes) {
    return new MemStoreLab(allocator, expectedBytes, true);
  }

  public ChunkAllocator allocator() {
    return allocator;
  }

  /**
   * Copies the cell's serialized bytes into chunk memory and returns where they went, as a {@link
   * ChunkRef} (chunk id, offset); the length is {@code cell.length()}.
   */
  public long copy(Cell cell) {
    return copy(cell.array(), cell.offset(), cell.length());
  }

  /** Copies {@code len} bytes of serialized cell data; returns a {@link ChunkRef}. */
  public long copy(byte[] src, int off, int len) {
    Chunk own = ownCurrent; // null unless oneWriter (and then until the first chunk, and after close)
    if (own != null) {
      int at = own.allocAlone(len);
      if (at >= 0) {
        own.put(at, src, off, len);
        ownDataBytes += len;
        return ChunkRef.of(own.id(), at);
      }
    }
    long ref = copyShared(src, off, len);
    if (oneWriter) {
      ownCurrent = current.get();
    }
    return ref;
  }

  /** {@link #copy} for many writers, and a one-writer lab's first copy into each chunk. */
  private long copyShared(byte[] src, int off, int len) {
    if (closed.get()) {
      throw new IllegalStateException("MSLAB is closed");
    }
    if (len > allocator.chunkSize()) {
      Chunk jumbo = allocator.allocateJumbo(len);
      adopt(jumbo);
      int at = jumbo.alloc(len);
      jumbo.put(at, src, off, len);
      dataBytes.add(len);
      return ChunkRef.of(jumbo.id(), at);
    }
    for (;;) {
      Chunk c = current.get();
      if (c != null) {
        int at = c.alloc(len);
        if (at >= 0) {
          c.put(at, src, off, len);
          dataBytes.add(len);
          return ChunkRef.of(c.id(), at);
        }
      }
      Chunk fresh = newChunk(len);
      if (current.compareAndSet(c, fresh)) {
        adopt(fresh);
      } else {
        // Another writer installed a new chunk first: give ours back and use theirs.
        fresh.release();
      }
    }
  }

  /**
   * A pooled chunk, or, when less than a chunk of the expected bytes is left, a tail for just that
   * ({@link ChunkAllocator#allocateTail}).
   */
  private Chunk newChunk(int len) {
    long left = expectedBytes - dataBytes();
    if (expectedBytes > 0 && left < allocator.chunkSize()) {
      return allocator.allocateTail((int) Math.max(len, left));
    }
    return allocator.allocateData();
  }

  /** Copies the cell and returns a cell over the copy (see {@link Chunk#cell}) with its seqId. */
  public Cell copyCell(Cell cell) {
    long ref = copy(cell);
    return cellAt(ref, cell.length(), cell.seqId());
  }

  /** The cell at a reference returned by {@link #copy}. */
  public Cell cellAt(long ref, int length, long seqId) {
    return allocator.chunk(ChunkRef.chunkId(ref)).cell(ChunkRef.offset(ref), length, seqId);
  }

  /**
   * The chunk of this lab whose heap array {@code array} is, or null (direct chunks have none). Used
   * to locate a cell view (made by {@link #cellAt} over a heap chunk) in the lab; O(chunks).
   */
  public Chunk chunkOf(byte[] array) {
    for (Chunk c : chunks) {
      ByteBuffer b = c.buffer();
      if (b.hasArray() && b.array() == array) {
        return c;
      }
    }
    return null;
  }

  private void adopt(Chunk chunk) {
    chunks.add(chunk);
    chunkCount.incrementAndGet();
    allocatedBytes.add(chunk.capacity());
    if (chunk.isDirect()) {
      offHeapBytes.add(chunk.capacity());
    }
  }

  /** Serialized cell bytes copied in (O(1)). */
  public long dataBytes() {
    return dataBytes.sum() + ownDataBytes;
  }

  /** Capacity of the chunks the lab holds, data plus unused tails (O(1)). */
  public long allocatedBytes() {
    return allocatedBytes.sum();
  }

  /** The direct part of {@link #allocatedBytes()}. */
  public long offHeapBytes() {
    return offHeapBytes.sum();
  }

  /** Chunks the lab holds (jumbo included). */
  public int chunkCount() {
    return chunkCount.get();
  }

  public boolean isClosed() {
    return closed.get();
  }

  /** Gives up the creator's reference (once; later calls do nothing). */
  @Override
  public void close() {
    ownCurrent = null; // a one-writer lab's copies after close take the shared path, which refuses them
    if (closed.compareAndSet(false, true)) {
      release();
    }
  }

  @Override
  protected void deallocate() {
    closed.set(true);
    current.set(null);
    Chunk c;
    while ((c = chunks.poll()) != null) {
      c.release();
    }
  }

  @Override
  public String toString() {
    return "MemStoreLab(chunks=" + chunkCount() + ", data=" + dataBytes() + ")";
  }
}
