package io.bellows.memstore.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import org.junit.jupiter.api.Test;

/**
 * Prints the index overhead per entry of the chunk skiplist (exact, from its own accounting), the
 * flat chunk index (exact) and a ConcurrentSkipListMap of Cell objects (heap growth measured around
 * a GC: approximate, printed only). The only assertions are on the exact figures.
 */
class IndexFootprintTest {
  @Test
  void printsBytesPerEntry() {
    int n = 100_000;
    List<Cell> cells = TestCells.random(new Random(17), n);
    ChunkAllocator alloc = new ChunkAllocator(2 * 1024 * 1024 - 64, 0, false);
    MemStoreLab lab = new MemStoreLab(alloc);
    ChunkSkipList list = new ChunkSkipList(alloc);
    cells.forEach(c -> list.insertCopy(lab, c));
    double nodePerEntry = (double) (list.nodeBytes() - ChunkSkipList.nodeSize(ChunkSkipList.MAX_LEVEL)) / list.size();
    System.out.printf("ChunkSkipList: %d entries, %.2f node bytes/entry, %.2f allocated bytes/entry%n",
        list.size(), nodePerEntry, (double) list.allocatedNodeBytes() / list.size());
    // 16 + 8 x (4/3 levels) = 26.7; the target is 1/3 of the object skiplist's 88 B/cell.
    assertThat(nodePerEntry).isBetween(25.5, 28.0).isLessThanOrEqualTo(88.0 / 3);

    ChunkCellIndex.Builder b = ChunkCellIndex.builder(alloc);
    list.iterator().forEachRemaining(c -> b.addCopy(lab, c));
    ChunkCellIndex index = b.build();
    System.out.printf("ChunkCellIndex: %d entries, %.2f index bytes/entry, %.2f allocated bytes/entry%n",
        index.size(), (double) index.indexBytes() / index.size(), (double) index.allocatedIndexBytes() / index.size());
    assertThat(index.indexBytes()).isEqualTo(20L * index.size());

    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    System.gc();
    long before = mem.getHeapMemoryUsage().getUsed();
    ConcurrentSkipListMap<Cell, Cell> map = new ConcurrentSkipListMap<>(CellComparator.INSTANCE);
    list.iterator().forEachRemaining(c -> map.put(c, c)); // heap chunks: Cell views, no data copied
    System.gc();
    long after = mem.getHeapMemoryUsage().getUsed();
    System.out.printf("ConcurrentSkipListMap<Cell,Cell>: %d entries, ~%.1f heap bytes/entry (Cell object + map nodes)%n",
        map.size(), (double) (after - before) / map.size());
    assertThat(map).hasSize((int) list.size());

    index.close();
    list.close();
    lab.close();
    alloc.checkNoChunksInUse();
  }
}
