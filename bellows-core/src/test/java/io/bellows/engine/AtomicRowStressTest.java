package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.client.Append;
import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Increment;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.MemStorePolicy;
import io.bellows.filter.CompareOperator;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Several threads increment every counter column of two rows (columns in two families, so in two
 * stores) by one seeded amount per operation, an appender appends one byte to a column of each
 * family, and a thread runs conditional increments; meanwhile readers get and scan the rows, a
 * thread flushes and compacts, and the table splits between the rows. A reader must never see the
 * counters of a row differ, nor the two appended columns: an increment or append of several
 * columns is one atomic write. At the end every counter holds the sum of the amounts applied to
 * its row. Prints its seed; replay with -Dbellows.test.seed=N.
 */
@ExtendWith(SeedExtension.class)
class AtomicRowStressTest {
  private static final int INCREMENTERS = 4;
  private static final int OPERATIONS = 300;
  private static final byte[][] ROWS = {Bytes.of("a"), Bytes.of("z")};
  private static final byte[][] FAMILIES = {Bytes.of("f"), Bytes.of("g")};
  private static final byte[][] COUNTERS = {Bytes.of("c0"), Bytes.of("c1"), Bytes.of("c2")};
  private static final byte[] LOG = Bytes.of("log");

  @TempDir Path dir;

  static List<EngineConfigurations> configurations() {
    List<EngineConfigurations> out = new ArrayList<>();
    for (EngineConfigurations c : EngineConfigurations.all()) {
      if (out.isEmpty() && c.policy() == MemStorePolicy.NONE
          || out.size() == 1 && c.policy() == MemStorePolicy.EAGER && c.mslab()) {
        out.add(c); // the classic memory store, and the one that compacts overwritten counters away
      }
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void readersNeverSeeTheColumnsOfARowDiverge(EngineConfigurations config, Seed seed) throws Exception {
    EngineOptions opts = config.engine(EngineOptions.builder()).build();
    try (LocalEngine engine = LocalEngine.open(dir, opts); Bellows db = Bellows.over(engine)) {
      TableDescriptor.Builder tb = TableDescriptor.builder("t").flushSize(64L * 1024).durability(Durability.ASYNC_WAL);
      for (byte[] f : FAMILIES) {
        tb.family(config.family(Bytes.str(f)).maxVersions(2).blockSize(1024).build());
      }
      db.createTable(tb.build());
      Table t = db.getTable("t");
      TableRef ref = engine.table("t");
      AtomicLongArray applied = new AtomicLongArray(ROWS.length); // sum of applied amounts per row
      AtomicLongArray appends = new AtomicLongArray(ROWS.length);
      AtomicBoolean done = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      CountDownLatch writersDone = new CountDownLatch(INCREMENTERS + 2);
      CountDownLatch halfway = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < INCREMENTERS; w++) {
        Random rnd = seed.random(w);
        boolean first = w == 0;
        threads.add(thread(failure, writersDone, () -> {
          for (int op = 0; op < OPERATIONS; op++) {
            int row = rnd.nextInt(ROWS.length);
            long amount = rnd.nextInt(201) - 100;
            Increment inc = new Increment(ROWS[row]).setReturnResults(rnd.nextBoolean());
            for (byte[] f : FAMILIES) {
              for (byte[] q : COUNTERS) {
                inc.addColumn(f, q, amount);
              }
            }
            Result r = t.increment(inc);
            applied.addAndGet(row, amount);
            if (!r.isEmpty()) {
              checkCounters(r);
            }
            if (first && op == OPERATIONS / 2) {
              halfway.countDown();
            }
          }
        }));
      }
      Random appenderRandom = seed.random(100);
      threads.add(thread(failure, writersDone, () -> {
        for (int op = 0; op < OPERATIONS; op++) {
          int row = appenderRandom.nextInt(ROWS.length);
          byte[] one = {(byte) ('a' + appenderRandom.nextInt(26))};
          Append app = new Append(ROWS[row]);
          for (byte[] f : FAMILIES) {
            app.addColumn(f, LOG, one);
          }
          checkLogs(t.append(app));
          appends.incrementAndGet(row);
        }
      }));
      Random conditionalRandom = seed.random(200);
      threads.add(thread(failure, writersDone, () -> {
        CompareOperator[] ops = CompareOperator.values();
        for (int op = 0; op < OPERATIONS; op++) {
          int row = conditionalRandom.nextInt(ROWS.length);
          long amount = conditionalRandom.nextInt(21) - 10;
          Condition c = Condition.column(FAMILIES[1], COUNTERS[0], ops[conditionalRandom.nextInt(ops.length)],
              Bytes.toBytes((long) conditionalRandom.nextInt(201) - 100));
          List<ColumnUpdate> updates = new ArrayList<>();
          for (byte[] f : FAMILIES) {
            for (byte[] q : COUNTERS) {
              updates.add(ColumnUpdate.increment(f, q, amount));
            }
          }
          Outcome o = engine.mutateRow(ref, new RowOperation(RowMutation.of(ROWS[row], List.of(), Durability.USE_DEFAULT),
              c, updates, true));
          if (o.applied()) {
            applied.addAndGet(row, amount);
            checkCounters(new Result(ROWS[row], o.values()));
          }
        }
      }));
      for (int r = 0; r < 2; r++) {
        Random rnd = seed.random(300 + r);
        threads.add(thread(failure, null, () -> {
          while (!done.get()) {
            if (rnd.nextInt(10) == 0) {
              try (ResultScanner s = t.getScanner(new Scan())) {
                for (Result res : s) {
                  checkCounters(res);
                  checkLogs(res);
                }
              }
            } else {
              Result res = t.get(new Get(ROWS[rnd.nextInt(ROWS.length)]));
              checkCounters(res);
              checkLogs(res);
            }
          }
        }));
      }
      threads.add(thread(failure, null, () -> {
        while (!done.get()) {
          db.flush("t");
          db.compact("t");
        }
      }));
      threads.add(thread(failure, null, () -> {
        try {
          halfway.await();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
        db.split("t", Bytes.of("m"));
      }));
      for (Thread th : threads) {
        th.start();
      }
      writersDone.await();
      done.set(true);
      for (Thread th : threads) {
        th.join();
      }
      if (failure.get() != null) {
        throw new AssertionError("a worker failed (" + seed + ")", failure.get());
      }
      assertThat(db.regions("t")).as("split during the run").hasSize(2);
      for (int row = 0; row < ROWS.length; row++) {
        Result r = t.get(new Get(ROWS[row]));
        checkCounters(r);
        checkLogs(r);
        assertThat(Bytes.getLong(r.getValue(FAMILIES[0], COUNTERS[0]), 0)).as("row %s, %s", Bytes.str(ROWS[row]), seed)
            .isEqualTo(applied.get(row));
        byte[] log = r.getValue(FAMILIES[0], LOG);
        assertThat(log == null ? 0 : log.length).isEqualTo(appends.get(row));
      }
      assertThat(db.metrics().get("flush.count").longValue()).isPositive();
    }
  }

  /** Every counter column of the row holds one value. */
  private static void checkCounters(Result r) {
    if (r.isEmpty()) {
      return;
    }
    Long value = null;
    for (byte[] f : FAMILIES) {
      for (byte[] q : COUNTERS) {
        byte[] v = r.getValue(f, q);
        if (v == null && value == null && r.getValue(FAMILIES[0], COUNTERS[0]) == null) {
          continue; // no increment reached the row yet
        }
        assertThat(v).as("row %s has %s:%s", Bytes.str(r.row()), Bytes.str(f), Bytes.str(q)).isNotNull();
        long n = Bytes.getLong(v, 0);
        if (value == null) {
          value = n;
        }
        assertThat(n).as("row %s: %s:%s agrees with the other counters", Bytes.str(r.row()), Bytes.str(f), Bytes.str(q))
            .isEqualTo(value);
      }
    }
  }

  /** The appended column of both families holds the same bytes. */
  private static void checkLogs(Result r) {
    if (r.isEmpty()) {
      return;
    }
    byte[] first = r.getValue(FAMILIES[0], LOG);
    byte[] second = r.getValue(FAMILIES[1], LOG);
    assertThat(second).as("row %s: the appended columns agree", Bytes.str(r.row())).isEqualTo(first);
  }

  private static Thread thread(AtomicReference<Throwable> failure, CountDownLatch done, Runnable body) {
    return new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      } finally {
        if (done != null) {
          done.countDown();
        }
      }
    });
  }
}
