package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.client.Put;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
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
     * Two background jobs for two cores, write buffers the size of Bellows' flush size × 4 (the
     * memory Bellows' memory store may use before it blocks), up to four of them, no compression
     * (Bellows' default), pipelined writes, 1 MiB bytes-per-sync.
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

  static {
    RocksDB.loadLibrary();
  }

  private RocksDbRun() {}

  /** The options of a setup, as printed with the results. */
  static String describe(Setup setup, long flushSize) {
    try (Options o = options(setup, flushSize)) {
      return setup.label + ": RocksDB " + RocksDB.rocksdbVersion() + ", write buffer " + o.writeBufferSize() / 1048576
          + " MiB × " + o.maxWriteBufferNumber() + ", background jobs " + o.maxBackgroundJobs() + ", compression "
          + o.compressionType() + ", pipelined writes " + o.enablePipelinedWrite() + ", L0 slowdown/stop "
          + o.level0SlowdownWritesTrigger() + "/" + o.level0StopWritesTrigger();
    }
  }

  private static Options options(Setup setup, long flushSize) {
    Options o = new Options().setCreateIfMissing(true);
    if (setup == Setup.TUNED) {
      o.setMaxBackgroundJobs(2)
          .setWriteBufferSize(Math.max(4L << 20, flushSize * 4))
          .setMaxWriteBufferNumber(4)
          .setCompressionType(CompressionType.NO_COMPRESSION)
          .setEnablePipelinedWrite(true)
          .setBytesPerSync(1L << 20);
    }
    return o;
  }

  static EngineRunResult run(Setup setup, EngineWorkload w, long flushSize) {
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
      }

      @Override
      public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
        compactions.incrementAndGet();
      }
    };
    try (Statistics stats = new Statistics();
         Options options = options(setup, flushSize).setStatistics(stats).setListeners(List.of(counter));
         RocksDB db = RocksDB.open(options, dir.toString());
         WriteOptions writeOptions = new WriteOptions().setSync(false)) {
      List<Writer> writers = new ArrayList<>();
      long perWriter = w.rows() / w.writers();
      for (int i = 0; i < w.writers(); i++) {
        long rows = i == 0 ? w.rows() - perWriter * (w.writers() - 1) : perWriter;
        long sample = Math.max(1, Math.min(rows, w.gets() / w.writers() + 1));
        writers.add(new Writer(db, writeOptions, w.keys().chooser(w.keySpace(), w.seed() + i),
            new PaperPuts(w.seed() + i), rows, (int) sample, w.batch()));
      }
      JvmCounters.Sample gcBefore = JvmCounters.sample();
      long start = System.nanoTime();
      runAll(pool, writers);
      long writeNanos = System.nanoTime() - start;
      JvmCounters.Sample gc = JvmCounters.sample().minus(gcBefore);
      long stallMicros = stats.getTickerCount(TickerType.STALL_MICROS);
      long walBytes = stats.getTickerCount(TickerType.WAL_FILE_BYTES);
      long walSyncs = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
      long walRecords = stats.getTickerCount(TickerType.WRITE_DONE_BY_SELF)
          + stats.getTickerCount(TickerType.WRITE_DONE_BY_OTHER);

      Histogram putNanos = new Histogram(3);
      List<Reader> readers = new ArrayList<>();
      long perReader = w.gets() / w.writers();
      for (int i = 0; i < w.writers(); i++) {
        Writer wr = writers.get(i);
        putNanos.add(wr.latency);
        long gets = i == 0 ? w.gets() - perReader * (w.writers() - 1) : perReader;
        readers.add(new Reader(db, wr.puts, wr.sampledIds(), gets, new SplittableRandom(w.seed() + 1000 + i)));
      }
      long getStart = System.nanoTime();
      runAll(pool, readers);
      long getNanos = w.gets() == 0 ? 0 : System.nanoTime() - getStart;
      Histogram getLatency = new Histogram(3);
      long misses = 0;
      for (Reader r : readers) {
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
          putNanos, getNanos, misses, getLatency);
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

  private static byte[] rowPrefix(byte[] row) {
    return ByteBuffer.allocate(2 + row.length).putShort((short) row.length).put(row).array();
  }

  private static void runAll(ExecutorService pool, List<? extends Callable<Void>> tasks) {
    try {
      for (Future<Void> f : pool.invokeAll(tasks)) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a benchmark client failed", e.getCause());
    }
  }

  /** One writer thread, as {@link EngineRun}'s: its rows in batches, each call's latency recorded. */
  private static final class Writer implements Callable<Void> {
    final RocksDB db;
    final WriteOptions options;
    final KeyChooser keys;
    final PaperPuts puts;
    final long rows;
    final long[] sampled;
    final long stride;
    final int batch;
    int sampledCount;
    final Histogram latency = new Histogram(3);

    Writer(RocksDB db, WriteOptions options, KeyChooser keys, PaperPuts puts, long rows, int sampleSize, int batch) {
      this.db = db;
      this.options = options;
      this.keys = keys;
      this.puts = puts;
      this.rows = rows;
      this.sampled = new long[sampleSize];
      this.stride = Math.max(1, rows / sampleSize);
      this.batch = batch;
    }

    @Override
    public Void call() throws RocksDBException {
      WriteBatch pending = new WriteBatch();
      int inBatch = 0;
      try {
        for (long i = 0; i < rows; i++) {
          long id = keys.nextRowId();
          Put put = puts.put(id);
          if (i % stride == 0 && sampledCount < sampled.length) {
            sampled[sampledCount++] = id;
          }
          for (Cell c : put.cells()) {
            pending.put(cellKey(c.row(), c.family(), c.qualifier()), c.value());
          }
          if (++inBatch == batch || i == rows - 1) {
            long t0 = System.nanoTime();
            db.write(options, pending);
            latency.recordValue(System.nanoTime() - t0);
            pending.clear();
            inBatch = 0;
          }
        }
      } finally {
        pending.close();
      }
      return null;
    }

    long[] sampledIds() {
      return java.util.Arrays.copyOf(sampled, sampledCount);
    }
  }

  /** One reader thread of the get burst: seek to a sampled row, read its cells; each must have 4. */
  private static final class Reader implements Callable<Void> {
    final RocksDB db;
    final PaperPuts keys;
    final long[] ids;
    final long gets;
    final SplittableRandom random;
    final Histogram latency = new Histogram(3);
    long misses;

    Reader(RocksDB db, PaperPuts keys, long[] ids, long gets, SplittableRandom random) {
      this.db = db;
      this.keys = keys;
      this.ids = ids;
      this.gets = gets;
      this.random = random;
    }

    @Override
    public Void call() {
      if (ids.length == 0) {
        return null;
      }
      try (ReadOptions ro = new ReadOptions()) {
        for (long i = 0; i < gets; i++) {
          byte[] prefix = rowPrefix(keys.rowKey(ids[random.nextInt(ids.length)]));
          long t0 = System.nanoTime();
          int cells = 0;
          try (RocksIterator it = db.newIterator(ro)) {
            for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
              it.value();
              cells++;
            }
          }
          latency.recordValue(System.nanoTime() - t0);
          if (cells != PaperRows.CELLS_PER_ROW) {
            misses++;
          }
        }
      }
      return null;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
      return key.length >= prefix.length && java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
  }
}
