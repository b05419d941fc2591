package io.bellows.engine;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.Durability;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process of {@link CrashRecoveryTest}: opens the store, then writes rows from several
 * threads forever, printing {@code ACK <writer> <n>} after each put returns. The parent kills it
 * with SIGKILL at a random moment and checks what survived.
 *
 * <p>Arguments: data directory, durability, configuration name ({@link EngineConfigurations}), start
 * sequence per writer, writers, rows per batch, regions: {@code false} (one region), {@code true}
 * (pre-split at {@link #SPLITS}) or {@code online} (one region at first; every {@link
 * #ACKS_PER_SPLIT} acknowledgements a thread splits the region of the row last acknowledged at that
 * row, so the kill can land in any step of a split).
 */
public final class CrashWriter {
  static final String TABLE = "crash";
  static final byte[] FAMILY = Bytes.of("f");
  /**
   * Split keys of the pre-split table: four regions; writer 0's rows cross a boundary in the first
   * round, writer 1's rows move to the last region from the second round on.
   */
  static final List<byte[]> SPLITS = List.of(Bytes.of("w0-0000000300"), Bytes.of("w1"),
      Bytes.of("w1-0001000000"));
  static final int ACKS_PER_SPLIT = 150;

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Durability durability = Durability.valueOf(args[1]);
    EngineConfigurations config = EngineConfigurations.named(args[2]);
    long start = Long.parseLong(args[3]);
    int writers = Integer.parseInt(args[4]);
    int batch = args.length > 5 ? Integer.parseInt(args[5]) : 1;
    String regions = args.length > 6 ? args[6] : "false";
    boolean split = regions.equals("true");
    boolean online = regions.equals("online");
    EngineOptions options = config.engine(EngineOptions.builder())
        .set(Knobs.WAL_ROLL_SIZE, 64L * 1024)
        .set(Knobs.WAL_ASYNC_SYNC_PERIOD_MS, 5L)
        .build();
    Bellows db = Bellows.open(dir, options);
    if (!db.tableExists(TABLE)) {
      db.createTable(TableDescriptor.builder(TABLE)
          .flushSize(64L * 1024)
          .family(config.family("f").blockSize(4096).build())
          .build(), split ? SPLITS : List.of());
    }
    Table t = db.getTable(TABLE);
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false);
    out.println("OPEN");
    out.flush();
    List<Thread> threads = new ArrayList<>();
    java.util.concurrent.Semaphore splitsDue = new java.util.concurrent.Semaphore(0);
    java.util.concurrent.atomic.AtomicReference<byte[]> lastAcked = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicLong acks = new java.util.concurrent.atomic.AtomicLong();
    if (online) {
      Thread splitter = new Thread(() -> {
        while (true) {
          splitsDue.acquireUninterruptibly();
          try {
            db.split(TABLE, lastAcked.get());
          } catch (IllegalArgumentException e) {
            // that row starts a region already
          }
        }
      }, "splitter");
      splitter.setDaemon(true);
      splitter.start();
    }
    for (int w = 0; w < writers; w++) {
      final int writer = w;
      Thread th = new Thread(() -> {
        List<Put> puts = new ArrayList<>(batch);
        for (long n = start; ; n++) {
          byte[] row = rowKey(writer, n);
          Put p = new Put(row).setDurability(durability);
          for (int c = 0; c < 3; c++) {
            p.addColumn(FAMILY, Bytes.of("c" + c), value(writer, n));
          }
          puts.add(p);
          if (puts.size() < batch) {
            continue;
          }
          if (batch == 1) {
            t.put(p);
          } else {
            t.put(puts);
          }
          synchronized (out) {
            for (long k = n - puts.size() + 1; k <= n; k++) {
              out.println("ACK " + writer + " " + k);
            }
            out.flush();
            lastAcked.set(row);
            long total = acks.addAndGet(puts.size());
            if (total / ACKS_PER_SPLIT > (total - puts.size()) / ACKS_PER_SPLIT) {
              splitsDue.release();
            }
          }
          puts = new ArrayList<>(batch);
        }
      });
      th.start();
      threads.add(th);
    }
    for (Thread th : threads) {
      th.join();
    }
  }

  static byte[] rowKey(int writer, long n) {
    return Bytes.of(String.format("w%d-%010d", writer, n));
  }

  static byte[] value(int writer, long n) {
    return Bytes.of("value-" + writer + "-" + n + "-" + "x".repeat(40));
  }
}
