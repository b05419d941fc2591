package io.bellows.memstore.chunk;

import io.bellows.cell.Cell;
import io.bellows.util.InvariantDivisor;
import io.bellows.util.RefCounted;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A flat, serialized, immutable index of cells that live in chunks (Accordion's CellChunkMap): a
 * sorted array of fixed-size entries stored in index chunks from the same allocator, with no Java
 * object per cell. Built once from cells in {@link io.bellows.cell.CellComparator} order; looked up
 * by binary search comparing keys in place in chunk memory.
 *
 * <p>Entry layout (20 bytes, big-endian), entry {@code i} at offset {@code (i % perChunk) * 20} of
 * index chunk {@code i / perChunk} where {@code perChunk = chunkSize / 20}:
 *
 * <pre>
 *   0  int32  data chunk: its position in this index's own list of data chunks
 *   4  int32  offset of the cell in that chunk
 *   8  int32  serialized cell length
 *  12  int64  sequence id
 * </pre>
 *
 * <p>Lifetime: the index holds one reference on each of its index chunks and on each distinct data
 * chunk its entries point to, so it stays readable even after the lab that filled the data chunks
 * is closed. The creator's reference is given up with {@link #close()}; readers may {@link
 * #tryRetain()}/{@link #release()} around a scan.
 *
 * <p>Thread-safety: immutable after {@link Builder#build()}; any number of threads may read. The
 * builder is single-threaded.
 */
public final class ChunkCellIndex extends RefCounted implements AutoCloseable {
  public static final int ENTRY_SIZE = 20;

  private final Chunk[] indexChunks;
  /** Entries per index chunk, as a divisor: entry numbers are divided by it on every read. */
  private final InvariantDivisor perChunk;
  private final int size;
  /** Distinct data chunks, in the order the builder first met them: an entry holds its position here. */
  private final Chunk[] dataChunks;
  private final long dataBytes;
  private final long allocatedIndexBytes;
  private final long offHeapBytes;
  private volatile boolean closed;

  private ChunkCellIndex(Chunk[] indexChunks, int perChunk, int size, Chunk[] dataChunks, long dataBytes) {
    this.indexChunks = indexChunks;
    this.perChunk = new InvariantDivisor(perChunk);
    this.size = size;
    this.dataChunks = dataChunks;
    this.dataBytes = dataBytes;
    long alloc = 0;
    long off = 0;
    for (Chunk c : indexChunks) {
      alloc += c.capacity();
      off += c.isDirect() ? c.capacity() : 0;
    }
    this.allocatedIndexBytes = alloc;
    this.offHeapBytes = off;
  }

  public static Builder builder(ChunkAllocator allocator) {
    return new Builder(allocator, 0);
  }

  /**
   * A builder for at most about {@code expectedEntries} entries: the last index chunk is sized to
   * the entries left rather than a whole chunk (a flat segment of a few thousand cells would
   * otherwise hold a 2 MiB chunk for a few dozen KiB of entries).
   */
  public static Builder builder(ChunkAllocator allocator, long expectedEntries) {
    return new Builder(allocator, expectedEntries);
  }

  public int size() {
    return size;
  }

  /** The allocator's id of the data chunk holding entry {@code i}'s cell. */
  public int chunkId(int i) {
    return dataChunks[indexBuffer(i).getInt(entryOffset(i))].id();
  }

  public int offset(int i) {
    return indexBuffer(i).getInt(entryOffset(i) + 4);
  }

  public int length(int i) {
    return indexBuffer(i).getInt(entryOffset(i) + 8);
  }

  public long seqId(int i) {
    return indexBuffer(i).getLong(entryOffset(i) + 12);
  }

  /** The buffer of the data chunk holding entry {@code i}'s cell (absolute access only). */
  public ByteBuffer dataBuffer(int i) {
    return dataChunks[indexBuffer(i).getInt(entryOffset(i))].buffer();
  }

  /** The cell of entry {@code i} (a view for heap chunks, a copy for direct ones). */
  public Cell cell(int i) {
    ByteBuffer ix = indexBuffer(i);
    int e = entryOffset(i);
    return dataChunks[ix.getInt(e)].cell(ix.getInt(e + 4), ix.getInt(e + 8), ix.getLong(e + 12));
  }

  /**
   * The position of the first cell &gt;= {@code key} by the full cell order (key, then sequence id
   * descending; use a key with sequence id {@code Long.MAX_VALUE} to land before every version), or
   * {@link #size()} if every cell is smaller.
   */
  public int seek(Cell key) {
    ByteBuffer kb = ByteBuffer.wrap(key.array());
    int ko = key.offset();
    long ks = key.seqId();
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      ByteBuffer ix = indexBuffer(mid);
      int e = entryOffset(mid);
      Chunk data = dataChunks[ix.getInt(e)];
      int c = ChunkCellComparator.compare(data.buffer(), ix.getInt(e + 4), ix.getLong(e + 12), kb, ko, ks);
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Cells from position {@code from} to the end. */
  public Iterator<Cell> iterator(int from) {
    if (from < 0 || from > size) {
      throw new IndexOutOfBoundsException(from);
    }
    return new Iterator<>() {
      private int pos = from;

      @Override
      public boolean hasNext() {
        return pos < size;
      }

      @Override
      public Cell next() {
        if (pos >= size) {
          throw new NoSuchElementException();
        }
        return cell(pos++);
      }
    };
  }

  /** Serialized bytes of the indexed cells (O(1)). */
  public long dataBytes() {
    return dataBytes;
  }

  /** Bytes of index entries: {@code size() * 20} (O(1)). */
  public long indexBytes() {
    return (long) size * ENTRY_SIZE;
  }

  /** Capacity of the index chunks, entries plus unused tail (O(1)). */
  public long allocatedIndexBytes() {
    return allocatedIndexBytes;
  }

  /** The direct part of {@link #allocatedIndexBytes()}. */
  public long offHeapIndexBytes() {
    return offHeapBytes;
  }

  /** Gives up the creator's reference (once; later calls do nothing). */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      release();
    }
  }

  @Override
  protected void deallocate() {
    for (Chunk c : indexChunks) {
      c.release();
    }
    for (Chunk c : dataChunks) {
      c.release();
    }
  }

  private ByteBuffer indexBuffer(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    return indexChunks[perChunk.divide(i)].buffer();
  }

  private int entryOffset(int i) {
    return perChunk.remainder(i) * ENTRY_SIZE;
  }

  @Override
  public String toString() {
    return "ChunkCellIndex(size=" + size + ", indexChunks=" + indexChunks.length + ", dataChunks="
        + dataChunks.length + ")";
  }

  /**
   * Collects entries in order into index chunks. Single-threaded. Every entry must be strictly
   * greater than the previous one by the full cell order: the callers add the output of a merge,
   * which is, so the order is checked only with assertions on (as the tests run), not paid for per
   * cell in production. Either {@link #build()} (ownership of the chunks passes to the index) or
   * {@link #abort()} (they are released).
   */
  public static final class Builder {
    /**
     * Slots of the cache of recently used data chunks (a power of two). A chunk id's low bits are its
     * allocator slot, dense and reused (ChunkRegistry), so the cache holds up to 1024 live chunks
     * without a collision. A merge of a pipeline's segments reads cells of a hundred chunks and more
     * in key order: with 64 slots the map lookups behind them took 8.6% of the in-memory compaction
     * thread's samples in a mixed Zipf run.
     */
    private static final int RECENT = 1024;

    private final ChunkAllocator allocator;
    private final int perChunk;
    private final InvariantDivisor perChunkDivisor;
    private final long expectedEntries;
    private final List<Chunk> indexChunks = new ArrayList<>();
    /** Data chunks held, in the order first met: an entry stores its chunk's position here. */
    private final List<Chunk> dataChunks = new ArrayList<>();
    private final Map<Integer, Integer> positionOfId = new HashMap<>();
    /**
     * A direct-mapped cache of chunk id → position in {@link #dataChunks}, in front of the map: a
     * merge alternates between its inputs' chunks, and a map lookup boxes the id.
     */
    private final int[] recentIds = new int[RECENT];
    private final int[] recentPositions = new int[RECENT];
    /** Entries the last index chunk holds: {@code perChunk}, or fewer for a tail sized to what was expected. */
    private int lastChunkEntries;
    private int size;
    private long dataBytes;
    private Chunk prevChunk;
    private int prevOffset;
    private int prevLength;
    private long prevSeq;
    private boolean done;

    private Builder(ChunkAllocator allocator, long expectedEntries) {
      this.allocator = allocator;
      this.perChunk = allocator.chunkSize() / ENTRY_SIZE;
      this.perChunkDivisor = new InvariantDivisor(perChunk);
      this.expectedEntries = Math.max(0, expectedEntries);
      Arrays.fill(recentIds, -1);
    }

    /** Copies the cell into {@code lab} and adds it. */
    public Builder addCopy(MemStoreLab lab, Cell cell) {
      long ref = lab.copy(cell);
      return add(ChunkRef.chunkId(ref), ChunkRef.offset(ref), cell.length(), cell.seqId());
    }

    /** Adds a cell that lives in a live chunk of the allocator. */
    public Builder add(int chunkId, int offset, int length, long seqId) {
      if (done) {
        throw new IllegalStateException("builder already finished");
      }
      int position = holdData(chunkId);
      Chunk data = dataChunks.get(position);
      if (offset < 0 || length < Cell.PREFIX || (long) offset + length > data.capacity()) {
        throw new IllegalArgumentException("cell [" + offset + ", +" + length + ") outside " + data);
      }
      assert inOrder(data, offset, length, seqId);
      int slot = perChunkDivisor.remainder(size);
      if (slot == 0) {
        indexChunks.add(newIndexChunk());
      } else if (slot == lastChunkEntries) {
        growLastChunk(); // more entries than expected: the short last chunk becomes a whole one
      }
      ByteBuffer ix = indexChunks.get(indexChunks.size() - 1).buffer();
      int e = slot * ENTRY_SIZE;
      ix.putInt(e, position);
      ix.putInt(e + 4, offset);
      ix.putInt(e + 8, length);
      ix.putLong(e + 12, seqId);
      size++;
      dataBytes += length;
      prevChunk = data;
      prevOffset = offset;
      prevLength = length;
      prevSeq = seqId;
      return this;
    }

    /**
     * A pooled chunk, or a tail for the entries still expected (at least one): a chunk of just that
     * size, or a whole pooled one ({@link ChunkAllocator#allocateTail}).
     */
    private Chunk newIndexChunk() {
      long left = expectedEntries - size;
      if (expectedEntries > 0 && left < perChunk) {
        int entries = (int) Math.max(1, left);
        Chunk tail = allocator.allocateTail(entries * ENTRY_SIZE);
        lastChunkEntries = Math.min(perChunk, Math.max(entries, tail.capacity() / ENTRY_SIZE));
        return tail;
      }
      lastChunkEntries = perChunk;
      return allocator.allocateData();
    }

    /** Moves the entries of a short last chunk into a whole one, so that entry i stays at i / perChunk. */
    private void growLastChunk() {
      int last = indexChunks.size() - 1;
      Chunk shortChunk = indexChunks.get(last);
      Chunk whole = allocator.allocateData();
      whole.buffer().put(0, shortChunk.buffer(), 0, shortChunk.capacity());
      indexChunks.set(last, whole);
      lastChunkEntries = perChunk;
      shortChunk.release();
    }

    private boolean inOrder(Chunk data, int offset, int length, long seqId) {
      if (prevChunk != null
          && ChunkCellComparator.compare(prevChunk.buffer(), prevOffset, prevSeq, data.buffer(), offset, seqId) >= 0) {
        throw new IllegalArgumentException("cells out of order at entry " + size + ": "
            + prevChunk.cell(prevOffset, prevLength, prevSeq) + " then " + data.cell(offset, length, seqId));
      }
      return true;
    }

    /** The position of the data chunk {@code chunkId} in {@link #dataChunks}, retaining it when first met. */
    private int holdData(int chunkId) {
      int slot = chunkId & (RECENT - 1);
      if (recentIds[slot] == chunkId) {
        return recentPositions[slot];
      }
      Integer known = positionOfId.get(chunkId);
      int position;
      if (known != null) {
        position = known;
      } else {
        Chunk c = allocator.chunk(chunkId);
        c.retain();
        position = dataChunks.size();
        dataChunks.add(c);
        positionOfId.put(chunkId, position);
      }
      recentIds[slot] = chunkId;
      recentPositions[slot] = position;
      return position;
    }

    public int size() {
      return size;
    }

    /**
     * The finished index. Hand it to other threads through a safe publication (a volatile field,
     * an atomic swap or a lock), as the memory store does when it installs a segment.
     */
    public ChunkCellIndex build() {
      if (done) {
        throw new IllegalStateException("builder already finished");
      }
      done = true;
      return new ChunkCellIndex(indexChunks.toArray(new Chunk[0]), perChunk, size, dataChunks.toArray(new Chunk[0]),
          dataBytes);
    }

    /** Releases everything the builder holds; the builder is unusable afterwards. */
    public void abort() {
      if (done) {
        return;
      }
      done = true;
      indexChunks.forEach(Chunk::release);
      dataChunks.forEach(Chunk::release);
    }
  }
}
