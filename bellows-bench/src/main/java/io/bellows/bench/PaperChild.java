package io.bellows.bench;

import io.bellows.config.Durability;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * One run of the paper suite, alone in its JVM: {@link PaperBench} starts a fresh {@code java} for
 * each configuration so that no run inherits another's heap, JIT state or native memory. Runs the
 * write-only workload ({@link EngineRun} for Bellows, {@link RocksDbRun} for RocksDB, no gets) or
 * a mixed one ({@link PaperMixedRun}),
 * prints {@code PAPER-PROGRESS <rows written>} every {@code --progress-ms} while writing, and at the
 * end exactly one {@code PAPER-RESULT <json>} line ({@link PaperResult}). Exits non-zero on failure.
 */
public final class PaperChild {
  static final String PROGRESS_PREFIX = "PAPER-PROGRESS ";
  private static final Set<String> OPTIONS = Set.of("config", "keys", "rows", "key-space", "writers", "batch",
      "flush-mib", "regions", "seed", "dir", "progress-ms", "workload", "readers", "ops", "io-log", "durability", "layout",
      "fields", "field-length", "write-rate");

  private PaperChild() {}

  public static void main(String[] argv) {
    try {
      runMain(argv);
    } catch (Throwable t) {
      // Exit even if a store's non-daemon threads are still alive; the parent shows this output.
      t.printStackTrace();
      System.exit(1);
    }
    // The stores are closed by now; exit at once rather than wait for straggling threads.
    System.exit(0);
  }

  private static void runMain(String[] argv) {
    Args a = new Args(argv, OPTIONS);
    PaperConfig config = PaperConfig.parse(a.get("config", "NONE"));
    PaperKeys keys = PaperKeys.parse(a.get("keys", "zipf"));
    long flushSize = (long) (a.getDouble("flush-mib", EngineWorkload.DEFAULT_FLUSH_MIB) * 1024 * 1024);
    EngineWorkload w = new EngineWorkload(keys.distribution, a.getLong("key-space", 10_000_000), a.getLong("rows",
        1_000_000), (int) a.getLong("writers", 4), 0, a.getLong("seed", 42),
        Path.of(a.get("dir", System.getProperty("java.io.tmpdir"))), (int) a.getLong("batch", 100),
        Durability.valueOf(a.get("durability", PaperBench.DURABILITY.name())), (int) a.getLong("regions", 1), Map.of(),
        new RowShape((int) a.getLong("fields", RowShape.PAPER.fields()),
            (int) a.getLong("field-length", RowShape.PAPER.fieldLength())));
    Thread progress = progressReporter(a.getLong("progress-ms", 5000));
    progress.start();
    String ioLog = a.get("io-log", "");
    IoLog io = ioLog.isEmpty() ? IoLog.NONE : new IoLog(Path.of(ioLog));
    IndexKind layout = IndexKind.valueOf(a.get("layout", PaperConfig.LAYOUT.name()));
    PaperResult r = run(config, keys, layout, PaperWorkload.parse(a.get("workload", "write")), w, flushSize,
        (int) a.getLong("readers", 1), a.getLong("ops", 100_000), a.getLong("write-rate", 0), io);
    io.write();
    progress.interrupt();
    System.out.println(PaperResult.LINE_PREFIX + r.toJson());
    System.out.flush();
  }

  /**
   * Runs one configuration in this JVM and measures it; CPU time and peak heap cover the whole run
   * (for the mixed workloads, the load too). The write workload's flushes and compactions are also
   * recorded in {@code io}.
   */
  static PaperResult run(PaperConfig config, PaperKeys keys, IndexKind layout, PaperWorkload workload, EngineWorkload w,
      long flushSize, int readers, long ops, long writeRate, IoLog io) {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
    long cpu0 = processCpuNanos();
    if (workload != PaperWorkload.WRITE) {
      PaperResult r = PaperMixedRun.run(config, keys, layout, workload, w, flushSize, readers, ops, writeRate);
      return r.withProcess(cpu0 < 0 ? PaperResult.NA : (processCpuNanos() - cpu0) / 1_000_000, peakHeap());
    }
    BenchClients.expect(w.rows());
    EngineRunResult e = config.isRocksDb()
        ? RocksDbRun.run(config.peer(), config.peerCompression(), w, flushSize, io)
        : EngineRun.run(config.storeConfig(layout, flushSize), w, io);
    long cpuMillis = (processCpuNanos() - cpu0) / 1_000_000;
    return new PaperResult(config.spec(), keys.label, config.isRocksDb() ? "rocksdb" : "bellows", w.rows(),
        e.writeNanos(), e.flushes(), e.compactions(), e.flushBytes(), e.compactionBytes(), e.walBytes(),
        w.userBytes(), e.gcCount(), e.gcMillis(), cpu0 < 0 ? PaperResult.NA : cpuMillis, peakHeap(),
        e.blockedNanos() / 1_000_000, e.storeFiles()).withSecondHalf(BenchClients.secondHalfNanos())
        .withCells(e.flushedCells(), e.memoryEliminatedCells()).withWalFiles(e.walFilesRolled(), e.walFilesLive())
        .withWriteLatency(e.putNanos());
  }

  private static Thread progressReporter(long periodMillis) {
    Thread t = new Thread(() -> {
      try {
        while (true) {
          Thread.sleep(periodMillis); // a reporting period, not synchronization
          System.out.println(PROGRESS_PREFIX + BenchClients.ROWS_WRITTEN.sum());
          System.out.flush();
        }
      } catch (InterruptedException done) {
        // the run is over
      }
    }, "paper-progress");
    t.setDaemon(true);
    return t;
  }

  /** CPU time of the whole process (every thread, native ones included), or -1 if unknown. */
  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /** Sum of the heap pools' peaks since they were reset: an upper bound of the peak heap in use. */
  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
