package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Whole-row gets with and without the block caches. Loads {@code --rows} rows of the paper's shape
 * (4 × 25-byte cells; row ids are ranks through {@link KeyMixer}, so Zipf-hot rows are spread over
 * the key range), flushes and major-compacts them into one file per region, closes. Then, per cache
 * configuration, reopens the same data directory with that configuration, runs one warm-up round
 * and one measured round of {@code --gets} gets from {@code --threads} threads (Zipf θ = 0.99 or
 * uniform over the loaded rows), and prints gets/s, blocks read from files per get and the hit
 * ratios. Configurations: {@code none} (no cache), {@code l1} ({@code --l1-mib}), {@code l2}
 * ({@code --l2-mib} behind no L1), {@code l1+l2}. Figures depend on the OS page cache holding the
 * files (it does after the load on a machine with enough memory). Single-threaded driver.
 */
public final class CachedGets {
  private static final Set<String> OPTIONS =
      Set.of("rows", "gets", "threads", "l1-mib", "l2-mib", "dist", "configs", "seed", "dir", "compression");

  public static void main(String[] argv) throws Exception {
    Args args = new Args(argv, OPTIONS);
    long rows = args.getLong("rows", 1_000_000);
    long gets = args.getLong("gets", 400_000);
    int threads = (int) args.getLong("threads", 4);
    long l1 = args.getLong("l1-mib", 64) << 20;
    long l2 = args.getLong("l2-mib", 256) << 20;
    String dist = args.get("dist", "zipf");
    long seed = args.getLong("seed", 42);
    String compression = args.get("compression", "NONE");
    Path dir = Path.of(args.get("dir", Files.createTempDirectory("bellows-cached-gets").toString()));
    System.out.printf("# CachedGets: %,d rows, %,d gets x %d threads, %s keys, L1 %d MiB, L2 %d MiB, %s, seed %d, %s%n%n",
        rows, gets, threads, dist, l1 >> 20, l2 >> 20, compression, seed, Runtime.version());
    load(dir, rows, seed, compression);
    MarkdownTable table = new MarkdownTable("cache", "gets/s", "file blocks read/get", "L1 hit ratio",
        "L2 hit ratio", "L1 MiB used", "L2 MiB used");
    for (String config : args.get("configs", "none,l1,l2,l1+l2").split(",")) {
      EngineOptions options = EngineOptions.builder()
          .set(Knobs.BLOCKCACHE_L1_FRACTION, 0.0)
          .set(Knobs.BLOCKCACHE_L1_SIZE, config.contains("l1") ? l1 : 0L)
          .set(Knobs.BLOCKCACHE_L2_SIZE, config.contains("l2") ? l2 : 0L)
          .set(Knobs.BLOCKCACHE_L2_FRACTION, 0.0)
          .build();
      try (Bellows db = Bellows.open(dir, options)) {
        Table t = db.getTable("t");
        run(t, gets, threads, dist, rows, seed); // warm-up: fills the caches, warms the JIT
        Map<String, Number> before = db.metrics();
        long start = System.nanoTime();
        run(t, gets, threads, dist, rows, seed + 1);
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Number> after = db.metrics();
        double blocks = delta(before, after, "store.files.blocks.read") / (double) gets;
        table.row(config, String.format("%,.0f", gets / seconds), String.format("%.3f", blocks),
            ratio(before, after, "l1"), ratio(before, after, "l2"),
            String.format("%.1f", after.getOrDefault("cache.l1.bytes", 0L).doubleValue() / (1 << 20)),
            String.format("%.1f", after.getOrDefault("cache.l2.slot.bytes", 0L).doubleValue() / (1 << 20)));
      }
    }
    System.out.println(table.render());
  }

  private static void load(Path dir, long rows, long seed, String compression) {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").durability(Durability.SKIP_WAL)
          .family(ColumnFamilyDescriptor.builder("f")
              .compression(io.bellows.config.Compression.valueOf(compression)).build())
          .build());
      Table t = db.getTable("t");
      PaperRows paper = new PaperRows(seed);
      Cell[] cells = new Cell[PaperRows.CELLS_PER_ROW];
      List<Put> batch = new ArrayList<>();
      for (long rank = 0; rank < rows; rank++) {
        long id = KeyMixer.mix(rank);
        paper.row(id, 1, cells);
        Put p = new Put(paper.rowKey(id), 1);
        for (int q = 0; q < cells.length; q++) {
          p.addColumn(PaperRows.FAMILY, PaperRows.qualifier(q), cells[q].value());
        }
        batch.add(p);
        if (batch.size() == 1000) {
          t.put(batch);
          batch = new ArrayList<>();
        }
      }
      t.put(batch);
      db.flush("t");
      db.majorCompact("t");
    }
  }

  private static void run(Table t, long gets, int threads, String dist, long rows, long seed) throws InterruptedException {
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      long s = seed * 1000 + i;
      long n = gets / threads;
      workers.add(new Thread(() -> {
        KeyChooser keys = dist.equals("uniform") ? uniform(rows, s) : new ZipfKeys(rows, ZipfKeys.DEFAULT_THETA, s);
        PaperRows paper = new PaperRows(s);
        for (long g = 0; g < n; g++) {
          if (t.get(new Get(paper.rowKey(keys.nextRowId()))).isEmpty()) {
            throw new IllegalStateException("a loaded row is missing");
          }
        }
      }));
    }
    workers.forEach(Thread::start);
    for (Thread w : workers) {
      w.join();
    }
  }

  private static KeyChooser uniform(long rows, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    return () -> KeyMixer.mix(r.nextLong(rows));
  }

  private static long delta(Map<String, Number> before, Map<String, Number> after, String name) {
    return after.getOrDefault(name, 0L).longValue() - before.getOrDefault(name, 0L).longValue();
  }

  private static String ratio(Map<String, Number> before, Map<String, Number> after, String level) {
    long h = delta(before, after, "cache." + level + ".hits");
    long m = delta(before, after, "cache." + level + ".misses");
    return h + m == 0 ? "-" : String.format("%.3f", (double) h / (h + m));
  }
}
