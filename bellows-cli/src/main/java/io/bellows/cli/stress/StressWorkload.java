package io.bellows.cli.stress;

import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The mixed operations of a stress run, from several threads, each checked against the {@link
 * ExpectedState} as it goes: puts, row deletes, multi-row batches, gets and short scans, plus one
 * thread of flushes, compactions and splits. A key is written and read under its own lock, so the
 * expected state of a locked key is exact; scans hold no locks and check what holds regardless of
 * concurrent writes (rows whole, in order, no older than acknowledged before the scan began, no newer
 * than issued after it ended).
 */
final class StressWorkload {
  /** Regions beyond which the admin thread stops splitting. */
  static final int MAX_REGIONS = 16;

  private final Bellows db;
  private final Table table;
  private final ExpectedState expected;
  private final StressRows rows;
  private final StressCounters counters;
  private final ReentrantLock[] locks;
  /** Keys whose last write failed: not written again, and read leniently, until a reopen settles them. */
  private final boolean[] inDoubt;
  private volatile boolean stop;

  StressWorkload(Bellows db, ExpectedState expected, StressRows rows, StressCounters counters) {
    this.db = db;
    this.table = db.getTable(StressRun.TABLE);
    this.expected = expected;
    this.rows = rows;
    this.counters = counters;
    this.locks = new ReentrantLock[expected.keys()];
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new ReentrantLock();
    }
    this.inDoubt = new boolean[expected.keys()];
  }

  /** Runs {@code threads} worker threads and the admin thread until {@code deadlineNanos} or {@link #stop}. */
  void run(int threads, long seed, long deadlineNanos) throws InterruptedException {
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      SplittableRandom random = new SplittableRandom(seed + t);
      all.add(new Thread(() -> work(random, deadlineNanos), "stress-" + t));
    }
    SplittableRandom adminRandom = new SplittableRandom(seed - 1);
    all.add(new Thread(() -> administer(adminRandom, deadlineNanos), "stress-admin"));
    for (Thread t : all) {
      t.start();
    }
    for (Thread t : all) {
      t.join();
    }
  }

  void stop() {
    stop = true;
  }

  private boolean running(long deadlineNanos) {
    return !stop && System.nanoTime() < deadlineNanos;
  }

  private void work(SplittableRandom random, long deadlineNanos) {
    int keys = expected.keys();
    while (running(deadlineNanos)) {
      int dice = random.nextInt(100);
      try {
        if (dice < 40) {
          put(random.nextInt(keys));
        } else if (dice < 47) {
          delete(random.nextInt(keys));
        } else if (dice < 57) {
          batch(random);
        } else if (dice < 90) {
          get(random.nextInt(keys));
        } else {
          scan(random.nextInt(keys), 1 + random.nextInt(50));
        }
      } catch (RuntimeException e) {
        counters.error("operation", e);
      }
    }
  }

  private void put(int key) {
    writeOne(key, true, v -> table.put(rows.put(key, v)), counters.puts);
  }

  private void delete(int key) {
    // Delete at the version: masks every earlier version, not the next put (timestamp v + 1).
    writeOne(key, false, v -> table.delete(new Delete(StressRows.row(key), v)), counters.deletes);
  }

  /**
   * One write of a new version of {@code key} under its lock: recorded as pending before it is sent,
   * as committed once acknowledged; a write that throws leaves the key in doubt.
   */
  private void writeOne(int key, boolean present, java.util.function.LongConsumer send,
      java.util.concurrent.atomic.LongAdder done) {
    ReentrantLock lock = locks[key];
    lock.lock();
    try {
      if (inDoubt[key]) {
        return;
      }
      long v = expected.issue(key);
      long state = present ? ExpectedState.present(v) : ExpectedState.absent(v);
      expected.begin(key, state);
      try {
        send.accept(v);
      } catch (RuntimeException e) {
        inDoubt[key] = true;
        throw e;
      }
      expected.commit(key, state);
      done.increment();
    } finally {
      lock.unlock();
    }
  }

  /** A put of 2..8 distinct rows in one call; locks are taken in key order, so never a deadlock. */
  private void batch(SplittableRandom random) {
    int n = 2 + random.nextInt(7);
    java.util.TreeSet<Integer> chosen = new java.util.TreeSet<>();
    while (chosen.size() < n) {
      chosen.add(random.nextInt(expected.keys()));
    }
    List<Integer> keys = new ArrayList<>(chosen);
    for (int k : keys) {
      locks[k].lock();
    }
    try {
      List<Put> puts = new ArrayList<>();
      List<Integer> written = new ArrayList<>();
      List<Long> states = new ArrayList<>();
      for (int k : keys) {
        if (inDoubt[k]) {
          continue;
        }
        long v = expected.issue(k);
        long state = ExpectedState.present(v);
        expected.begin(k, state);
        puts.add(rows.put(k, v));
        written.add(k);
        states.add(state);
      }
      if (puts.isEmpty()) {
        return;
      }
      try {
        table.put(puts);
      } catch (RuntimeException e) {
        for (int k : written) {
          inDoubt[k] = true;
        }
        throw e;
      }
      for (int i = 0; i < written.size(); i++) {
        expected.commit(written.get(i), states.get(i));
      }
      counters.batches.increment();
    } finally {
      for (int k : keys) {
        locks[k].unlock();
      }
    }
  }

  private void get(int key) {
    ReentrantLock lock = locks[key];
    lock.lock();
    try {
      Result r = table.get(new Get(StressRows.row(key)));
      counters.gets.increment();
      check(key, r, "get");
    } finally {
      lock.unlock();
    }
  }

  /** Checks a locked key's row against its expected state; an in-doubt key may hold either state. */
  private void check(int key, Result r, String by) {
    long observed;
    try {
      observed = rows.observed(key, r);
    } catch (StressRows.BadRow e) {
      counters.violation(by + ": " + e.getMessage());
      return;
    }
    long committed = expected.committed(key);
    long pending = expected.pending(key);
    boolean ok = ExpectedState.sameVisible(observed, committed)
        || (inDoubt[key] && pending != ExpectedState.NONE && ExpectedState.sameVisible(observed, pending));
    if (!ok) {
      counters.violation(by + ": row " + Bytes.str(StressRows.row(key)) + " is "
          + ExpectedState.describe(observed) + ", expected " + ExpectedState.describe(committed)
          + (inDoubt[key] ? " or " + ExpectedState.describe(pending) : ""));
    }
  }

  private void scan(int from, int limit) {
    int to = Math.min(expected.keys(), from + limit);
    long[] before = new long[to - from];
    for (int k = from; k < to; k++) {
      locks[k].lock();
      try {
        before[k - from] = expected.committed(k);
      } finally {
        locks[k].unlock();
      }
    }
    List<Result> found = new ArrayList<>();
    try (ResultScanner s = table.getScanner(new Scan().withStartRow(StressRows.row(from))
        .withStopRow(StressRows.row(to)))) {
      for (Result r : s) {
        found.add(r);
      }
    }
    counters.scans.increment();
    int last = from - 1;
    for (Result r : found) {
      int key = StressRows.key(r.row());
      if (key < from || key >= to || key <= last) {
        counters.violation("scan [" + from + ", " + to + "): row " + Bytes.str(r.row())
            + (key <= last && key >= from ? " out of order or repeated" : " outside the range"));
        continue;
      }
      last = key;
      long observed;
      try {
        observed = rows.observed(key, r);
      } catch (StressRows.BadRow e) {
        counters.violation("scan: " + e.getMessage());
        continue;
      }
      long floor = before[key - from];
      long v = ExpectedState.version(observed);
      long issued;
      locks[key].lock();
      try {
        issued = expected.issued(key);
      } finally {
        locks[key].unlock();
      }
      // Versions only grow: a row returned must be at least as new as what was acknowledged before.
      if (v > issued || (!inDoubtNow(key) && v < ExpectedState.version(floor))) {
        counters.violation("scan: row " + Bytes.str(r.row()) + " is " + ExpectedState.describe(observed)
            + ", but " + ExpectedState.describe(floor) + " was acknowledged before the scan and version "
            + issued + " is the highest issued");
      }
    }
  }

  private boolean inDoubtNow(int key) {
    locks[key].lock();
    try {
      return inDoubt[key];
    } finally {
      locks[key].unlock();
    }
  }

  /** Flushes, compactions, major compactions and splits at random rows, a few a second. */
  private void administer(SplittableRandom random, long deadlineNanos) {
    while (running(deadlineNanos)) {
      try {
        Thread.sleep(100 + random.nextInt(400));
      } catch (InterruptedException e) {
        return;
      }
      int dice = random.nextInt(100);
      try {
        if (dice < 45) {
          db.flush(StressRun.TABLE);
        } else if (dice < 80) {
          db.compact(StressRun.TABLE);
        } else if (dice < 90) {
          db.majorCompact(StressRun.TABLE);
        } else if (db.regions(StressRun.TABLE).size() < MAX_REGIONS) {
          db.split(StressRun.TABLE, StressRows.row(1 + random.nextInt(expected.keys() - 1)));
        }
        counters.admin.increment();
      } catch (IllegalArgumentException e) {
        // the split row starts a region already
        counters.admin.increment();
      } catch (RuntimeException e) {
        counters.error("admin", e);
      }
    }
  }
}
