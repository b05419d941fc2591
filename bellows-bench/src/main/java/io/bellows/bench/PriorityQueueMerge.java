package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The baseline of {@link MergeBenchmark}: Bellows' merging scanner as it was before the current
 * child was kept out of the heap — every step takes the smallest child out of a {@link
 * java.util.PriorityQueue} and puts it back, then compares the new top with the returned cell to
 * drop copies. Kept here only so that one benchmark run measures both.
 */
final class PriorityQueueMerge implements CellScanner {
  private final List<CellScanner> children;
  private final PriorityQueue<CellScanner> heap;
  private boolean closed;

  PriorityQueueMerge(List<? extends CellScanner> children) {
    this.children = new ArrayList<>(children);
    this.heap = new PriorityQueue<>(Math.max(1, children.size()),
        (a, b) -> CellComparator.INSTANCE.compare(a.peek(), b.peek()));
    // Children may already be positioned; take them as they are until the first seek.
    for (CellScanner s : this.children) {
      if (s.peek() != null) {
        heap.add(s);
      }
    }
  }

  @Override
  public Cell peek() {
    CellScanner top = heap.peek();
    return top == null ? null : top.peek();
  }

  @Override
  public Cell next() {
    CellScanner top = heap.poll();
    if (top == null) {
      return null;
    }
    Cell c = top.next();
    if (top.peek() != null) {
      heap.add(top);
    }
    // Skip copies of the same write held by other children (or repeated within one child).
    while (!heap.isEmpty() && CellComparator.INSTANCE.compare(heap.peek().peek(), c) == 0) {
      CellScanner dup = heap.poll();
      dup.next();
      if (dup.peek() != null) {
        heap.add(dup);
      }
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) {
    heap.clear();
    for (CellScanner s : children) {
      if (s.seek(key)) {
        heap.add(s);
      }
    }
    return !heap.isEmpty();
  }

  /**
   * Moves forward only the children that are behind {@code key}; children already at or past it
   * stay where they are, and exhausted children stay exhausted (the key is never before the
   * current position).
   */
  @Override
  public boolean reseek(Cell key) {
    List<CellScanner> moved = new ArrayList<>();
    while (!heap.isEmpty() && CellComparator.INSTANCE.compare(heap.peek().peek(), key) < 0) {
      moved.add(heap.poll());
    }
    for (CellScanner s : moved) {
      if (s.reseek(key)) {
        heap.add(s);
      }
    }
    return !heap.isEmpty();
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
    heap.clear();
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
}
