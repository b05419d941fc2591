package io.bellows.memstore.chunk;

import io.bellows.cell.Cell;
import io.bellows.util.RefCounted;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A concurrent, insert-only skiplist whose nodes live in chunk memory, the index of an active
 * memory segment that creates no Java object per cell on the write path. Cells themselves live in
 * chunks too (copied there by a {@link MemStoreLab}); a node only refers to them. Ordered by
 * {@link io.bellows.cell.CellComparator}: key, then sequence id descending.
 *
 * <p>Node layout (in NODE chunks, 8-byte aligned, size {@code 16 + 8 * level}):
 *
 * <pre>
 *   0  int64  cell reference: data chunk id (bits 63..32) | (level - 1) (bits 31..28)
 *             | offset of the cell in that chunk (bits 27..0)
 *   8  int64  sequence id
 *  16  int64  next[0] .. next[level-1]: {@link ChunkRef}s (chunk id &lt;&lt; 32 | offset), 0 = end
 * </pre>
 *
 * The cell's length is not stored: it is read from the cell's own header in the data chunk
 * ({@code 8 + keyLength + valueLength}). Offsets fit in 28 bits because a chunk is at most 64 MiB
 * ({@code bellows.mslab.chunk.size}) and a jumbo cell always starts at offset 0; the 4 spare bits
 * hold the level. The first two fields are big-endian (plain ByteBuffer access); next pointers are
 * in native byte order because they are read and written only through a {@code
 * byteBufferViewVarHandle}, which needs an aligned position in a direct buffer for compare-and-set
 * (JDK 22+ refuses atomic access to heap buffers), hence NODE chunks are always direct, whatever
 * {@code bellows.mslab.offheap} says. The head node has level 16 and no cell (reference to chunk 0).
 *
 * <p>Concurrency: inserts are lock-free. A node is written completely, then linked at level 0 by a
 * CAS on its predecessor's next pointer (the linearization point, and where duplicates are caught),
 * then at each higher level by further CASes, re-searching on failure. Nothing is ever unlinked,
 * so there is no ABA and readers need no locks: they follow next pointers with acquire reads, which
 * also makes the node's fields and the cell bytes (written before the publishing CAS) visible.
 * Iteration is weakly consistent: it sees every cell inserted before it started and may see later
 * ones.
 *
 * <p>Duplicates: a cell equal to one already present (same key and sequence id) is rejected:
 * {@link #insert} returns false and the list is unchanged (its node's bytes are left unused).
 *
 * <p>Lifetime: the list holds one reference on each of its node chunks, released when the last
 * reference to the list goes ({@link #close()} gives up the creator's). It does not hold the data
 * chunks: the owner keeps the lab that holds them alive at least as long as the list.
 */
public final class ChunkSkipList extends RefCounted implements AutoCloseable {
  static final int MAX_LEVEL = 16;
  static final int NEXT = 16;
  private static final int CELL_REF = 0;
  private static final int SEQ = 8;
  /** The level (minus one) lives in bits 31..28 of the cell reference, the offset below. */
  private static final int LEVEL_SHIFT = 28;
  static final int MAX_CELL_OFFSET = (1 << LEVEL_SHIFT) - 1;
  private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private final ChunkAllocator allocator;
  private final AtomicReference<Chunk> currentNodeChunk = new AtomicReference<>();
  private final ConcurrentLinkedQueue<Chunk> nodeChunks = new ConcurrentLinkedQueue<>();
  private final long head;
  private final LongAdder count = new LongAdder();
  private final LongAdder dataBytes = new LongAdder();
  private final LongAdder nodeBytes = new LongAdder();
  private final LongAdder allocatedNodeBytes = new LongAdder();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Per-thread search path (preds then succs): keeps the insert path free of allocation. */
  private final ThreadLocal<long[]> path = ThreadLocal.withInitial(() -> new long[2 * MAX_LEVEL]);

  public ChunkSkipList(ChunkAllocator allocator) {
    this.allocator = allocator;
    this.head = allocNode(MAX_LEVEL);
    ByteBuffer b = nodeBuffer(head);
    int h = ChunkRef.offset(head);
    b.putLong(h + CELL_REF, cellRef(0, 0, MAX_LEVEL));
    b.putLong(h + SEQ, 0);
    for (int i = 0; i < MAX_LEVEL; i++) {
      LONGS.setVolatile(b, h + NEXT + 8 * i, ChunkRef.NULL);
    }
    nodeBytes.add(nodeSize(MAX_LEVEL));
  }

  /** Copies the cell into {@code lab} and inserts it; false if an equal cell was already present. */
  public boolean insertCopy(MemStoreLab lab, Cell cell) {
    long ref = lab.copy(cell);
    return insert(ChunkRef.chunkId(ref), ChunkRef.offset(ref), cell.length(), cell.seqId());
  }

  /**
   * Inserts the cell of {@code length} bytes at (chunk id, offset), which must be completely
   * written and stay unchanged ({@code length} must be the length in the cell's header; it is only
   * used for accounting, the node does not store it). Returns false (and changes nothing) if a cell
   * with the same key and sequence id is present.
   */
  public boolean insert(int chunkId, int offset, int length, long seqId) {
    return insertNode(chunkId, offset, length, seqId) >= 0;
  }

  /**
   * Copies the cell into {@code lab} and inserts it; returns the bytes of the node linked for it
   * (the index overhead of this entry, for exact accounting), or -1 if an equal cell was present.
   */
  public int insertCopyNode(MemStoreLab lab, Cell cell) {
    long ref = lab.copy(cell);
    return insertNode(ChunkRef.chunkId(ref), ChunkRef.offset(ref), cell.length(), cell.seqId());
  }

  /** Like {@link #insert}, but returns the linked node's size in bytes, or -1 for a duplicate. */
  public int insertNode(int chunkId, int offset, int length, long seqId) {
    if (closed.get()) {
      throw new IllegalStateException("skiplist is closed");
    }
    if (offset < 0 || offset > MAX_CELL_OFFSET) {
      throw new IllegalArgumentException("cell offset " + offset + " does not fit in 28 bits");
    }
    ByteBuffer key = allocator.chunk(chunkId).buffer();
    long[] p = path.get();
    find(key, offset, seqId, p);
    if (p[MAX_LEVEL] != ChunkRef.NULL && compareNode(p[MAX_LEVEL], key, offset, seqId) == 0) {
      return -1;
    }
    int level = levelOf(chunkId, offset, seqId);
    long node = allocNode(level);
    ByteBuffer nb = nodeBuffer(node);
    int n = ChunkRef.offset(node);
    nb.putLong(n + CELL_REF, cellRef(chunkId, offset, level));
    nb.putLong(n + SEQ, seqId);
    for (;;) {
      for (int i = 0; i < level; i++) {
        LONGS.set(nb, n + NEXT + 8 * i, p[MAX_LEVEL + i]);
      }
      if (casNext(p[0], 0, p[MAX_LEVEL], node)) {
        break;
      }
      find(key, offset, seqId, p);
      if (p[MAX_LEVEL] != ChunkRef.NULL && compareNode(p[MAX_LEVEL], key, offset, seqId) == 0) {
        return -1;
      }
    }
    count.increment();
    dataBytes.add(length);
    nodeBytes.add(nodeSize(level));
    for (int i = 1; i < level; i++) {
      while (!casNext(p[i], i, p[MAX_LEVEL + i], node)) {
        // The neighbourhood changed at this level: search again. The node is not yet linked here,
        // so nothing else can have written its next[i]; point it at the new successor.
        find(key, offset, seqId, p);
        LONGS.setVolatile(nb, n + NEXT + 8 * i, p[MAX_LEVEL + i]);
      }
    }
    return nodeSize(level);
  }

  /** Fills p[0..16) with the last node &lt; key and p[16..32) with the first node &gt;= key per level. */
  private void find(ByteBuffer key, int keyOff, long keySeq, long[] p) {
    long pred = head;
    for (int lvl = MAX_LEVEL - 1; lvl >= 0; lvl--) {
      long cur = next(pred, lvl);
      while (cur != ChunkRef.NULL && compareNode(cur, key, keyOff, keySeq) < 0) {
        pred = cur;
        cur = next(cur, lvl);
      }
      p[lvl] = pred;
      p[MAX_LEVEL + lvl] = cur;
    }
  }

  /** The first node &gt;= key, or NULL. */
  private long seekNode(ByteBuffer key, int keyOff, long keySeq) {
    long pred = head;
    long cur = ChunkRef.NULL;
    for (int lvl = MAX_LEVEL - 1; lvl >= 0; lvl--) {
      cur = next(pred, lvl);
      while (cur != ChunkRef.NULL && compareNode(cur, key, keyOff, keySeq) < 0) {
        pred = cur;
        cur = next(cur, lvl);
      }
    }
    return cur;
  }

  /**
   * The last cell &lt; {@code key} by the full cell order, or the last cell when {@code key} is
   * null; null if there is none. Weakly consistent, like the iterators.
   */
  public Cell lastBefore(Cell key) {
    ByteBuffer k = key == null ? null : ByteBuffer.wrap(key.array());
    long pred = head;
    for (int lvl = MAX_LEVEL - 1; lvl >= 0; lvl--) {
      long cur = next(pred, lvl);
      while (cur != ChunkRef.NULL && (key == null || compareNode(cur, k, key.offset(), key.seqId()) < 0)) {
        pred = cur;
        cur = next(cur, lvl);
      }
    }
    return pred == head ? null : cellOf(pred);
  }

  /** Cells in order from the first. */
  public Iterator<Cell> iterator() {
    return new NodeIterator(next(head, 0));
  }

  /**
   * Cells in order from the first cell &gt;= {@code key} by the full cell order (use a search key
   * with sequence id {@code Long.MAX_VALUE} to land before every version of a key).
   */
  public Iterator<Cell> iteratorFrom(Cell key) {
    return new NodeIterator(seekNode(ByteBuffer.wrap(key.array()), key.offset(), key.seqId()));
  }

  /** Number of cells (O(1)). */
  public long size() {
    return count.sum();
  }

  /** Serialized bytes of the indexed cells (they live in the lab's chunks; O(1)). */
  public long dataBytes() {
    return dataBytes.sum();
  }

  /** Bytes of linked nodes, head included: the index overhead proper (O(1)). */
  public long nodeBytes() {
    return nodeBytes.sum();
  }

  /** Capacity of the node chunks (all direct), nodes plus unused tails (O(1)). */
  public long allocatedNodeBytes() {
    return allocatedNodeBytes.sum();
  }

  /** Gives up the creator's reference (once; later calls do nothing). */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      release();
    }
  }

  @Override
  protected void deallocate() {
    closed.set(true);
    currentNodeChunk.set(null);
    Chunk c;
    while ((c = nodeChunks.poll()) != null) {
      c.release();
    }
  }

  // ------------------------------------------------------------------ node access

  static int nodeSize(int level) {
    return NEXT + 8 * level;
  }

  /** Packs a node's cell reference: chunk id, level and offset in one long. */
  static long cellRef(int chunkId, int offset, int level) {
    return ((long) chunkId << 32) | ((long) (level - 1) << LEVEL_SHIFT) | offset;
  }

  static int refChunkId(long cellRef) {
    return (int) (cellRef >>> 32);
  }

  static int refOffset(long cellRef) {
    return (int) cellRef & MAX_CELL_OFFSET;
  }

  static int refLevel(long cellRef) {
    return ((int) cellRef >>> LEVEL_SHIFT) + 1;
  }

  /** The serialized length of the cell at {@code offset}, from its own header. */
  private static int cellLength(ByteBuffer data, int offset) {
    return Cell.PREFIX + data.getInt(offset) + data.getInt(offset + 4);
  }

  /** The level of a node (1..16), from the spare bits of its cell reference. */
  int level(long node) {
    return refLevel(nodeBuffer(node).getLong(ChunkRef.offset(node) + CELL_REF));
  }

  /**
   * A node's level, 1 + one more with probability 1/4 each (up to {@link #MAX_LEVEL}), drawn from a
   * hash of where its cell is and its sequence id rather than from a thread's random generator: the
   * same inserts give the same skiplist, and so the same footprint, in every run (LevelDB seeds its
   * skiplist's generator for the same reason). The splitmix64 finalizer spreads the bits.
   */
  static int levelOf(int chunkId, int offset, long seqId) {
    long z = (seqId * 0x9E3779B97F4A7C15L) ^ (((long) chunkId << 32) | offset) ^ LEVEL_SEED;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    int level = 1 + Long.numberOfTrailingZeros(z) / 2; // pairs of trailing zero bits
    return Math.min(level, MAX_LEVEL);
  }

  private static final long LEVEL_SEED = 0xDEADBEEFL;

  private long allocNode(int level) {
    int size = nodeSize(level);
    for (;;) {
      Chunk c = currentNodeChunk.get();
      if (c != null) {
        int at = c.alloc(size);
        if (at >= 0) {
          return ChunkRef.of(c.id(), at);
        }
      }
      Chunk fresh = allocator.allocateNode();
      int misalignment = fresh.buffer().alignmentOffset(0, 8);
      if (misalignment != 0) {
        fresh.alloc(8 - misalignment); // skip to an 8-byte aligned address; nodes keep it
      }
      if (currentNodeChunk.compareAndSet(c, fresh)) {
        nodeChunks.add(fresh);
        allocatedNodeBytes.add(fresh.capacity());
      } else {
        fresh.release();
      }
    }
  }

  private ByteBuffer nodeBuffer(long node) {
    return allocator.chunk(ChunkRef.chunkId(node)).buffer();
  }

  private long next(long node, int level) {
    return (long) LONGS.getAcquire(nodeBuffer(node), ChunkRef.offset(node) + NEXT + 8 * level);
  }

  private boolean casNext(long node, int level, long expect, long update) {
    return LONGS.compareAndSet(nodeBuffer(node), ChunkRef.offset(node) + NEXT + 8 * level, expect, update);
  }

  private int compareNode(long node, ByteBuffer key, int keyOff, long keySeq) {
    ByteBuffer nb = nodeBuffer(node);
    int n = ChunkRef.offset(node);
    long ref = nb.getLong(n + CELL_REF);
    ByteBuffer data = allocator.chunk(refChunkId(ref)).buffer();
    return ChunkCellComparator.compare(data, refOffset(ref), nb.getLong(n + SEQ), key, keyOff, keySeq);
  }

  private Cell cellOf(long node) {
    ByteBuffer nb = nodeBuffer(node);
    int n = ChunkRef.offset(node);
    long ref = nb.getLong(n + CELL_REF);
    Chunk data = allocator.chunk(refChunkId(ref));
    int offset = refOffset(ref);
    return data.cell(offset, cellLength(data.buffer(), offset), nb.getLong(n + SEQ));
  }

  /**
   * A cursor over the entries (chunk id, offset, length, sequence id) from the first, in order,
   * without materializing cells. Weakly consistent like {@link #iterator()}; meant for a sealed list.
   */
  public ChunkEntryCursor entries() {
    return new NodeCursor(next(head, 0));
  }

  /** Level-0 walk exposing node fields. Not thread-safe (one reader). */
  private final class NodeCursor implements ChunkEntryCursor {
    private long node;
    private int chunkId;
    private int offset;
    private int length;
    private long seqId;
    private ByteBuffer data;

    NodeCursor(long first) {
      load(first);
    }

    private void load(long n) {
      node = n;
      if (n == ChunkRef.NULL) {
        data = null;
        return;
      }
      ByteBuffer nb = nodeBuffer(n);
      int at = ChunkRef.offset(n);
      long ref = nb.getLong(at + CELL_REF);
      chunkId = refChunkId(ref);
      offset = refOffset(ref);
      seqId = nb.getLong(at + SEQ);
      data = allocator.chunk(chunkId).buffer();
      length = cellLength(data, offset);
    }

    @Override
    public boolean valid() {
      return node != ChunkRef.NULL;
    }

    @Override
    public void advance() {
      if (node == ChunkRef.NULL) {
        throw new NoSuchElementException();
      }
      load(ChunkSkipList.this.next(node, 0));
    }

    @Override
    public int chunkId() {
      return chunkId;
    }

    @Override
    public int offset() {
      return offset;
    }

    @Override
    public int length() {
      return length;
    }

    @Override
    public long seqId() {
      return seqId;
    }

    @Override
    public ByteBuffer buffer() {
      return data;
    }
  }

  /** Weakly consistent forward iterator over level 0. Not thread-safe (one reader). */
  private final class NodeIterator implements Iterator<Cell> {
    private long node;

    NodeIterator(long first) {
      this.node = first;
    }

    @Override
    public boolean hasNext() {
      return node != ChunkRef.NULL;
    }

    @Override
    public Cell next() {
      if (node == ChunkRef.NULL) {
        throw new NoSuchElementException();
      }
      Cell c = cellOf(node);
      node = ChunkSkipList.this.next(node, 0);
      return c;
    }
  }

  @Override
  public String toString() {
    return "ChunkSkipList(size=" + size() + ", nodeChunks=" + nodeChunks.size() + ")";
  }
}
