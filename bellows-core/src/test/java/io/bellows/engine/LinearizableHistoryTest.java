package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.MemStorePolicy;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.testing.history.LinearizabilityChecker;
import io.bellows.testing.history.Operation;
import io.bellows.testing.history.RegisterModel;
import io.bellows.testing.history.RegisterModel.Cas;
import io.bellows.testing.history.RegisterModel.Read;
import io.bellows.testing.history.RegisterModel.Value;
import io.bellows.testing.history.RegisterModel.Write;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine is linearizable per column: clients put (alone and in batches of two rows), get and
 * check-and-put a few columns while a thread flushes, compacts and splits the table under them;
 * every call's invocation and answer is recorded on one clock, and {@link LinearizabilityChecker}
 * must find, for each column, one order of the calls that respects real time and that a register
 * would have answered alike. A write acknowledged then missed, a read that goes back in time or two
 * winners of one check-and-put fail it. Prints its seed; replay with -Dbellows.test.seed=N.
 */
@ExtendWith(SeedExtension.class)
class LinearizableHistoryTest {
  private static final int CLIENTS = 4;
  private static final int OPERATIONS = 600;
  private static final int MAINTENANCE_ROUNDS = 12;
  private static final int ROWS = 6;
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  static List<EngineConfigurations> configurations() {
    List<EngineConfigurations> out = new ArrayList<>();
    for (EngineConfigurations c : EngineConfigurations.all()) {
      if (out.isEmpty() && c.policy() == MemStorePolicy.NONE
          || out.size() == 1 && c.policy() == MemStorePolicy.ADAPTIVE && c.mslab()) {
        out.add(c);
      }
    }
    return out;
  }

  private static byte[] row(int i) {
    return Bytes.of("row" + i);
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void everyColumnIsALinearizableRegister(EngineConfigurations config, Seed seed) throws Exception {
    EngineOptions opts = config.engine(EngineOptions.builder()).build();
    List<Operation> history = Collections.synchronizedList(new ArrayList<>());
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024)
          .family(config.family("f").maxVersions(1).blockSize(1024).build()).build());
      Table t = db.getTable("t");
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicBoolean maintenanceDone = new AtomicBoolean();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        clients.add(new Thread(() -> runClient(t, client, seed.random(client), start, maintenanceDone, history, failure), "client-" + c));
      }
      Thread maintenance = new Thread(() -> runMaintenance(db, seed.random(100), start, maintenanceDone, failure), "maintenance");
      clients.forEach(Thread::start);
      maintenance.start();
      start.countDown();
      for (Thread c : clients) {
        c.join();
      }
      maintenance.join();
      assertThat(failure.get()).as(seed.toString()).isNull();
      assertThat(db.regions("t")).as("the table split under the clients").hasSizeGreaterThan(1);
    }
    assertThat(history).hasSizeGreaterThanOrEqualTo(CLIENTS * OPERATIONS);
    LinearizabilityChecker.Result r = LinearizabilityChecker.check(new RegisterModel(), history);
    assertThat(r.linearizable()).as("%s: %s", seed, r.describe()).isTrue();
  }

  /**
   * Puts of values no other call writes, gets, and check-and-puts that expect the value this client
   * last saw in the column (so some win and some lose); at least {@link #OPERATIONS}, and on until
   * the maintenance is done, so that all of it runs under the clients.
   */
  private static void runClient(Table t, int client, Random rnd, CountDownLatch start, AtomicBoolean maintenanceDone,
      List<Operation> history, AtomicReference<Throwable> failure) {
    Map<Integer, Long> lastSeen = new HashMap<>();
    try {
      start.await();
      for (int i = 0; (i < OPERATIONS || !maintenanceDone.get()) && failure.get() == null; i++) {
        int r = rnd.nextInt(ROWS);
        long value = (long) client << 32 | i;
        int kind = rnd.nextInt(10);
        long invoked = System.nanoTime();
        if (kind < 4) {
          Result res = t.get(new Get(row(r)).addColumn(F, Q));
          byte[] v = res.getValue(F, Q);
          Long read = v == null ? null : Bytes.getLong(v, 0);
          history.add(Operation.completed(client, r, invoked, System.nanoTime(), new Read(), new Value(read)));
          lastSeen.put(r, read);
        } else if (kind < 6) {
          t.put(new Put(row(r)).addColumn(F, Q, Bytes.toBytes(value)));
          history.add(Operation.completed(client, r, invoked, System.nanoTime(), new Write(value), Boolean.TRUE));
          lastSeen.put(r, value);
        } else if (kind < 7) {
          // A batch of two rows goes through a mini-batch and its row locks, racing the check-and-puts
          // on these rows. Each row is a write of its register.
          int r2 = (r + 1 + rnd.nextInt(ROWS - 1)) % ROWS;
          long value2 = value | 1L << 31;
          t.put(List.of(new Put(row(r)).addColumn(F, Q, Bytes.toBytes(value)),
              new Put(row(r2)).addColumn(F, Q, Bytes.toBytes(value2))));
          long answered = System.nanoTime();
          history.add(Operation.completed(client, r, invoked, answered, new Write(value), Boolean.TRUE));
          history.add(Operation.completed(client, r2, invoked, answered, new Write(value2), Boolean.TRUE));
          lastSeen.put(r, value);
          lastSeen.put(r2, value2);
        } else {
          Long expected = lastSeen.get(r);
          boolean applied = t.checkAndPut(row(r), F, Q, expected == null ? null : Bytes.toBytes(expected),
              new Put(row(r)).addColumn(F, Q, Bytes.toBytes(value)));
          history.add(Operation.completed(client, r, invoked, System.nanoTime(), new Cas(expected, value), applied));
          if (applied) {
            lastSeen.put(r, value);
          }
        }
      }
    } catch (Throwable e) {
      failure.compareAndSet(null, e);
    }
  }

  /** Rounds of a flush, then a compaction, a major compaction or (every third round) a split at a random row. */
  private static void runMaintenance(Bellows db, Random rnd, CountDownLatch start, AtomicBoolean done,
      AtomicReference<Throwable> failure) {
    try {
      start.await();
      for (int round = 0; round < MAINTENANCE_ROUNDS && failure.get() == null; round++) {
        db.flush("t");
        if (round % 3 == 1) {
          byte[] at = row(1 + rnd.nextInt(ROWS - 1));
          if (db.regions("t").stream().noneMatch(ri -> java.util.Arrays.equals(ri.startKey(), at))) {
            db.split("t", at);
          }
        } else if (rnd.nextBoolean()) {
          db.compact("t");
        } else {
          db.majorCompact("t");
        }
      }
    } catch (Throwable e) {
      failure.compareAndSet(null, e);
    } finally {
      done.set(true);
    }
  }
}
