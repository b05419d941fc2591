package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.memstore.chunk.ChunkEntryCursor;
import io.bellows.memstore.chunk.ChunkSkipList;
import io.bellows.memstore.chunk.MemStoreLab;
import java.util.Iterator;

/**
 * An {@link ActiveIndex} whose cells and index both live in chunk memory: each add copies the
 * caller's cell into the MSLAB and links a node in a {@link ChunkSkipList}, so the write path
 * creates no Java object per cell. Reads materialize cells ({@code Chunk.cell}: a view over a heap
 * chunk, a copy from a direct one). Thread-safe (lock-free).
 *
 * <p>Owns both structures: the skiplist refers into the lab's chunks, so {@link #free} closes the
 * skiplist and the lab together, after the segment's last reader.
 */
public final class ChunkSkipListActiveIndex implements ActiveIndex {
  private final MemStoreLab lab;
  private final ChunkSkipList list;

  public ChunkSkipListActiveIndex(MemStoreLab lab) {
    this.lab = lab;
    this.list = new ChunkSkipList(lab.allocator());
  }

  @Override
  public long add(Cell cell) {
    return list.insertCopyNode(lab, cell);
  }

  @Override
  public long cellObjectBytes(Cell cell) {
    return 0;
  }

  @Override
  public boolean dataOffHeap() {
    return lab.allocator().offHeap();
  }

  @Override
  public boolean indexOffHeap() {
    return true; // node chunks are always direct (CAS on next pointers)
  }

  @Override
  public Cell lastBefore(Cell key) {
    return list.lastBefore(key);
  }

  @Override
  public Iterator<Cell> tail(Cell key) {
    return list.iteratorFrom(key);
  }

  @Override
  public SegmentKind kind() {
    return SegmentKind.CHUNK_SKIPLIST;
  }

  @Override
  public MemStoreLab lab() {
    return lab;
  }

  @Override
  public ChunkEntryCursor entries() {
    return list.entries();
  }

  @Override
  public void free() {
    list.close();
    lab.close();
  }
}
