package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Merges several {@link CellScanner}s into one in {@link CellComparator} order, dropping exact
 * duplicates (cells that compare equal: same key and same sequence id). Duplicates arise because a
 * memory segment may be visible to a reader twice while the memory store moves it through its
 * pipeline; the copies are the same write, so one is enough.
 *
 * <p>The child holding the smallest cell, {@code current}, is kept out of the heap of the others,
 * as the merging iterators of RocksDB and Pebble do: while it keeps holding the smallest cell (a
 * run of cells from one source, common in flushes and compactions), a step costs one comparison
 * with the heap's top instead of a removal and an insertion. When another child's cell becomes
 * smaller, the two swap with one sift of the heap ({@link #replaceTop}).
 *
 * <p>Not thread-safe (like every scanner). Owns its children: {@link #close()} closes them all.
 *
 * <p>Invariants, outside of a call: {@code current} is null only if no child has a cell; the heap
 * holds exactly the other children that have a cell, ordered by it; {@code current}'s cell is
 * strictly smaller than every cell in the heap (equal copies were dropped). Exhausted children are
 * kept in {@code children} so that a backward {@link #seek} can revive them.
 */
public final class MergingScanner implements CellScanner {
  private static final CellComparator CMP = CellComparator.INSTANCE;

  private final List<CellScanner> children;
  private CellScanner current;
  private CellScanner[] heap;
  private int size;
  private boolean closed;

  public MergingScanner(List<? extends CellScanner> children) {
    this.children = new ArrayList<>(children);
    this.heap = new CellScanner[Math.max(1, children.size())];
    // Children may already be positioned; take them as they are until the first seek.
    for (CellScanner s : this.children) {
      if (s.peek() != null) {
        add(s);
      }
    }
    settle(null);
  }

  /** The largest of the children's answers; the merge is unpositioned until the next seek. */
  @Override
  public byte[] rowBefore(byte[] row) {
    byte[] best = null;
    for (CellScanner s : children) {
      byte[] r = s.rowBefore(row);
      if (r != null && (best == null || io.bellows.util.Bytes.compare(r, best) > 0)) {
        best = r;
      }
    }
    current = null;
    size = 0;
    java.util.Arrays.fill(heap, null);
    return best;
  }

  @Override
  public Cell peek() {
    return current == null ? null : current.peek();
  }

  @Override
  public Cell next() {
    if (current == null) {
      return null;
    }
    Cell c = current.next();
    settle(c);
    return c;
  }

  /**
   * Restores the invariants after {@code current} moved (or was cleared): drops copies of {@code
   * last} (the cell just returned, which only {@code current} can repeat, since every other child
   * was strictly behind it) and copies of the new smallest cell in other children, and makes the
   * child with the smallest cell {@code current}.
   */
  private void settle(Cell last) {
    while (true) {
      if (current != null) {
        Cell n = current.peek();
        if (n == null) {
          current = null;
        } else if (last != null && CellComparator.sameWrite(n, last)) {
          current.next(); // the same write repeated within one child
          continue;
        }
      }
      if (size == 0) {
        return;
      }
      if (current == null) {
        current = pollTop();
        continue; // it may repeat last too
      }
      int c = CMP.compare(current.peek(), heap[0].peek());
      if (c < 0) {
        return;
      }
      if (c == 0) {
        // The same write in two children: keep current's, drop the other's copy.
        CellScanner dup = heap[0];
        dup.next();
        if (dup.peek() == null) {
          pollTop();
        } else {
          siftDown(0);
        }
        continue;
      }
      current = replaceTop(current);
    }
  }

  @Override
  public boolean seek(Cell key) {
    current = null;
    Arrays.fill(heap, 0, size, null);
    size = 0;
    for (CellScanner s : children) {
      if (s.seek(key)) {
        add(s);
      }
    }
    settle(null);
    return current != null;
  }

  /**
   * Moves forward only the children that are behind {@code key}; children already at or past it
   * stay where they are, and exhausted children stay exhausted (the key is never before the
   * current position).
   */
  @Override
  public boolean reseek(Cell key) {
    if (current == null || CMP.compare(current.peek(), key) >= 0) {
      return current != null; // every other child is past current, so past the key too
    }
    List<CellScanner> moved = new ArrayList<>();
    moved.add(current);
    current = null;
    while (size > 0 && CMP.compare(heap[0].peek(), key) < 0) {
      moved.add(pollTop());
    }
    for (CellScanner s : moved) {
      if (s.reseek(key)) {
        add(s);
      }
    }
    settle(null);
    return current != null;
  }

  @Override
  public boolean shouldUse(ScanQuery query) {
    for (CellScanner s : children) {
      if (s.shouldUse(query)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    current = null;
    Arrays.fill(heap, 0, size, null);
    size = 0;
    RuntimeException first = null;
    for (CellScanner s : children) {
      try {
        s.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  // ------------------------------------------------------------------ the heap of the other children

  private void add(CellScanner s) {
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    int i = size++;
    heap[i] = s;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (CMP.compare(heap[parent].peek(), s.peek()) <= 0) {
        break;
      }
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = s;
  }

  private CellScanner pollTop() {
    CellScanner top = heap[0];
    CellScanner last = heap[--size];
    heap[size] = null;
    if (size > 0) {
      heap[0] = last;
      siftDown(0);
    }
    return top;
  }

  /** Puts {@code s} in place of the top and returns the old top: one sift instead of two. */
  private CellScanner replaceTop(CellScanner s) {
    CellScanner top = heap[0];
    heap[0] = s;
    siftDown(0);
    return top;
  }

  private void siftDown(int i) {
    CellScanner s = heap[i];
    Cell key = s.peek();
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < size && CMP.compare(heap[right].peek(), heap[child].peek()) < 0) {
        child = right;
      }
      if (CMP.compare(key, heap[child].peek()) <= 0) {
        break;
      }
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = s;
  }
}
