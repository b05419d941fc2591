package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.memstore.MemStoreSize;
import io.bellows.config.MemStorePolicy;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Memory cost per cell of every memory-store configuration: inserts N cells of the paper's shape
 * (default 1M; {@code --scale} multiplies) into a fresh store per configuration, never flushing to
 * disk, waits for in-memory compactions to finish, and prints one Markdown table row per
 * configuration:
 *
 * <ul>
 *   <li>bytes per cell held, from {@link MemStoreSize} (data, index overhead, footprint) and from
 *       the heap used after GC and direct memory (both relative to before the store existed);
 *   <li>bytes allocated per million inserted cells, by the inserting thread and by the background
 *       thread ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}); the writer's
 *       number includes building the cells, which is the same for every configuration;
 *   <li>GC count and time per million inserted cells (all collectors, all threads).
 * </ul>
 *
 * <p>The flush size only sets the in-memory flush threshold (A × flush size); default: 256 bytes
 * per cell to insert, so everything fits. Single-threaded driver; not reusable.
 */
public final class MemoryFootprint {
  private static final Set<String> OPTIONS =
      Set.of("cells", "scale", "keys", "key-space", "policies", "indexes", "flush-mib", "seed");

  public static void main(String[] argv) {
    Args args = new Args(argv, OPTIONS);
    long cells = (long) (args.getLong("cells", 1_000_000) * args.getDouble("scale", 1));
    KeyDistribution keys = KeyDistribution.valueOf(args.get("keys", "UNIQUE").toUpperCase());
    long keySpace = args.getLong("key-space", 1_000_000);
    List<MemStorePolicy> policies = Configs.policies(args.get("policies", "NONE,BASIC,EAGER,ADAPTIVE"));
    List<IndexKind> indexes = Configs.indexes(args.get("indexes", "OBJECT,CHUNK_HEAP,CHUNK_OFFHEAP"));
    long flushSize = args.getLong("flush-mib", Math.max(64, cells * 256 / (1024 * 1024))) * 1024 * 1024;
    long seed = args.getLong("seed", 42);

    System.out.printf("# MemoryFootprint: %,d cells (%d bytes serialized each), keys %s%s, flush size %d MiB, seed %d, %s%n%n",
        cells, PaperRows.cellLength(), keys, keys == KeyDistribution.ZIPF ? " over " + keySpace + " rows" : "",
        flushSize >> 20, seed, Runtime.version());
    MarkdownTable table = new MarkdownTable("config", "cells held", "data B/cell", "overhead B/cell",
        "footprint B/cell", "heap B/cell (after GC)", "direct B/cell", "writer alloc MB/M cells",
        "background alloc MB/M cells", "GCs/M cells", "GC ms/M cells", "segments (pipeline)");
    for (IndexKind index : indexes) {
      for (MemStorePolicy policy : policies) {
        measure(new StoreConfig(policy, index, flushSize), keys, keySpace, cells, seed, table);
      }
    }
    System.out.println(table.render());
  }

  private static void measure(StoreConfig config, KeyDistribution keys, long keySpace, long cells, long seed,
      MarkdownTable table) {
    KeyChooser chooser = keys.chooser(keySpace, seed);
    PaperRows rows = new PaperRows(seed);
    Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
    long heapBefore = JvmCounters.heapUsedAfterGc();
    long directBefore = JvmCounters.directBytes();
    try (MemStoreHarness store = new MemStoreHarness(config)) {
      Thread writer = Thread.currentThread();
      JvmCounters.Sample gcBefore = JvmCounters.sample();
      long writerAllocBefore = JvmCounters.allocatedBytes(writer);
      long bgAllocBefore = JvmCounters.allocatedBytes(store.backgroundThread());
      long puts = cells / PaperRows.CELLS_PER_ROW;
      for (long i = 1; i <= puts; i++) {
        rows.row(chooser.nextRowId(), i, row);
        for (Cell c : row) {
          store.add(c);
        }
      }
      store.awaitQuiescent();
      long writerAlloc = JvmCounters.allocatedBytes(writer) - writerAllocBefore;
      long bgAlloc = JvmCounters.allocatedBytes(store.backgroundThread()) - bgAllocBefore;
      JvmCounters.Sample gc = JvmCounters.sample().minus(gcBefore);
      long heap = JvmCounters.heapUsedAfterGc() - heapBefore;
      long direct = JvmCounters.directBytes() - directBefore;
      MemStoreSize size = store.size();
      Map<String, Number> m = store.metrics();
      double held = Math.max(1, size.cellCount());
      double millions = puts * PaperRows.CELLS_PER_ROW / 1e6;
      table.row(config.label(), size.cellCount(), MarkdownTable.f1(size.dataBytes() / held),
          MarkdownTable.f1(size.overheadBytes() / held), MarkdownTable.f1(size.footprint() / held),
          MarkdownTable.f1(heap / held), MarkdownTable.f1(direct / held),
          MarkdownTable.f1(writerAlloc / millions / 1e6), MarkdownTable.f1(bgAlloc / millions / 1e6),
          MarkdownTable.f2(gc.gcCount() / millions), MarkdownTable.f1(gc.gcMillis() / millions),
          String.valueOf(m.getOrDefault("memstore.pipeline.segments", 0)));
      System.out.printf("  done %s: %s%n", config.label(), m);
    }
  }
}
