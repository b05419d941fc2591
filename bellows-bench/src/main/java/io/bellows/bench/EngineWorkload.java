package io.bellows.bench;

import io.bellows.config.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one engine benchmark run writes and reads, apart from the memory-store configuration:
 * {@code rows} puts of rows of {@code shape} (the paper's 4 × 25 B unless said otherwise) from {@code writers} threads with keys drawn from
 * {@code keys} over {@code keySpace} rows, then {@code gets} gets of rows that were written, from
 * as many threads. Each run opens a fresh engine in a new directory under {@code baseDir}. Immutable.
 *
 * @param keys key distribution (each writer has its own chooser seeded {@code seed + writer})
 * @param keySpace rows of the Zipf key space (unused by UNIQUE)
 * @param rows puts in total, split evenly over the writers
 * @param writers writer threads (also the reader threads of the get burst)
 * @param gets gets in the burst after writing (0: none)
 * @param seed base seed of keys and values
 * @param baseDir directory under which each run's engine directory is created and deleted
 * @param batch rows per {@code Table.put} call (1: one put per call; N: a list of N puts per call)
 * @param durability the table's durability
 * @param regions regions the table is pre-split into, evenly over the row-id space (1: no split)
 * @param engineSettings engine knobs set by name for the run (e.g. {@code bellows.compaction.threads})
 * @param shape the columns of every row put
 */
record EngineWorkload(KeyDistribution keys, long keySpace, long rows, int writers, long gets, long seed,
    Path baseDir, int batch, Durability durability, int regions, Map<String, String> engineSettings,
    RowShape shape) {
  /**
   * Default flush size of the engine benchmarks, in MiB: RocksDB's default write buffer, so that
   * RocksDB tuned ({@link RocksDbRun}) keeps its 64 MiB buffers and both stores get the same memory
   * (four flush sizes) before writes stall.
   */
  static final double DEFAULT_FLUSH_MIB = 64;

  EngineWorkload {
    if (regions < 1) {
      throw new IllegalArgumentException("regions must be at least 1: " + regions);
    }
    engineSettings = Map.copyOf(engineSettings);
    java.util.Objects.requireNonNull(shape, "shape");
    if (batch < 1) {
      throw new IllegalArgumentException("batch must be at least 1: " + batch);
    }
    if (writers < 1 || rows < writers) {
      throw new IllegalArgumentException("need at least one row per writer: " + rows + " rows, " + writers
          + " writers");
    }
    if (gets < 0) {
      throw new IllegalArgumentException("gets must not be negative: " + gets);
    }
  }

  /** The same workload with another number of rows (for the warm-up). */
  EngineWorkload withRows(long n) {
    return new EngineWorkload(keys, keySpace, n, writers, gets, seed, baseDir, batch, durability, regions,
        engineSettings, shape);
  }

  /**
   * Split keys of {@code regions} even regions: both distributions spread row ids over the whole
   * unsigned 64-bit range ({@link KeyMixer}), so even id ranges get even shares of the rows.
   */
  List<byte[]> splitKeys() {
    List<byte[]> out = new ArrayList<>();
    long step = Long.divideUnsigned(-1L, regions);
    PaperRows keysOf = new PaperRows(0);
    for (int i = 1; i < regions; i++) {
      out.add(keysOf.rowKey(step * i));
    }
    return out;
  }

  /** Bytes of user data the puts carry: their serialized cells (the paper's rows: 4 × 76 bytes). */
  long userBytes() {
    return rows * shape.rowBytes();
  }

  /** Puts of {@code rows} rows of this workload's shape, seeded {@code seed}. */
  PaperPuts puts(long seed) {
    return new PaperPuts(seed, shape);
  }
}
