package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.LocalFileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine on the local disk while some of its callers are interrupted again and again: readers
 * (gets and scans), and callers of compactions, puts and flushes (which write and force the WAL).
 * Steady threads (gets, scans, puts) are never interrupted and must succeed on every call; an interrupted caller may fail, but only because of
 * its interrupt. Afterwards every acknowledged write is readable, before and after a reopen. No
 * block cache, so every data block read goes to a file shared by all readers.
 */
@ExtendWith(SeedExtension.class)
class InterruptTest {
  private static final int ROWS = 400;
  private static final int STEADY_GETS = 1500;
  private static final int STEADY_SCANS = 40;
  private static final int STEADY_PUTS = 600;
  private static final int STEADY_FLUSHES = 30;
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private static byte[] row(int i) {
    return Bytes.of(String.format("r%05d", i));
  }

  private static byte[] value(int i, int version) {
    return Bytes.of("v" + i + "-" + version + "-" + "x".repeat(100));
  }

  private Bellows open() {
    EngineOptions opts = EngineOptions.builder().set(Knobs.BLOCKCACHE_L1_FRACTION, 0.0)
        .set(Knobs.COMPACTION_MIN_FILES, 2).build();
    return Bellows.open(dir, opts, LocalFileSystem.INSTANCE);
  }

  /** Whether {@code e} or a cause of it is the answer to an interrupt. */
  private static boolean causedByInterrupt(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InterruptedIOException || t instanceof InterruptedException
          || t instanceof ClosedByInterruptException) {
        return true;
      }
    }
    return false;
  }

  @Test
  void onlyInterruptedCallersFailAndNothingAcknowledgedIsLost(Seed seed) throws Exception {
    Map<Integer, byte[]> acked = new ConcurrentHashMap<>();
    try (Bellows db = open()) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).durability(Durability.SYNC_WAL)
          .family(ColumnFamilyDescriptor.builder("f").blockSize(1024).build()).build());
      Table t = db.getTable("t");
      for (int i = 0; i < ROWS; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, value(i, 0)));
        acked.put(i, value(i, 0));
        if (i % 100 == 99) {
          db.flush("t");
        }
      }

      List<Throwable> steadyFailures = Collections.synchronizedList(new ArrayList<>());
      List<Throwable> victimFailures = Collections.synchronizedList(new ArrayList<>());
      AtomicInteger interruptedCalls = new AtomicInteger();
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> steady = new ArrayList<>();
      List<Thread> victims = new ArrayList<>();

      // Steady threads: never interrupted, every call must work.
      for (int g = 0; g < 2; g++) {
        Random r = seed.random(g);
        steady.add(new Thread(() -> {
          for (int n = 0; n < STEADY_GETS; n++) {
            int i = r.nextInt(ROWS);
            Result res = t.get(new Get(row(i)));
            assertThat(res.isEmpty()).as("row %d", i).isFalse();
          }
        }, "steady-get-" + g));
      }
      steady.add(new Thread(() -> {
        for (int n = 0; n < STEADY_SCANS; n++) {
          int rows = 0;
          try (ResultScanner s = t.getScanner(new Scan())) {
            for (Result ignored : s) {
              rows++;
            }
          }
          assertThat(rows).isGreaterThanOrEqualTo(ROWS);
        }
      }, "steady-scan"));
      steady.add(new Thread(() -> {
        for (int n = 0; n < STEADY_PUTS; n++) {
          int i = ROWS + n;
          t.put(new Put(row(i)).addColumn(F, Q, value(i, 1)));
          acked.put(i, value(i, 1));
        }
      }, "steady-put"));

      // Victims: interrupted again and again; a failure is allowed only as the answer to an interrupt.
      for (int v = 0; v < 2; v++) {
        Random r = seed.random(10 + v);
        boolean scans = v == 1;
        victims.add(new Thread(() -> {
          while (!stop.get()) {
            try {
              if (scans) {
                try (ResultScanner s = t.getScanner(new Scan().withStartRow(row(r.nextInt(ROWS))))) {
                  for (int k = 0; k < 50 && s.next() != null; k++) {
                    // read on
                  }
                }
              } else {
                t.get(new Get(row(r.nextInt(ROWS))));
              }
            } catch (RuntimeException e) {
              record(e, victimFailures, interruptedCalls);
            }
            Thread.interrupted(); // an interrupt that found nothing to stop: clear it
          }
        }, "victim-" + (scans ? "scan" : "get")));
      }
      victims.add(new Thread(() -> {
        while (!stop.get()) {
          try {
            db.compact("t");
            db.majorCompact("t");
          } catch (RuntimeException e) {
            record(e, victimFailures, interruptedCalls);
          }
          Thread.interrupted();
        }
      }, "victim-compact"));
      // Flushes keep coming (compactions need new files), their caller interrupted too.
      Thread flusher = new Thread(() -> {
        for (int n = 0; n < STEADY_FLUSHES; n++) {
          try {
            db.flush("t");
          } catch (RuntimeException e) {
            record(e, victimFailures, interruptedCalls);
            Thread.interrupted();
          }
        }
      }, "flush");
      victims.add(flusher);
      Random putRows = seed.random(20);
      victims.add(new Thread(() -> {
        while (!stop.get()) {
          int i = ROWS + STEADY_PUTS + putRows.nextInt(ROWS);
          try {
            t.put(new Put(row(i)).addColumn(F, Q, value(i, 2)));
            acked.put(i, value(i, 2));
          } catch (RuntimeException e) {
            record(e, victimFailures, interruptedCalls);
          }
          Thread.interrupted();
        }
      }, "victim-put"));

      CountDownLatch steadyDone = new CountDownLatch(steady.size());
      List<Thread> steadyRunners = new ArrayList<>();
      for (Thread s : steady) {
        steadyRunners.add(new Thread(() -> {
          try {
            s.run();
          } catch (Throwable e) {
            steadyFailures.add(new AssertionError(s.getName() + " failed", e));
          } finally {
            steadyDone.countDown();
          }
        }, s.getName()));
      }
      victims.forEach(Thread::start);
      steadyRunners.forEach(Thread::start);
      Random interrupter = seed.random(30);
      while (steadyDone.getCount() > 0) { // bounded by the steady threads' call counts
        victims.get(interrupter.nextInt(victims.size())).interrupt();
        Thread.yield();
      }
      stop.set(true);
      for (Thread v : victims) {
        v.join();
      }
      for (Thread s : steadyRunners) {
        s.join();
      }
      System.out.println("interrupted calls that failed: " + interruptedCalls.get());
      assertThat(steadyFailures).as("calls of threads never interrupted").isEmpty();
      assertThat(victimFailures).as("failures of interrupted callers not caused by their interrupt").isEmpty();
      assertThat(db.backgroundError()).as("background error").isEmpty();
      checkAll(db.getTable("t"), acked);
      db.flush("t");
      db.majorCompact("t");
      checkAll(db.getTable("t"), acked);
    }
    try (Bellows db = open()) {
      Table t = db.getTable("t");
      checkAll(t, acked);
      t.put(new Put(row(0)).addColumn(F, Q, value(0, 9)));
      assertThat(t.get(new Get(row(0))).getValue(F, Q)).isEqualTo(value(0, 9));
    }
  }

  private static void record(RuntimeException e, List<Throwable> unexpected, AtomicInteger interrupted) {
    if (causedByInterrupt(e)) {
      interrupted.incrementAndGet();
    } else {
      unexpected.add(e);
    }
  }

  private static void checkAll(Table t, Map<Integer, byte[]> acked) {
    for (Map.Entry<Integer, byte[]> e : acked.entrySet()) {
      assertThat(t.get(new Get(row(e.getKey()))).getValue(F, Q)).as("row %d", e.getKey()).isEqualTo(e.getValue());
    }
  }
}
