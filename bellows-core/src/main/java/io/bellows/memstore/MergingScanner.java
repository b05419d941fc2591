package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges sorted scanners into one sorted stream with a heap keyed by each scanner's current cell.
 * Equal cells from different inputs both come out (segments of one memory store are disjoint).
 * Owns and closes its inputs. Not thread-safe.
 */
final class MergingScanner implements CellScanner {
  private final List<CellScanner> inputs;
  private final PriorityQueue<CellScanner> heap;

  MergingScanner(List<CellScanner> inputs) {
    this.inputs = new ArrayList<>(inputs);
    this.heap = new PriorityQueue<>(Math.max(1, inputs.size()),
        (a, b) -> CellComparator.INSTANCE.compare(a.peek(), b.peek()));
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
    return c;
  }

  @Override
  public boolean seek(Cell key) {
    heap.clear();
    for (CellScanner s : inputs) {
      if (s.seek(key)) {
        heap.add(s);
      }
    }
    return !heap.isEmpty();
  }

  @Override
  public boolean reseek(Cell key) {
    heap.clear();
    for (CellScanner s : inputs) {
      if (s.reseek(key)) {
        heap.add(s);
      }
    }
    return !heap.isEmpty();
  }

  @Override
  public boolean shouldUse(ScanQuery query) {
    for (CellScanner s : inputs) {
      if (s.shouldUse(query)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    heap.clear();
    for (CellScanner s : inputs) {
      s.close();
    }
  }
}
