package io.bellows.bench;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.FlushPolicy;
import io.bellows.config.Knobs;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.EventListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The table's FLUSH_POLICY measured: one table with a big family (the paper's 4 cells × 25 B per
 * row) and a small one (one 25-byte cell every {@code --small-every} rows), unique keys, one writer,
 * ASYNC_WAL, written under STORES and under REGION in alternating rounds. Reports throughput,
 * flushes and sorted files per family, the bytes flushes and compactions wrote, and the small
 * family's mean flushed file size. Plain main; one engine at a time.
 */
public final class FlushPolicyWrites {
  private static final Set<String> OPTIONS = Set.of("rows", "scale", "flush-mib", "small-every", "rounds", "dir");

  private FlushPolicyWrites() {}

  /** What one run measured. */
  record Result(FlushPolicy policy, double rowsPerSecond, Map<String, Long> flushes, Map<String, Long> flushBytes,
      Map<String, Long> files, long compactionBytes) {}

  public static void main(String[] argv) throws IOException {
    Args a = new Args(argv, OPTIONS);
    long rows = (long) (a.getLong("rows", 2_000_000) * a.getDouble("scale", 1));
    long flushSize = (long) (a.getDouble("flush-mib", 16) * 1024 * 1024);
    int smallEvery = (int) a.getLong("small-every", 10);
    int rounds = (int) a.getLong("rounds", 2);
    Path base = Path.of(a.get("dir", System.getProperty("java.io.tmpdir")));
    System.out.printf("# FlushPolicyWrites: %,d rows, big family 4 × 25 B per row, small family 25 B every %d rows,"
        + " flush size %.1f MiB, %d rounds, %s%n%n", rows, smallEvery, flushSize / 1048576.0, rounds, Runtime.version());
    MarkdownTable t = new MarkdownTable("round", "policy", "rows/s", "big flushes", "small flushes", "big files",
        "small files", "small flushed KB per file", "flush MB", "compaction MB");
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < 2; i++) {
        FlushPolicy p = FlushPolicy.values()[(i + round) % 2];
        Result r = run(p, rows, flushSize, smallEvery, base);
        long smallFlushes = r.flushes().getOrDefault("small", 0L);
        t.row(round, p, String.format("%,.0f", r.rowsPerSecond()), r.flushes().getOrDefault("big", 0L), smallFlushes,
            r.files().get("big"), r.files().get("small"),
            smallFlushes == 0 ? "-" : String.format("%,.0f", r.flushBytes().get("small") / 1024.0 / smallFlushes),
            String.format("%.0f", (r.flushBytes().values().stream().mapToLong(Long::longValue).sum()) / 1e6),
            String.format("%.0f", r.compactionBytes() / 1e6));
        System.out.println("  " + r);
      }
    }
    System.out.println();
    System.out.println(t.render());
  }

  static Result run(FlushPolicy policy, long rows, long flushSize, int smallEvery, Path base) {
    Path dir;
    try {
      Files.createDirectories(base);
      dir = Files.createTempDirectory(base, "bellows-flushpolicy-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, LongAdder> flushes = new ConcurrentHashMap<>();
    Map<String, LongAdder> flushBytes = new ConcurrentHashMap<>();
    EventListener counter = new EventListener() {
      @Override
      public void flushEnd(FlushInfo info) {
        flushes.computeIfAbsent(info.family(), k -> new LongAdder()).increment();
        flushBytes.computeIfAbsent(info.family(), k -> new LongAdder()).add(info.fileBytes());
      }
    };
    JvmCounters.heapUsedAfterGc();
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().eventListener(counter).build())) {
      db.createTable(TableDescriptor.builder("t").flushSize(flushSize).set(Knobs.FLUSH_POLICY, policy)
          .durability(io.bellows.config.Durability.ASYNC_WAL).family("big").family("small").build());
      Table table = db.getTable("t");
      PaperRows paper = new PaperRows(42);
      SplittableRandom random = new SplittableRandom(7);
      byte[] value = new byte[PaperRows.VALUE_LENGTH];
      byte[] big = Bytes.of("big");
      byte[] small = Bytes.of("small");
      long start = System.nanoTime();
      for (long i = 0; i < rows; i++) {
        Put p = new Put(paper.rowKey(KeyMixer.mix(i)));
        for (int q = 0; q < PaperRows.CELLS_PER_ROW; q++) {
          random.nextBytes(value);
          p.addColumn(big, PaperRows.qualifier(q), value.clone());
        }
        if (i % smallEvery == 0) {
          p.addColumn(small, PaperRows.qualifier(0), Arrays.copyOf(value, value.length));
        }
        table.put(p);
      }
      double rowsPerSecond = rows * 1e9 / (System.nanoTime() - start);
      Map<String, Map<String, Number>> stores = db.storeMetrics("t");
      Map<String, Number> m = db.metrics();
      return new Result(policy, rowsPerSecond, sums(flushes), sums(flushBytes),
          Map.of("big", stores.get("big").get("store.files").longValue(),
              "small", stores.get("small").get("store.files").longValue()),
          m.getOrDefault("compaction.bytes.written", 0).longValue());
    } finally {
      EngineRun.deleteRecursively(dir);
    }
  }

  private static Map<String, Long> sums(Map<String, LongAdder> m) {
    Map<String, Long> out = new java.util.TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
