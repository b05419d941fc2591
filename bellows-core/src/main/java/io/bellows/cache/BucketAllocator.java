package io.bellows.cache;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Carves the off-heap cache's memory into buckets and buckets into slots of a size class, as
 * HBase's BucketCache does: a block takes a slot of the smallest class that holds it; a bucket
 * serves one class at a time and returns to the free pool when its last slot is freed, so memory
 * moves between classes as the block sizes change. Not thread-safe: {@link BucketCache} calls it
 * under its lock.
 */
final class BucketAllocator {
  /**
   * Item sizes of the classes: a little over the usual block sizes (4 KiB ... 256 KiB), since a
   * block's payload is its target size plus the cell that crossed it, and steps of 8 KiB above
   * 64 KiB: with values up to 64 KiB a 64 KiB block is anything from 64 to 128 KiB, and with steps
   * of 32 KiB there its slots wasted a sixth of L2.
   */
  static final int[] CLASS_SIZES = {5 << 10, 9 << 10, 17 << 10, 33 << 10, 41 << 10, 49 << 10, 57 << 10,
      65 << 10, 73 << 10, 81 << 10, 89 << 10, 97 << 10, 113 << 10, 129 << 10, 161 << 10, 193 << 10, 225 << 10,
      257 << 10};
  /** A bucket holds four items of the largest class. */
  static final int BUCKET_SIZE = 4 * CLASS_SIZES[CLASS_SIZES.length - 1];
  /** The most slots a bucket has (of the smallest class): a slot's id is bucket × this + slot. */
  static final int SLOTS_PER_BUCKET = BUCKET_SIZE / CLASS_SIZES[0];

  private final Bucket[] buckets;
  private final ArrayDeque<Bucket> completelyFree = new ArrayDeque<>();
  private final List<List<Bucket>> byClass = new ArrayList<>();
  private long usedSlotBytes;

  BucketAllocator(long capacity) {
    int n = (int) Math.min(Integer.MAX_VALUE / SLOTS_PER_BUCKET, capacity / BUCKET_SIZE); // ids are ints
    if (n < 1) {
      throw new IllegalArgumentException("an off-heap cache needs at least one bucket of " + BUCKET_SIZE
          + " bytes, not " + capacity);
    }
    buckets = new Bucket[n];
    for (int i = 0; i < n; i++) {
      buckets[i] = new Bucket(i, BUCKET_SIZE);
      completelyFree.add(buckets[i]);
    }
    for (int i = 0; i < CLASS_SIZES.length; i++) {
      byClass.add(new ArrayList<>());
    }
  }

  /** The class of the smallest slot that holds {@code length} bytes, or -1 if none does. */
  static int classFor(int length) {
    for (int i = 0; i < CLASS_SIZES.length; i++) {
      if (length <= CLASS_SIZES[i]) {
        return i;
      }
    }
    return -1;
  }

  /** The id of a free slot of the class, or -1 if no bucket of the class has one and no bucket is free. */
  int allocate(int sizeClass) {
    for (Bucket b : byClass.get(sizeClass)) {
      if (b.hasFreeSlot()) {
        return take(b);
      }
    }
    Bucket b = completelyFree.poll();
    if (b == null) {
      return -1;
    }
    b.assign(sizeClass, CLASS_SIZES[sizeClass]);
    byClass.get(sizeClass).add(b);
    return take(b);
  }

  private int take(Bucket b) {
    usedSlotBytes += b.itemSize();
    return id(b.index, b.allocate());
  }

  static int id(int bucket, int slot) {
    return bucket * SLOTS_PER_BUCKET + slot;
  }

  /** The bucket of a slot id. */
  Bucket bucket(int id) {
    return buckets[id / SLOTS_PER_BUCKET];
  }

  static int slot(int id) {
    return id % SLOTS_PER_BUCKET;
  }

  /** Frees a slot; a bucket left empty returns to the free pool. */
  void free(int id) {
    Bucket b = bucket(id);
    usedSlotBytes -= b.itemSize();
    b.free(slot(id));
    if (b.usedCount() == 0) {
      byClass.get(b.sizeClass()).remove(b);
      b.unassign();
      completelyFree.add(b);
    }
  }

  /** Bytes of the slots in use (item sizes, so a little more than the blocks they hold). */
  long usedSlotBytes() {
    return usedSlotBytes;
  }

  int bucketCount() {
    return buckets.length;
  }

  int freeBucketCount() {
    return completelyFree.size();
  }

  /** Direct memory allocated so far (buckets that have served a class). */
  long allocatedBytes() {
    long n = 0;
    for (Bucket b : buckets) {
      n += b.isAllocated() ? b.capacity : 0;
    }
    return n;
  }

  void releaseMemory() {
    for (Bucket b : buckets) {
      b.release();
    }
  }
}
