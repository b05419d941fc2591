package io.bellows.engine;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The child process of {@link SplitCrashTest}: writes rows (FSYNC_WAL, printing {@code ACK <n>}
 * after each put returns), flushing part of them, then splits the table while another thread goes
 * on writing; at the named split step it prints {@code PAUSED} and waits there for ever, and the
 * parent kills it with SIGKILL.
 *
 * <p>Arguments: data directory, split step ({@link SplitListener#STEPS}).
 */
public final class SplitCrashWriter {
  static final String TABLE = "splitcrash";
  static final byte[] FAMILY = Bytes.of("f");
  static final byte[] SPLIT_KEY = row(300);

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    String step = args[1];
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false);
    CountDownLatch never = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean splitting = new java.util.concurrent.atomic.AtomicBoolean();
    SplitListener pauseAtStep = s -> {
      if (splitting.get() && s.equals(step)) {
        synchronized (out) {
          out.println("PAUSED " + s);
          out.flush();
        }
        try {
          never.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    Bellows db = Bellows.over(LocalEngine.open(dir, EngineOptions.defaults(), io.bellows.fs.LocalFileSystem.INSTANCE,
        pauseAtStep));
    db.createTable(TableDescriptor.builder(TABLE).family("f").build());
    Table t = db.getTable(TABLE);
    for (int n = 0; n < 600; n++) {
      put(t, n, out);
      if (n == 400) {
        db.flush(TABLE); // rows 0..400 in a sorted file, the rest only in the WAL and memory
      }
    }
    splitting.set(true); // the rows are written: pause at the step of the split below
    Thread writer = new Thread(() -> {
      for (int n = 600; ; n++) {
        put(t, n, out); // blocked while the split holds the region; acknowledged rows must survive
      }
    });
    writer.setDaemon(true);
    writer.start();
    db.split(TABLE, SPLIT_KEY);
    writer.join();
  }

  private static void put(Table t, int n, PrintStream out) {
    t.put(new Put(row(n)).setDurability(Durability.FSYNC_WAL).addColumn(FAMILY, Bytes.of("q"), value(n)));
    synchronized (out) {
      out.println("ACK " + n);
      out.flush();
    }
  }

  static byte[] row(int n) {
    return Bytes.of(String.format("r%06d", n));
  }

  static byte[] value(int n) {
    return Bytes.of("value-" + n);
  }
}
