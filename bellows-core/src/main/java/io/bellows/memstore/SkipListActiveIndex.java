package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.memstore.chunk.Chunk;
import io.bellows.memstore.chunk.ChunkEntryCursor;
import io.bellows.memstore.chunk.MemStoreLab;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * An {@link ActiveIndex} over a {@link ConcurrentSkipListSet} of cell objects ordered by {@link
 * CellComparator}. Without a lab the set keeps the caller's cells; with a lab (MSLAB, heap chunks
 * only) it keeps cell views over copies in the lab's chunks, so the writers' arrays can be
 * collected. Thread-safe (lock-free).
 */
public final class SkipListActiveIndex implements ActiveIndex {
  private final ConcurrentSkipListSet<Cell> cells = new ConcurrentSkipListSet<>(CellComparator.INSTANCE);
  private final MemStoreLab lab;

  /** Keeps the caller's cells. */
  public SkipListActiveIndex() {
    this(null);
  }

  /** Copies cells into {@code lab} (heap chunks; null for none); the index owns the lab. */
  public SkipListActiveIndex(MemStoreLab lab) {
    if (lab != null && lab.allocator().offHeap()) {
      throw new IllegalArgumentException("an object skiplist cannot keep cells in direct chunks");
    }
    this.lab = lab;
  }

  @Override
  public long add(Cell cell) {
    // A rejected duplicate leaves its copy unused in the lab; duplicates are rare (replays).
    Cell stored = lab == null ? cell : lab.copyCell(cell);
    return cells.add(stored) ? MemoryLayout.SKIPLIST_ENTRY : -1;
  }

  @Override
  public long cellObjectBytes(Cell cell) {
    return lab == null ? MemoryLayout.cellObjectBytes(cell) : MemoryLayout.CELL_OBJECT;
  }

  @Override
  public boolean dataOffHeap() {
    return false;
  }

  @Override
  public boolean indexOffHeap() {
    return false;
  }

  @Override
  public Cell lastBefore(Cell key) {
    if (key != null) {
      return cells.lower(key);
    }
    Iterator<Cell> down = cells.descendingIterator();
    return down.hasNext() ? down.next() : null;
  }

  @Override
  public Iterator<Cell> tail(Cell key) {
    return cells.tailSet(key, true).iterator();
  }

  @Override
  public SegmentKind kind() {
    return SegmentKind.SKIPLIST;
  }

  @Override
  public MemStoreLab lab() {
    return lab;
  }

  @Override
  public ChunkEntryCursor entries() {
    return lab == null ? null : new ViewCursor(cells.iterator(), lab);
  }

  @Override
  public void free() {
    if (lab != null) {
      lab.close();
    }
  }

  /**
   * Locates each cell view in its lab chunk by array identity (cells come in key order, not chunk
   * order, so chunks found are remembered in an identity map: O(1) per cell after the first).
   */
  private static final class ViewCursor implements ChunkEntryCursor {
    private final Iterator<Cell> it;
    private final MemStoreLab lab;
    private final Map<byte[], Chunk> found = new IdentityHashMap<>();
    private Cell current;
    private Chunk chunk;

    ViewCursor(Iterator<Cell> it, MemStoreLab lab) {
      this.it = it;
      this.lab = lab;
      advance();
    }

    @Override
    public boolean valid() {
      return current != null;
    }

    @Override
    public void advance() {
      current = it.hasNext() ? it.next() : null;
      if (current != null && (chunk == null || chunk.buffer().array() != current.array())) {
        chunk = found.computeIfAbsent(current.array(), lab::chunkOf);
        if (chunk == null) {
          throw new IllegalStateException(current + " is not in its segment's lab");
        }
      }
    }

    @Override
    public int chunkId() {
      return chunk.id();
    }

    @Override
    public int offset() {
      return current.offset() - chunk.buffer().arrayOffset();
    }

    @Override
    public int length() {
      return current.length();
    }

    @Override
    public long seqId() {
      return current.seqId();
    }

    @Override
    public ByteBuffer buffer() {
      return chunk.buffer();
    }
  }
}
