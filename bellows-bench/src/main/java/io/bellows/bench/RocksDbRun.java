package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.client.Put;
import io.bellows.config.Compression;
import io.bellows.config.Knobs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.CompactionJobStats;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The peer of {@link EngineRun}: the same workload — the same row ids, the same four 25-byte
 * cells per row, the same writer threads and batches — written to RocksDB, then the same burst of
 * whole-row gets. A cell is a RocksDB key {@code [row length: 2 bytes][row][family][qualifier]} with
 * the value as its value, so a row's cells are adjacent; a row (or a batch of rows) is one {@link
 * WriteBatch}, atomic as Bellows' row is; the WAL is on without a sync per write (as Bellows'
 * ASYNC_WAL). A whole-row get seeks to the row and reads its cells, as a row scan does. Stall time
 * is RocksDB's STALL_MICROS (delayed and stopped writes together), reported as blocked time.
 */
final class RocksDbRun {
  /** How RocksDB is configured: its defaults, or tuned for this machine and workload. */
  enum Setup {
    /** {@code new Options()}: 64 MiB write buffers, 2 of them, one background job, Snappy. */
    DEFAULT("rocksdb"),
    /**
     * Two background jobs for two cores; write buffers of Bellows' flush size, up to four of them,
     * so that RocksDB's memtables may hold what Bellows' memory store may hold before it blocks
     * (four times the flush size, {@code bellows.memstore.block.multiplier}): the same memory for
     * both. The compression of Bellows' default (LZ4), pipelined writes, 1 MiB bytes-per-sync. A block
     * cache of the share of the heap Bellows' on-heap block cache takes by default ({@link
     * #blockCacheBytes()}: equal cache memory, where RocksDB's own default is 32 MiB) and a Bloom
     * filter of 10 bits per key (Bellows' files carry row Blooms by default).
     */
    TUNED("rocksdb-tuned");

    final String label;

    Setup(String label) {
      this.label = label;
    }

    static Setup ofLabel(String label) {
      for (Setup s : values()) {
        if (s.label.equals(label)) {
          return s;
        }
      }
      throw new IllegalArgumentException("unknown peer '" + label + "': use rocksdb or rocksdb-tuned");
    }
  }

  /** Write buffers RocksDB tuned may hold: Bellows' block multiplier, so that both get the same memory. */
  private static final int MEMTABLES = (int) Math.round(Knobs.MEMSTORE_BLOCK_MULTIPLIER.defaultValue());

  static {
    RocksDB.loadLibrary();
  }

  private RocksDbRun() {}

  /** The options of a setup, as printed with the results. */
  static String describe(Setup setup, long flushSize) {
    return describe(setup, flushSize, null);
  }

  /** {@link #describe(Setup, long)} with the compression set to {@code compression} unless null. */
  static String describe(Setup setup, long flushSize, Compression compression) {
    try (Options o = options(setup, flushSize, compression)) {
      return setup.label + ": RocksDB " + RocksDB.rocksdbVersion() + ", write buffer " + o.writeBufferSize() / 1048576
          + " MiB × " + o.maxWriteBufferNumber() + ", background jobs " + o.maxBackgroundJobs() + ", compression "
          + o.compressionType() + ", pipelined writes " + o.enablePipelinedWrite() + ", L0 slowdown/stop "
          + o.level0SlowdownWritesTrigger() + "/" + o.level0StopWritesTrigger()
          + (setup == Setup.TUNED ? ", block cache " + cacheFraction()
              + " of the heap (Bellows' L1 and L2), Bloom " + BLOOM_BITS_PER_KEY + " bits per key" : "");
    }
  }

  /** Bits per key of RocksDB tuned's Bloom filter: RocksDB's usual setting (about 1% false positives). */
  static final int BLOOM_BITS_PER_KEY = 10;

  /**
   * RocksDB tuned's block cache: the share of this JVM's heap that Bellows' block caches take by
   * default, its on-heap L1 and its off-heap L2 ({@code bellows.blockcache.l1.fraction} +
   * {@code l2.fraction}), so that both stores cache as much. RocksDB's cache lies outside the heap,
   * as Bellows' L2 does.
   */
  static long blockCacheBytes() {
    return (long) (Runtime.getRuntime().maxMemory() * cacheFraction());
  }

  static double cacheFraction() {
    return Knobs.BLOCKCACHE_L1_FRACTION.defaultValue() + Knobs.BLOCKCACHE_L2_FRACTION.defaultValue();
  }

  static Options options(Setup setup, long flushSize) {
    return options(setup, flushSize, null);
  }

  /** A setup's options with the compression set to {@code compression} unless null. */
  static Options options(Setup setup, long flushSize, Compression compression) {
    Options o = new Options().setCreateIfMissing(true);
    if (setup == Setup.TUNED) {
      o.setMaxBackgroundJobs(2)
          .setWriteBufferSize(Math.max(4L << 20, flushSize))
          .setMaxWriteBufferNumber(MEMTABLES)
          .setCompressionType(compressionType(Knobs.COMPRESSION.defaultValue()))
          .setEnablePipelinedWrite(true)
          .setBytesPerSync(1L << 20)
          .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(new LRUCache(blockCacheBytes()))
              .setFilterPolicy(new BloomFilter(BLOOM_BITS_PER_KEY)));
    }
    if (compression != null) {
      o.setCompressionType(compressionType(compression));
    }
    return o;
  }

  /** RocksDB's name for a Bellows compression (LZ4 and ZSTD are the same libraries' formats). */
  static CompressionType compressionType(Compression c) {
    return switch (c) {
      case NONE -> CompressionType.NO_COMPRESSION;
      case LZ4 -> CompressionType.LZ4_COMPRESSION;
      case ZSTD -> CompressionType.ZSTD_COMPRESSION;
    };
  }

  static EngineRunResult run(Setup setup, EngineWorkload w, long flushSize) {
    return run(setup, null, w, flushSize);
  }

  /** Runs the write workload on a fresh RocksDB; {@code compression}, unless null, overrides the setup's. */
  static EngineRunResult run(Setup setup, Compression compression, EngineWorkload w, long flushSize) {
    return run(setup, compression, w, flushSize, IoLog.NONE);
  }

  /** A run whose flushes and compactions are also recorded one by one in {@code io}. */
  static EngineRunResult run(Setup setup, Compression compression, EngineWorkload w, long flushSize, IoLog io) {
    Path dir;
    try {
      Files.createDirectories(w.baseDir());
      dir = Files.createTempDirectory(w.baseDir(), "rocksdb-engbench-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    JvmCounters.heapUsedAfterGc();
    ExecutorService pool = Executors.newFixedThreadPool(w.writers(), r -> {
      Thread t = new Thread(r, "rocksbench-client");
      t.setDaemon(true);
      return t;
    });
    AtomicLong flushes = new AtomicLong();
    AtomicLong compactions = new AtomicLong();
    AbstractEventListener counter = new AbstractEventListener() {
      @Override
      public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
        flushes.incrementAndGet();
        if (io.enabled()) {
          TableProperties t = info.getTableProperties();
          io.flush(t.getRawKeySize() + t.getRawValueSize(), t.getNumEntries(), fileSize(info.getFilePath()),
              t.getNumEntries(), -1);
        }
      }

      @Override
      public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
        compactions.incrementAndGet();
        if (io.enabled()) {
          CompactionJobStats s = info.stats();
          io.compaction(info.inputFiles().size(), s.totalInputBytes(), s.numInputRecords(), s.totalOutputBytes(),
              s.numOutputRecords(), s.elapsedMicros() / 1000);
        }
      }
    };
    try (Statistics stats = new Statistics();
         Options options = options(setup, flushSize, compression).setStatistics(stats).setListeners(List.of(counter));
         RocksDB db = RocksDB.open(options, dir.toString());
         WriteOptions writeOptions = new WriteOptions().setSync(false)) {
      List<BenchClients.RowWriter> writers = new ArrayList<>();
      long perWriter = w.rows() / w.writers();
      for (int i = 0; i < w.writers(); i++) {
        long rows = i == 0 ? w.rows() - perWriter * (w.writers() - 1) : perWriter;
        long sample = Math.max(1, Math.min(rows, w.gets() / w.writers() + 1));
        writers.add(writer(db, writeOptions, w.keys().chooser(w.keySpace(), w.seed() + i, i, w.writers()),
            w.puts(w.seed() + i), rows, (int) sample, w.batch()));
      }
      JvmCounters.Sample gcBefore = JvmCounters.sample();
      long start = System.nanoTime();
      BenchClients.runAll(pool, writers);
      long writeNanos = System.nanoTime() - start;
      JvmCounters.Sample gc = JvmCounters.sample().minus(gcBefore);
      long stallMicros = stats.getTickerCount(TickerType.STALL_MICROS);
      long walBytes = stats.getTickerCount(TickerType.WAL_FILE_BYTES);
      long walSyncs = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
      long walRecords = stats.getTickerCount(TickerType.WRITE_DONE_BY_SELF)
          + stats.getTickerCount(TickerType.WRITE_DONE_BY_OTHER);

      Histogram putNanos = new Histogram(3);
      List<BenchClients.RowReader> readers = new ArrayList<>();
      long perReader = w.gets() / w.writers();
      for (int i = 0; i < w.writers(); i++) {
        BenchClients.RowWriter wr = writers.get(i);
        putNanos.add(wr.latency);
        long gets = i == 0 ? w.gets() - perReader * (w.writers() - 1) : perReader;
        readers.add(reader(db, wr.puts, wr.sampledIds(), gets, new SplittableRandom(w.seed() + 1000 + i)));
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
      try (org.rocksdb.FlushOptions fo = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
        db.flush(fo);
      }
      long files = db.getLiveFilesMetaData().size();
      return new EngineRunResult(null, w, writeNanos, flushes.get(), compactions.get(),
          stats.getTickerCount(TickerType.FLUSH_WRITE_BYTES), stats.getTickerCount(TickerType.COMPACT_WRITE_BYTES),
          walBytes, walRecords, walSyncs, stallMicros * 1000, 0, 0, gc.gcCount(), gc.gcMillis(), files,
          putNanos, getNanos, misses, getLatency, -1, -1, -1, -1);
    } catch (RocksDBException e) {
      throw new IllegalStateException("RocksDB failed: " + e.getMessage(), e);
    } finally {
      pool.shutdownNow();
      EngineRun.deleteRecursively(dir);
    }
  }

  /** A cell's RocksDB key: the row's length (2 bytes), the row, the family, the qualifier. */
  static byte[] cellKey(byte[] row, byte[] family, byte[] qualifier) {
    ByteBuffer b = ByteBuffer.allocate(2 + row.length + family.length + qualifier.length);
    b.putShort((short) row.length).put(row).put(family).put(qualifier);
    return b.array();
  }

  static byte[] rowPrefix(byte[] row) {
    return ByteBuffer.allocate(2 + row.length).putShort((short) row.length).put(row).array();
  }

  /** A writer of rows into RocksDB: each call's rows, every cell a key, in one {@link WriteBatch}. */
  private static BenchClients.RowWriter writer(RocksDB db, WriteOptions options, KeyChooser keys, PaperPuts puts,
      long rows, int sample, int batch) {
    return new BenchClients.RowWriter(keys, puts, rows, sample, batch) {
      @Override
      void write(List<Put> rows) throws RocksDBException {
        try (WriteBatch b = new WriteBatch()) {
          for (Put put : rows) {
            for (Cell c : put.cells()) {
              b.put(cellKey(c.row(), c.family(), c.qualifier()), c.value());
            }
          }
          db.write(options, b);
        }
      }
    };
  }

  /** A reader of whole rows from RocksDB: seek to the row, read its cells. */
  private static BenchClients.RowReader reader(RocksDB db, PaperPuts keys, long[] ids, long gets,
      SplittableRandom random) {
    return new BenchClients.RowReader(keys, ids, gets, random) {
      @Override
      int cellsOf(byte[] row) {
        byte[] prefix = rowPrefix(row);
        int cells = 0;
        try (RocksIterator it = db.newIterator()) {
          for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
            it.value();
            cells++;
          }
        }
        return cells;
      }
    };
  }

  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** A new file's size, or -1 if it is gone already (compacted away before the callback ran). */
  private static long fileSize(String path) {
    try {
      return Files.size(Path.of(path));
    } catch (IOException e) {
      return -1;
    }
  }
}
