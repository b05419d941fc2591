package io.bellows.bench;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.KnobAssignments;
import io.bellows.config.Knobs;
import io.bellows.config.Durability;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.EventListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * One end-to-end run of the engine through its public API: opens a fresh engine in a new temporary
 * directory, creates one table with one family configured by a {@link StoreConfig} (policy, layout,
 * flush size) and the workload's durability (ASYNC_WAL by default), then
 *
 * <ol>
 *   <li>writes the workload's rows from its writer threads (timed: throughput, per-put latency,
 *       WAL bytes, blocked-write time and GC are the deltas of this phase);
 *   <li>times a burst of gets of rows that were written (sampled while writing), from as many
 *       threads, while the memory store still holds its data; every get must find its 4 cells;
 *   <li>flushes the table so that all data is on disk and reads the disk figures (flushes,
 *       compactions, bytes written by each);
 *   <li>closes the engine and deletes its directory.
 * </ol>
 *
 * A compaction still running when the disk figures are read is not counted (the final flush may
 * start one). Stateless; each call is independent. Not meant to run concurrently with another run,
 * since GC counters are JVM-wide.
 */
final class EngineRun {
  static final String TABLE = "usertable";

  private EngineRun() {}

  static EngineRunResult run(StoreConfig config, EngineWorkload w) {
    return run(config, w, IoLog.NONE);
  }

  /** A run whose flushes and compactions are also recorded one by one in {@code io}. */
  static EngineRunResult run(StoreConfig config, EngineWorkload w, IoLog io) {
    Path dir;
    try {
      Files.createDirectories(w.baseDir());
      dir = Files.createTempDirectory(w.baseDir(), "bellows-engbench-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    JvmCounters.heapUsedAfterGc(); // every run starts from a collected heap
    ExecutorService pool = Executors.newFixedThreadPool(w.writers(), r -> {
      Thread t = new Thread(r, "engbench-client");
      t.setDaemon(true);
      return t;
    });
    EngineOptions options = engineOptions(config, w.engineSettings());
    if (io.enabled()) {
      options = options.toBuilder().eventListener(ioListener(io)).build();
    }
    try (Bellows db = Bellows.open(dir, options)) {
      db.createTable(TableDescriptor.builder(TABLE)
          .durability(w.durability())
          .flushSize(config.flushSize())
          .family(config.family())
          .build(), w.splitKeys());
      Table table = db.getTable(TABLE);

      List<BenchClients.RowWriter> writers = new ArrayList<>();
      long perWriter = w.rows() / w.writers();
      for (int i = 0; i < w.writers(); i++) {
        long rows = i == 0 ? w.rows() - perWriter * (w.writers() - 1) : perWriter;
        long sample = Math.max(1, Math.min(rows, w.gets() / w.writers() + 1));
        writers.add(writer(table, w.keys().chooser(w.keySpace(), w.seed() + i, i, w.writers()), w.puts(w.seed() + i), rows,
            (int) sample, w.batch()));
      }
      Map<String, Number> before = db.metrics();
      long start = System.nanoTime();
      BenchClients.runAll(pool, writers);
      long writeNanos = System.nanoTime() - start;
      Map<String, Number> written = db.metrics();

      Histogram putNanos = new Histogram(3);
      List<BenchClients.RowReader> readers = new ArrayList<>();
      long perReader = w.gets() / w.writers();
      for (int i = 0; i < w.writers(); i++) {
        BenchClients.RowWriter wr = writers.get(i);
        putNanos.add(wr.latency);
        long gets = i == 0 ? w.gets() - perReader * (w.writers() - 1) : perReader;
        readers.add(reader(table, wr.puts, wr.sampledIds(), gets, new SplittableRandom(w.seed() + 1000 + i)));
      }
      long getStart = System.nanoTime();
      BenchClients.runAll(pool, readers);
      long getNanos = w.gets() == 0 ? 0 : System.nanoTime() - getStart;
      Histogram getLatency = new Histogram(3);
      long misses = 0;
      for (BenchClients.RowReader r : readers) {
        getLatency.add(r.latency);
        misses += r.misses;
      }

      db.flush(TABLE);
      Map<String, Number> flushed = db.metrics();
      long flushedCells = 0;
      long eliminatedCells = 0;
      for (Map<String, Number> store : db.storeMetrics(TABLE).values()) {
        flushedCells += value(store, "flush.cells");
        eliminatedCells += value(store, "memstore.cells.eliminated");
      }
      return new EngineRunResult(config, w, writeNanos,
          delta(flushed, before, "flush.count"),
          delta(flushed, before, "compaction.count"),
          delta(flushed, before, "flush.bytes.written"),
          delta(flushed, before, "compaction.bytes.written"),
          delta(written, before, "wal.bytes.appended"),
          delta(written, before, "wal.records.appended"),
          delta(written, before, "wal.syncs"),
          delta(written, before, "writes.blocked.nanos"),
          delta(written, before, "writes.blocked.count"),
          delta(written, before, "writes.delayed.nanos.global.memory")
              + delta(written, before, "writes.delayed.nanos.store.memory")
              + delta(written, before, "writes.delayed.nanos.store.files"),
          delta(written, before, "jvm.gc.count"),
          delta(written, before, "jvm.gc.time.ms"),
          value(flushed, "store.files"),
          putNanos, getNanos, misses, getLatency, flushedCells, eliminatedCells,
          delta(written, before, "wal.files.rolled"), value(written, "wal.files"));
    } finally {
      pool.shutdownNow();
      deleteRecursively(dir);
    }
  }

  /** Forwards the engine's flush and compaction ends to {@code io}. */
  private static EventListener ioListener(IoLog io) {
    return new EventListener() {
      @Override
      public void flushEnd(FlushInfo f) {
        io.flush(f.memStoreBytes(), f.cells(), f.fileBytes(), -1, f.duration().toMillis());
      }

      @Override
      public void compactionEnd(CompactionInfo c) {
        io.compaction(c.inputFiles(), c.inputBytes(), c.inputCells(), c.outputBytes(), c.outputCells(),
            c.duration().toMillis());
      }
    };
  }

  static EngineOptions engineOptions(StoreConfig config, Map<String, String> settings) {
    EngineOptions.Builder b = EngineOptions.builder().set(Knobs.CHUNK_OFF_HEAP, config.index().offHeap);
    // The configuration's own engine knobs, then the run's settings.
    KnobAssignments.of(config.familyKnobs()).applyTo(b);
    return KnobAssignments.of(settings).applyTo(b).build();
  }

  private static long value(Map<String, Number> m, String name) {
    Number n = m.get(name);
    return n == null ? 0 : n.longValue();
  }

  private static long delta(Map<String, Number> after, Map<String, Number> before, String name) {
    return value(after, name) - value(before, name);
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }

  /** A writer of rows into a Bellows table: one {@code Table.put} call per batch. */
  private static BenchClients.RowWriter writer(Table table, KeyChooser keys, PaperPuts puts, long rows, int sample,
      int batch) {
    return new BenchClients.RowWriter(keys, puts, rows, sample, batch) {
      @Override
      void write(List<Put> rows) {
        if (rows.size() == 1) {
          table.put(rows.get(0));
        } else {
          table.put(rows);
        }
      }
    };
  }

  /** A reader of whole rows from a Bellows table: one {@code Table.get} per row. */
  private static BenchClients.RowReader reader(Table table, PaperPuts keys, long[] ids, long gets,
      SplittableRandom random) {
    return new BenchClients.RowReader(keys, ids, gets, random) {
      @Override
      int cellsOf(byte[] row) {
        return table.get(new Get(row)).size();
      }
    };
  }
}
