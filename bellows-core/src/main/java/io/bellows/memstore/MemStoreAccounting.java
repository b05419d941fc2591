package io.bellows.memstore;

import java.util.concurrent.atomic.LongAdder;

/**
 * The one source of truth for a memory store's totals. Every change is a delta: a write adds its
 * cell, flattening and merging change only overhead, a compaction subtracts what it eliminated, and
 * releasing a snapshot subtracts exactly the snapshot's size, so after every segment has been
 * flushed and released the totals are exactly zero. Thread-safe; sums are exact when no update is
 * in flight.
 */
public final class MemStoreAccounting {
  private final LongAdder data = new LongAdder();
  private final LongAdder overhead = new LongAdder();
  private final LongAdder offHeap = new LongAdder();
  private final LongAdder cells = new LongAdder();

  public void add(long dataBytes, long overheadBytes, long offHeapBytes, long cellCount) {
    data.add(dataBytes);
    overhead.add(overheadBytes);
    offHeap.add(offHeapBytes);
    cells.add(cellCount);
  }

  /** Applies the change from {@code before} to {@code after}. */
  public void change(SegmentStats before, SegmentStats after) {
    add(after.dataBytes() - before.dataBytes(), after.overheadBytes() - before.overheadBytes(),
        after.offHeapBytes() - before.offHeapBytes(), after.cellCount() - before.cellCount());
  }

  public void subtract(MemStoreSize s) {
    add(-s.dataBytes(), -s.overheadBytes(), -s.offHeapBytes(), -s.cellCount());
  }

  public MemStoreSize size() {
    return new MemStoreSize(data.sum(), overhead.sum(), offHeap.sum(), cells.sum());
  }
}
