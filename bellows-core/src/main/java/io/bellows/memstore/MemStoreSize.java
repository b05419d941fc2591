package io.bellows.memstore;

/**
 * Memory used by a memory store or segment: {@code dataBytes} of serialized cells, {@code
 * overheadBytes} of index structures and Java objects, and the part of both held off the heap.
 * {@link #footprint()} (data + overhead) is what flush decisions use, so a more compact index truly
 * delays disk flushes.
 */
public record MemStoreSize(long dataBytes, long overheadBytes, long offHeapBytes, long cellCount) {
  public static final MemStoreSize EMPTY = new MemStoreSize(0, 0, 0, 0);

  public long footprint() {
    return dataBytes + overheadBytes;
  }

  public MemStoreSize plus(MemStoreSize o) {
    return new MemStoreSize(dataBytes + o.dataBytes, overheadBytes + o.overheadBytes,
        offHeapBytes + o.offHeapBytes, cellCount + o.cellCount);
  }
}
