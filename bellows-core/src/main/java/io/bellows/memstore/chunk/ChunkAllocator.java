package io.bellows.memstore.chunk;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hands out memory-store chunks, one allocator per engine, shared by all stores. Keeps freed
 * chunk memory in a pool for reuse (bounded by the pool's byte budget; beyond it memory is dropped:
 * heap buffers to the garbage collector, direct buffers to their cleaner, which frees the native
 * memory when the buffer is collected), and keeps the id → chunk registry that serialized indexes
 * use to turn a stored chunk id back into memory.
 *
 * <p>Three kinds of chunk (see {@link Chunk.Kind}): DATA chunks of the configured size, on or off
 * heap per {@code bellows.mslab.offheap}; NODE chunks of the same size but always direct, because
 * the skiplist needs atomic compare-and-set on longs inside the buffer and JDK 22+ supports that
 * only on direct buffers; JUMBO chunks of any size, never pooled: for single cells larger than a
 * chunk, and for the last, partial chunk of a lab or an index whose size is known in advance (so
 * that a small segment does not hold a whole chunk). Heap and direct memory are pooled separately
 * under one byte budget.
 *
 * <p>Thread-safety: all methods may be called concurrently. Counters are updated with atomics, so
 * {@link #stats()} is a consistent snapshot only when no allocation or release runs concurrently.
 */
public final class ChunkAllocator {
  private final int chunkSize;
  private final long poolMaxBytes;
  private final boolean offHeap;
  /** Whether {@link #allocateTail} takes a pooled chunk when the pool holds one. */
  private final boolean pooledTails;
  private final ChunkRegistry registry = new ChunkRegistry();
  private final ConcurrentLinkedDeque<ByteBuffer> heapPool = new ConcurrentLinkedDeque<>();
  private final ConcurrentLinkedDeque<ByteBuffer> directPool = new ConcurrentLinkedDeque<>();

  /** Bytes reserved in the pools (at least the bytes actually in them; reserved before a push). */
  private final AtomicLong pooledBytes = new AtomicLong();
  private final AtomicLong pooledChunks = new AtomicLong();
  private final LongAdder chunksCreated = new LongAdder();
  private final LongAdder jumboCreated = new LongAdder();
  private final LongAdder chunksInUse = new LongAdder();
  private final LongAdder bytesInUse = new LongAdder();
  private final LongAdder offHeapBytesInUse = new LongAdder();
  private final LongAdder jumboInUse = new LongAdder();

  /**
   * @param chunkSize bytes of a DATA or NODE chunk (a multiple of 8, so node alignment holds)
   * @param poolMaxBytes most bytes of free chunks kept for reuse (0: no pooling)
   * @param offHeap whether DATA and JUMBO chunks are direct buffers
   */
  public ChunkAllocator(int chunkSize, long poolMaxBytes, boolean offHeap) {
    this(chunkSize, poolMaxBytes, offHeap, false);
  }

  /**
   * @param pooledTails whether the last, partial chunk of a lab or index of known size is a pooled
   *     chunk when the pool holds one ({@link #allocateTail}), rather than always an exact JUMBO
   */
  public ChunkAllocator(int chunkSize, long poolMaxBytes, boolean offHeap, boolean pooledTails) {
    if (chunkSize < 64 || chunkSize % 8 != 0) {
      throw new IllegalArgumentException("chunk size must be a multiple of 8 and at least 64: " + chunkSize);
    }
    if (poolMaxBytes < 0) {
      throw new IllegalArgumentException("negative pool size " + poolMaxBytes);
    }
    this.chunkSize = chunkSize;
    this.poolMaxBytes = poolMaxBytes;
    this.offHeap = offHeap;
    this.pooledTails = pooledTails;
  }

  public int chunkSize() {
    return chunkSize;
  }

  public boolean offHeap() {
    return offHeap;
  }

  /** A chunk for cell data or flat-index entries: heap or direct per configuration. */
  public Chunk allocateData() {
    return allocate(Chunk.Kind.DATA, chunkSize, offHeap);
  }

  /** A chunk for skiplist nodes: always direct (see the class comment). */
  public Chunk allocateNode() {
    return allocate(Chunk.Kind.NODE, chunkSize, true);
  }

  /**
   * A one-off chunk of exactly {@code size} bytes, heap or direct like DATA chunks; not pooled. For
   * one cell larger than a chunk, or the exactly sized tail of a lab or index of known size.
   */
  public Chunk allocateJumbo(int size) {
    if (size <= 0) {
      throw new IllegalArgumentException("jumbo chunk of " + size + " bytes");
    }
    return allocate(Chunk.Kind.JUMBO, size, offHeap);
  }

  /**
   * The last, partial chunk of a lab or index that expects {@code size} more bytes: with pooled
   * tails, a free DATA chunk from the pool when it holds one (its unused end stays empty), else a
   * JUMBO chunk of exactly {@code size} bytes. The pooled chunk costs no allocation: on the heap, a
   * new chunk is a humongous object for G1, and each humongous allocation may start a concurrent
   * marking cycle (docs/bench/log/2026-11-28-gc-profile-mixed.md).
   */
  public Chunk allocateTail(int size) {
    if (pooledTails && size <= chunkSize) {
      ByteBuffer buf = (offHeap ? directPool : heapPool).pollFirst();
      if (buf != null) {
        pooledBytes.addAndGet(-chunkSize);
        pooledChunks.decrementAndGet();
        return register(Chunk.Kind.DATA, buf, offHeap);
      }
    }
    return allocateJumbo(size);
  }

  private Chunk allocate(Chunk.Kind kind, int size, boolean direct) {
    ByteBuffer buf = null;
    if (kind != Chunk.Kind.JUMBO) {
      buf = (direct ? directPool : heapPool).pollFirst();
      if (buf != null) {
        pooledBytes.addAndGet(-size);
        pooledChunks.decrementAndGet();
      }
    }
    if (buf == null) {
      buf = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
      chunksCreated.increment();
      if (kind == Chunk.Kind.JUMBO) {
        jumboCreated.increment();
      }
    }
    return register(kind, buf, direct);
  }

  /** Wraps {@code buf}, from the pool or just allocated, as a registered chunk in use. */
  private Chunk register(Chunk.Kind kind, ByteBuffer buf, boolean direct) {
    int size = buf.capacity();
    Chunk chunk = new Chunk(registry.reserveId(), buf, kind, this);
    registry.publish(chunk);
    chunksInUse.increment();
    bytesInUse.add(size);
    if (direct) {
      offHeapBytesInUse.add(size);
    }
    if (kind == Chunk.Kind.JUMBO) {
      jumboInUse.increment();
    }
    return chunk;
  }

  /** Called by {@link Chunk#deallocate()} once its last reference is gone. */
  void free(Chunk chunk) {
    registry.remove(chunk);
    int size = chunk.capacity();
    chunksInUse.decrement();
    bytesInUse.add(-size);
    if (chunk.isDirect()) {
      offHeapBytesInUse.add(-size);
    }
    if (chunk.kind() == Chunk.Kind.JUMBO) {
      jumboInUse.decrement();
      return;
    }
    if (reservePoolSpace(size)) {
      pooledChunks.incrementAndGet();
      (chunk.isDirect() ? directPool : heapPool).addFirst(chunk.buffer());
    }
    // Otherwise the buffer is dropped here: the GC (or, for direct memory, its cleaner) frees it.
  }

  private boolean reservePoolSpace(int size) {
    for (;;) {
      long cur = pooledBytes.get();
      if (cur + size > poolMaxBytes) {
        return false;
      }
      if (pooledBytes.compareAndSet(cur, cur + size)) {
        return true;
      }
    }
  }

  /**
   * The live chunk with this id. Throws {@link IllegalStateException} if there is none: a structure
   * holding the id of a freed chunk is a use-after-free bug.
   */
  public Chunk chunk(int id) {
    Chunk c = registry.lookup(id);
    if (c == null) {
      throw new IllegalStateException("no live chunk with id " + id);
    }
    return c;
  }

  /** The live chunk with this id, or null. */
  public Chunk findChunk(int id) {
    return registry.lookup(id);
  }

  /** Counters and gauges of this allocator. */
  public Stats stats() {
    return new Stats(chunksCreated.sum(), chunksInUse.sum(), pooledChunks.get(), bytesInUse.sum(),
        offHeapBytesInUse.sum(), pooledBytes.get(), jumboCreated.sum(), jumboInUse.sum());
  }

  /**
   * Throws {@link IllegalStateException} unless every chunk ever handed out has been released (the
   * allocator is back at its baseline: nothing in use, only pooled memory left). For tests and for
   * a debug check at engine close.
   */
  public void checkNoChunksInUse() {
    Stats s = stats();
    if (s.chunksInUse() != 0 || s.bytesInUse() != 0) {
      throw new IllegalStateException("chunks still in use: " + s + " " + registry.live(20));
    }
  }

  /**
   * A snapshot of the allocator's counters.
   *
   * @param chunksCreated buffers ever allocated from the JVM (pool misses, jumbo included)
   * @param chunksInUse chunks handed out and not yet released (jumbo included)
   * @param chunksPooled free buffers kept for reuse
   * @param bytesInUse capacity of the chunks in use
   * @param offHeapBytesInUse the direct part of {@code bytesInUse}
   * @param bytesPooled capacity of the pooled buffers
   * @param jumboCreated jumbo chunks ever allocated
   * @param jumboInUse jumbo chunks in use
   */
  public record Stats(long chunksCreated, long chunksInUse, long chunksPooled, long bytesInUse,
      long offHeapBytesInUse, long bytesPooled, long jumboCreated, long jumboInUse) {}
}
