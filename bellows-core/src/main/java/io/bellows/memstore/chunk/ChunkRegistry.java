package io.bellows.memstore.chunk;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The id → chunk table of one allocator: assigns ids to new chunks and turns an id back into its
 * live chunk in O(1) without boxing (the serialized index and the skiplist resolve an id on every
 * comparison).
 *
 * <p>An id is {@code generation << 24 | slot}. Slots are dense (freed slots are reused) so the table
 * is a paged array; the 7-bit generation changes every time a slot is reused, so looking up the id
 * of a freed chunk fails loudly instead of returning the chunk that took its slot (unless the slot
 * was reused 127 times since, which only a use-after-free bug could observe). Slot 0 is never used,
 * so no id is 0 and every id is positive.
 *
 * <p>Thread-safety: all methods are lock-free and may be called concurrently.
 */
final class ChunkRegistry {
  static final int SLOT_BITS = 24;
  private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
  private static final int PAGE_BITS = 12;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;
  private static final int MAX_GENERATION = 127;

  private final AtomicReferenceArray<AtomicReferenceArray<Chunk>> pages =
      new AtomicReferenceArray<>(1 << (SLOT_BITS - PAGE_BITS));
  /** Ids of freed chunks; their slots are reused with the next generation. */
  private final ConcurrentLinkedDeque<Integer> freedIds = new ConcurrentLinkedDeque<>();
  private final AtomicInteger nextFreshSlot = new AtomicInteger(1);

  /** A new id whose slot is empty; the caller must {@link #publish} a chunk with it. */
  int reserveId() {
    Integer old = freedIds.pollFirst();
    if (old != null) {
      int gen = old >>> SLOT_BITS;
      int nextGen = gen == MAX_GENERATION ? 1 : gen + 1;
      return (nextGen << SLOT_BITS) | (old & SLOT_MASK);
    }
    int slot = nextFreshSlot.getAndIncrement();
    if (slot > SLOT_MASK) {
      throw new IllegalStateException("more than " + SLOT_MASK + " live memory chunks");
    }
    return (1 << SLOT_BITS) | slot;
  }

  void publish(Chunk chunk) {
    int slot = chunk.id() & SLOT_MASK;
    AtomicReferenceArray<Chunk> page = page(slot >>> PAGE_BITS);
    if (!page.compareAndSet(slot & (PAGE_SIZE - 1), null, chunk)) {
      throw new IllegalStateException("slot of " + chunk + " is taken");
    }
  }

  /** Empties the chunk's slot and makes it reusable. */
  void remove(Chunk chunk) {
    int slot = chunk.id() & SLOT_MASK;
    AtomicReferenceArray<Chunk> page = pages.get(slot >>> PAGE_BITS);
    if (page == null || !page.compareAndSet(slot & (PAGE_SIZE - 1), chunk, null)) {
      throw new IllegalStateException(chunk + " is not registered");
    }
    freedIds.addLast(chunk.id());
  }

  /** The live chunk with this id, or null if there is none. */
  Chunk lookup(int id) {
    int slot = id & SLOT_MASK;
    AtomicReferenceArray<Chunk> page = pages.get(slot >>> PAGE_BITS);
    if (page == null) {
      return null;
    }
    Chunk c = page.get(slot & (PAGE_SIZE - 1));
    return c != null && c.id() == id ? c : null;
  }

  /** Up to {@code max} live chunks (scans the table; for diagnostics only). */
  List<Chunk> live(int max) {
    List<Chunk> out = new ArrayList<>();
    for (int i = 0; i < pages.length() && out.size() < max; i++) {
      AtomicReferenceArray<Chunk> page = pages.get(i);
      for (int j = 0; page != null && j < PAGE_SIZE && out.size() < max; j++) {
        Chunk c = page.get(j);
        if (c != null) {
          out.add(c);
        }
      }
    }
    return out;
  }

  private AtomicReferenceArray<Chunk> page(int index) {
    AtomicReferenceArray<Chunk> p = pages.get(index);
    if (p == null) {
      pages.compareAndSet(index, null, new AtomicReferenceArray<>(PAGE_SIZE));
      p = pages.get(index);
    }
    return p;
  }
}
