package io.bellows.cache;

import java.nio.ByteBuffer;

/**
 * One bucket of the off-heap cache: a fixed stretch of direct memory that, while it serves a size
 * class, is cut into equal slots of that class's item size. Its slot bookkeeping is guarded by the
 * owning {@link BucketAllocator}'s lock. Its memory takes no lock: a slot is written before its
 * block is published and again only after {@link BucketCache} marked the block freed, which its
 * readers check after reading.
 */
final class Bucket {
  final int index;
  final int capacity;
  /** Allocated when the bucket first serves a size class; kept until the cache closes. */
  private ByteBuffer memory;
  private int sizeClass = -1;
  private int itemSize;
  private int[] freeSlots = new int[0];
  private int freeCount;
  private int usedCount;

  Bucket(int index, int capacity) {
    this.index = index;
    this.capacity = capacity;
  }

  /** Gives the (completely free) bucket to a size class. */
  void assign(int sizeClass, int itemSize) {
    if (usedCount != 0) {
      throw new IllegalStateException("bucket " + index + " still holds " + usedCount + " blocks");
    }
    if (memory == null) {
      memory = ByteBuffer.allocateDirect(capacity);
    }
    this.sizeClass = sizeClass;
    this.itemSize = itemSize;
    int slots = capacity / itemSize;
    freeSlots = new int[slots];
    for (int i = 0; i < slots; i++) {
      freeSlots[i] = slots - 1 - i; // lowest slot handed out first
    }
    freeCount = slots;
  }

  void unassign() {
    sizeClass = -1;
    itemSize = 0;
    freeSlots = new int[0];
    freeCount = 0;
  }

  int sizeClass() {
    return sizeClass;
  }

  int itemSize() {
    return itemSize;
  }

  boolean hasFreeSlot() {
    return freeCount > 0;
  }

  int usedCount() {
    return usedCount;
  }

  int allocate() {
    usedCount++;
    return freeSlots[--freeCount];
  }

  void free(int slot) {
    freeSlots[freeCount++] = slot;
    usedCount--;
  }

  boolean isAllocated() {
    return memory != null;
  }

  /** Writes {@code data} into a slot that no published block holds. */
  void write(int slot, byte[] data) {
    memory.put(slot * itemSize, data, 0, data.length);
  }

  /**
   * The first {@code length} bytes of a slot, where they lie (a view, no copy); the caller checks
   * afterwards that the slot's block was not freed meanwhile.
   */
  ByteBuffer view(int slot, int slotItemSize, int length) {
    return memory.slice(slot * slotItemSize, length);
  }

  /** Copies {@code length} bytes of a slot; the caller checks afterwards that it was not freed meanwhile. */
  byte[] read(int slot, int slotItemSize, int length) {
    byte[] out = new byte[length];
    memory.get(slot * slotItemSize, out, 0, length);
    return out;
  }

  void release() {
    memory = null;
  }
}
