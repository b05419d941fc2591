package io.bellows.memstore;

import io.bellows.cell.Cell;

/**
 * Per-entry memory estimates of the on-heap indexes, computed once from the object layout of a
 * 64-bit HotSpot JVM with compressed oops and compressed class pointers (the default below 32 GiB of
 * heap): a 12-byte object header, 4-byte references, 16-byte array header (12 + 4-byte length) and
 * 8-byte object alignment. The numbers are estimates, not measurements, but they are honest about
 * what each index costs per cell, so that a flatter index truly shows up as a smaller footprint.
 *
 * <p>Stateless; thread-safe.
 */
public final class MemoryLayout {
  private MemoryLayout() {}

  public static final int OBJECT_HEADER = 12;
  public static final int REFERENCE = 4;
  public static final int ARRAY_HEADER = 16;
  public static final int ALIGNMENT = 8;

  /** {@link Cell}: header + byte[] ref + int offset + int length + long row prefix + long seqId = 40. */
  public static final int CELL_OBJECT = align(OBJECT_HEADER + REFERENCE + 4 + 4 + 8 + 8);

  /** A skiplist data node: header + key, value and next references = 24. */
  public static final int SKIPLIST_NODE = align(OBJECT_HEADER + 3 * REFERENCE);

  /** A skiplist index node: header + node, down and right references = 24. */
  public static final int SKIPLIST_INDEX_NODE = align(OBJECT_HEADER + 3 * REFERENCE);

  /**
   * One entry of {@code ConcurrentSkipListMap}: its data node plus the expected index nodes. The JDK
   * gives a new node index levels with probability 1/4 and then adds each further level with
   * probability 1/2, so a node owns 1/4 * 2 = 0.5 index nodes on average: 24 + 12 = 36.
   */
  public static final int SKIPLIST_ENTRY = SKIPLIST_NODE + SKIPLIST_INDEX_NODE / 2;

  /** One slot of a {@code Cell[]}: a compressed reference. */
  public static final int ARRAY_SLOT = REFERENCE;

  /** Rounds up to the object alignment. */
  public static int align(int bytes) {
    return (bytes + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Rounds up to the object alignment. */
  public static long align(long bytes) {
    return (bytes + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Bytes of a {@code Cell[]} of {@code n} slots: the array object itself, aligned. */
  public static long arrayIndexBytes(long n) {
    return n == 0 ? 0 : align(ARRAY_HEADER + ARRAY_SLOT * n);
  }

  /**
   * Heap bytes a cell costs beyond its serialized bytes: the {@link Cell} object, and, when the cell
   * is the sole user of its backing array (as cells built by {@code Cells.create} are), that array's
   * header and alignment padding. A cell that views part of a shared buffer (a WAL batch, a chunk)
   * is charged only its object, since the buffer's header is shared.
   */
  public static long cellObjectBytes(Cell c) {
    byte[] a = c.array();
    if (c.offset() == 0 && c.length() == a.length) {
      return CELL_OBJECT + align((long) ARRAY_HEADER + a.length) - a.length;
    }
    return CELL_OBJECT;
  }
}
