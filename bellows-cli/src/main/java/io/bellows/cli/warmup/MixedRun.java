package io.bellows.cli.warmup;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The warm-up workload, YCSB A's shape on an embedded store: a table of {@code records} rows of 10
 * columns of 100 bytes (YCSB's record), then client threads that each get a whole row or put one
 * column of a row, half and half, rows chosen by YCSB's scrambled Zipf law ({@link YcsbKeys}). The
 * run counts operations per second of wall time, so that a fresh JVM's first seconds can be set
 * against its steady rate ({@link WarmupSummary}).
 */
public final class MixedRun {
  public static final String TABLE = "usertable";
  /** A table of one row saying how many records the load put, so that a run draws from exactly those. */
  static final String LOADED = "warmup_loaded";
  private static final byte[] LOADED_ROW = Bytes.of("records");
  static final byte[] FAMILY = Bytes.of("f");
  static final int FIELDS = 10;
  static final int FIELD_BYTES = 100;
  private static final byte[][] QUALIFIERS = new byte[FIELDS][];

  static {
    for (int i = 0; i < FIELDS; i++) {
      QUALIFIERS[i] = Bytes.of("field" + i);
    }
  }

  private MixedRun() {}

  /**
   * Creates the table (if missing), puts records 0 to {@code records - 1} in batches of 100, then
   * notes their count ({@link #loadedRecords}).
   */
  public static void load(Bellows db, long records, long seed) {
    for (String name : List.of(TABLE, LOADED)) {
      if (!db.tableExists(name)) {
        db.createTable(TableDescriptor.builder(name).family(ColumnFamilyDescriptor.builder("f").build()).build());
      }
    }
    Table t = db.getTable(TABLE);
    SplittableRandom random = new SplittableRandom(seed);
    List<Put> batch = new ArrayList<>(100);
    for (long n = 0; n < records; n++) {
      Put put = new Put(YcsbKeys.row(n));
      for (byte[] q : QUALIFIERS) {
        put.addColumn(FAMILY, q, value(random));
      }
      batch.add(put);
      if (batch.size() == 100 || n == records - 1) {
        t.put(batch);
        batch = new ArrayList<>(100);
      }
    }
    db.getTable(LOADED).put(new Put(LOADED_ROW).addColumn(FAMILY, FAMILY, Bytes.of(Long.toString(records))));
  }

  /** The records a finished {@link #load} put in this store; 0 when none finished. */
  public static long loadedRecords(Bellows db) {
    if (!db.tableExists(LOADED)) {
      return 0;
    }
    byte[] n = db.getTable(LOADED).get(new Get(LOADED_ROW)).getValue(FAMILY, FAMILY);
    return n == null ? 0 : Long.parseLong(Bytes.str(n));
  }

  /**
   * Runs the mixed workload for {@code seconds} seconds on {@code threads} threads, each with its own
   * random stream from {@code seed}, over records 0 to {@code records - 1}; gets are {@code readShare}
   * of the operations. Prints each second's count to {@code progress} (null: silent) and returns the
   * counts with the process's CPU time of each second. Throws the first error a client met.
   */
  public static Samples run(Bellows db, long records, int threads, double readShare, int seconds, long seed,
      PrintStream progress) throws InterruptedException {
    Table t = db.getTable(TABLE);
    LongAdder ops = new LongAdder();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] clients = new Thread[threads];
    AtomicBoolean stop = new AtomicBoolean();
    SplittableRandom root = new SplittableRandom(seed);
    for (int i = 0; i < threads; i++) {
      SplittableRandom mine = root.split(); // the same streams for the same seed and thread count
      clients[i] = new Thread(() -> {
        YcsbKeys keys = new YcsbKeys(records, mine.split());
        try {
          while (!stop.get()) {
            byte[] row = YcsbKeys.row(keys.nextRecord());
            if (mine.nextDouble() < readShare) {
              t.get(new Get(row).addFamily(FAMILY));
            } else {
              t.put(new Put(row).addColumn(FAMILY, QUALIFIERS[mine.nextInt(FIELDS)], value(mine)));
            }
            ops.increment();
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          stop.set(true);
        }
      }, "warmup-client-" + i);
    }
    long[] perSecond = new long[seconds];
    long[] cpu = new long[seconds];
    long cpuBefore = processCpuNanos();
    long start = System.nanoTime();
    for (Thread c : clients) {
      c.start();
    }
    try {
      long before = 0;
      for (int s = 0; s < seconds && !stop.get(); s++) {
        long due = start + (s + 1) * 1_000_000_000L;
        for (long left; (left = due - System.nanoTime()) > 0; ) {
          Thread.sleep(Math.max(1, left / 1_000_000));
        }
        long now = ops.sum();
        long cpuNow = processCpuNanos();
        perSecond[s] = now - before;
        cpu[s] = cpuNow - cpuBefore;
        before = now;
        cpuBefore = cpuNow;
        if (progress != null) {
          progress.printf(java.util.Locale.ROOT, "second %d: %,d ops, %,d ms CPU%n", s + 1, perSecond[s],
              cpu[s] / 1_000_000);
        }
      }
    } finally {
      stop.set(true);
      for (Thread c : clients) {
        c.join();
      }
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a client failed: " + failure.get(), failure.get());
    }
    return new Samples(perSecond, cpu);
  }

  /** Operations done, and CPU time the process used, in each second of a run. */
  public record Samples(long[] perSecond, long[] cpuNanos) {}

  /** The CPU time of every thread of this process (JIT compilers and GC included); 0 if unknown. */
  static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return Math.max(0, os.getProcessCpuTime());
    }
    return 0;
  }

  /** {@code ops} operations of the mix from this thread, on records {@link #loadedRecords} says (training). */
  public static void runOps(Bellows db, int ops, long seed) {
    long records = loadedRecords(db);
    Table t = db.getTable(TABLE);
    SplittableRandom random = new SplittableRandom(seed);
    YcsbKeys keys = new YcsbKeys(Math.max(1, records), random.split());
    for (int i = 0; i < ops; i++) {
      byte[] row = YcsbKeys.row(keys.nextRecord());
      if (random.nextBoolean()) {
        t.get(new Get(row).addFamily(FAMILY));
      } else {
        t.put(new Put(row).addColumn(FAMILY, QUALIFIERS[random.nextInt(FIELDS)], value(random)));
      }
    }
  }

  /** A value of {@link #FIELD_BYTES} printable random bytes. */
  private static byte[] value(SplittableRandom random) {
    byte[] v = new byte[FIELD_BYTES];
    for (int i = 0; i < v.length; i++) {
      v[i] = (byte) (' ' + random.nextInt(95));
    }
    return v;
  }
}
