package io.bellows.bench;

import io.bellows.region.OptionsResolver;
import io.bellows.cell.Cell;
import io.bellows.config.Knobs;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.scan.StoreScanner;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.MemStorePolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Gets against a memory store whose pipeline holds S flat segments, with and without the per-segment
 * row filter ({@code SEGMENT_ROW_FILTER}). For each layout: a BASIC store with {@code
 * PIPELINE_MAX_SEGMENTS} = S receives unique rows of the paper's shape until it has flushed in memory
 * S times (so the pipeline holds S flattened segments, none merged, and the active segment is
 * empty); then one thread runs gets the way a store does (memory-store scanners, {@code shouldUse},
 * a {@link StoreScanner} reading one row) of random present rows and of random absent rows (ids never
 * inserted, spread over the same key range, so the segments' row ranges never exclude them).
 *
 * <p>Prints ops/s (median of the rounds) and the filter's memory per segment (the difference in the
 * store's overhead bytes with and without the filter). Single-threaded driver; not reusable.
 */
public final class SegmentGets {
  private static final Set<String> OPTIONS =
      Set.of("segments", "flush-mib", "fraction", "gets", "rounds", "indexes", "seed");

  public static void main(String[] argv) {
    Args args = new Args(argv, OPTIONS);
    int segments = (int) args.getLong("segments", 4);
    long flushSize = args.getLong("flush-mib", 128) << 20;
    double fraction = args.getDouble("fraction", 0.02);
    int gets = (int) args.getLong("gets", 200_000);
    int rounds = (int) args.getLong("rounds", 5);
    long seed = args.getLong("seed", 42);
    List<IndexKind> indexes = Configs.indexes(args.get("indexes", "OBJECT,CHUNK_HEAP"));
    System.out.printf("# SegmentGets: BASIC, %d segments, flush size %d MiB, A = %s, %,d gets x %d rounds, seed %d, %s%n%n",
        segments, flushSize >> 20, fraction, gets, rounds, seed, Runtime.version());
    MarkdownTable table = new MarkdownTable("layout", "row filter", "rows held", "rows/segment",
        "present gets/s", "absent gets/s", "segments read per absent get", "overhead B/cell",
        "filter B/segment", "filter B/row");
    for (IndexKind index : indexes) {
      Result off = null;
      for (boolean filter : new boolean[] {false, true}) {
        Result r = measure(new StoreConfig(MemStorePolicy.BASIC, index, flushSize, fraction), filter, segments,
            gets, rounds, seed);
        long filterPerSegment = off == null ? 0 : (r.overheadBytes - off.overheadBytes) / segments;
        table.row(index.name(), filter ? "on" : "off", String.format("%,d", r.rows),
            String.format("%,d", r.rows / segments), String.format("%,.0f", r.presentOps),
            String.format("%,.0f", r.absentOps), String.format("%.2f", r.segmentsPerAbsentGet),
            String.format("%.1f", (double) r.overheadBytes / r.cells),
            filter ? String.format("%,d", filterPerSegment) : "-",
            filter ? String.format("%.2f", (double) filterPerSegment * segments / r.rows) : "-");
        if (!filter) {
          off = r;
        }
      }
    }
    System.out.println(table.render());
  }

  private record Result(long rows, long cells, long overheadBytes, double presentOps, double absentOps,
      double segmentsPerAbsentGet) {}

  private static Result measure(StoreConfig config, boolean rowFilter, int segments, int gets, int rounds,
      long seed) {
    ColumnFamilyDescriptor family = config.family().toBuilder()
        .set(Knobs.PIPELINE_MAX_SEGMENTS, segments)
        .set(Knobs.SEGMENT_ROW_FILTER, rowFilter)
        .build();
    PaperRows rows = new PaperRows(seed);
    Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
    try (MemStoreHarness store = new MemStoreHarness(config, family)) {
      long inserted = 0;
      while (store.metrics().get("memstore.in.memory.flushes").longValue() < segments) {
        rows.row(rowId(seed, inserted), inserted + 1, row);
        for (Cell c : row) {
          store.add(c);
        }
        inserted++;
      }
      store.awaitQuiescent();
      long pipeline = store.metrics().get("memstore.pipeline.segments").longValue();
      if (pipeline != segments) {
        throw new IllegalStateException("expected " + segments + " pipeline segments, found " + pipeline);
      }
      SplittableRandom rnd = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
      byte[][] present = new byte[gets][];
      byte[][] absent = new byte[gets][];
      for (int i = 0; i < gets; i++) {
        present[i] = rows.rowKey(rowId(seed, rnd.nextLong(inserted)));
        absent[i] = rows.rowKey(rowId(seed, inserted + 1 + rnd.nextLong(1L << 30)));
      }
      double[] presentOps = new double[rounds];
      double[] absentOps = new double[rounds];
      getAll(store, family, present, 4); // warm-up
      getAll(store, family, absent, 0);
      for (int r = 0; r < rounds; r++) {
        presentOps[r] = getAll(store, family, present, 4);
        absentOps[r] = getAll(store, family, absent, 0);
      }
      long used = 0; // counted in a separate pass, outside the timed loops
      for (byte[] key : absent) {
        ScanQuery q = ScanQuery.builder().singleRow(key).build();
        for (CellScanner s : store.scanners()) {
          used += s.shouldUse(q) ? 1 : 0;
          s.close();
        }
      }
      return new Result(inserted, store.size().cellCount(), store.size().overheadBytes(), median(presentOps),
          median(absentOps), (double) used / gets);
    }
  }

  /** Runs one get per key, checks each returned {@code expectCells} cells; returns gets per second. */
  private static double getAll(MemStoreHarness store, ColumnFamilyDescriptor family, byte[][] keys, int expectCells) {
    List<Cell> out = new ArrayList<>();
    long start = System.nanoTime();
    for (byte[] key : keys) {
      ScanQuery q = ScanQuery.builder().singleRow(key).build();
      List<CellScanner> sources = store.scanners();
      out.clear();
      StoreScanner scanner = new StoreScanner(sources, q, family.nameBytes(), OptionsResolver.retention(family), Long.MAX_VALUE);
      try {
        scanner.nextRow(out);
      } finally {
        scanner.close();
      }
      if (out.size() != expectCells) {
        throw new IllegalStateException("get returned " + out.size() + " cells, expected " + expectCells);
      }
    }
    return keys.length / ((System.nanoTime() - start) / 1e9);
  }

  private static long rowId(long seed, long i) {
    return KeyMixer.mix((seed << 40) + i);
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
