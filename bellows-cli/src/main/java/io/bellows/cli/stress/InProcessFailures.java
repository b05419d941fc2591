package io.bellows.cli.stress;

import io.bellows.client.Bellows;
import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.fs.MemFileSystem;
import java.io.PrintStream;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The in-process failure modes of a stress run. {@code CRASHABLE}: the store lives in a crashable
 * in-memory file system; every {@code --kill-every} (on average) a simulated power loss takes it,
 * while the writers run — unsynced data dropped, unsynced tails torn at a random byte or torn and
 * followed by garbage, unsynced directory changes undone — and the store is reopened on what is left
 * and every key verified. Every other round is a fault window that ends in the power loss: until it,
 * a share of the file operations fail as with {@code FAULTY}. {@code FAULTY}: the store is on the
 * local disk behind a fault-injecting file system; during windows of {@code --kill-every} a share of
 * file reads, writes, syncs, directory syncs, renames and creations fail with EIO, ENOSPC or a failed
 * fsync; after each window the faults stop, the store is closed (as it can be), reopened and every
 * key verified. Writes that failed are in doubt until then.
 */
final class InProcessFailures {
  private final StressConfig config;
  private final PrintStream out;
  private final StressCounters counters;
  private final java.util.concurrent.atomic.AtomicInteger failures;

  InProcessFailures(StressConfig config, PrintStream out, StressCounters counters,
      java.util.concurrent.atomic.AtomicInteger failures) {
    this.config = config;
    this.out = out;
    this.counters = counters;
    this.failures = failures;
  }

  /** Runs until the deadline; returns the number of power losses or fault windows. */
  int run(long deadlineNanos) throws InterruptedException {
    SplittableRandom random = new SplittableRandom(config.seed());
    StressRows rows = new StressRows(config.columns(), config.valueSize());
    ExpectedState expected = ExpectedState.inMemory(config.keys(), config.columns());
    boolean crashable = config.fs() == StressConfig.FsMode.CRASHABLE;
    MemFileSystem mem = crashable ? new MemFileSystem() : null;
    FaultInjectingFileSystem faulty = crashable ? null : new FaultInjectingFileSystem(LocalFileSystem.INSTANCE);
    Fault[] faults = crashable ? new Fault[0] : injectFaults(faulty, config.seed());
    long[] injected = new long[FaultInjectingFileSystem.Error.values().length];
    for (int round = 1; System.nanoTime() < deadlineNanos; round++) {
      if (crashable) {
        // Each round on the state the last power loss left; every other round a fault window before it.
        if (faulty != null) {
          count(faulty, injected);
        }
        faulty = new FaultInjectingFileSystem(mem);
        faults = round % 2 == 0 ? injectFaults(faulty, config.seed() + 1000L * round) : new Fault[0];
      }
      FileSystem fs = faulty;
      counters.failuresExpected = false;
      Bellows db = StressRun.open(config, fs);
      StressVerifier.verifyAll(db.getTable(StressRun.TABLE), expected, rows, counters);
      StressWorkload workload = new StressWorkload(db, expected, rows, counters);
      long seed = config.seed() + 1000L * round;
      Thread worker = new Thread(() -> {
        try {
          workload.run(config.threads(), seed, deadlineNanos);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "stress-round-" + round);
      worker.start();
      long delay = (long) (config.killEvery().toMillis() * (0.5 + random.nextDouble()));
      if (faults.length > 0) {
        counters.failuresExpected = true; // every failure in a fault window is an injected one
        for (Fault f : faults) {
          f.enable();
        }
      }
      worker.join(delay);
      boolean failed = worker.isAlive();
      if (failed) {
        if (crashable) {
          counters.failuresExpected = true;
          Random r = new Random(seed);
          mem = mem.crash(r, r.nextBoolean() ? MemFileSystem.Tail.GARBAGE : MemFileSystem.Tail.TEAR);
        }
        failures.incrementAndGet();
      }
      workload.stop();
      worker.join();
      for (Fault f : faults) {
        f.disable();
      }
      try {
        db.close();
      } catch (RuntimeException e) {
        // the file system was taken away (power loss) or failed: the reopen below sorts it out
      }
    }
    counters.failuresExpected = false;
    try (Bellows db = StressRun.open(config, crashable ? mem : faulty)) {
      StressVerifier.verifyAll(db.getTable(StressRun.TABLE), expected, rows, counters);
    }
    count(faulty, injected);
    out.printf("injected faults: %d (EIO %d, ENOSPC %d, failed fsync %d)%n",
        java.util.Arrays.stream(injected).sum(), injected[FaultInjectingFileSystem.Error.EIO.ordinal()],
        injected[FaultInjectingFileSystem.Error.ENOSPC.ordinal()], injected[FaultInjectingFileSystem.Error.FSYNC.ordinal()]);
    return failures.get();
  }

  /** Adds what {@code fs} injected to {@code injected} (per error) and forgets it there. */
  private static void count(FaultInjectingFileSystem fs, long[] injected) {
    for (FaultInjectingFileSystem.Error e : FaultInjectingFileSystem.Error.values()) {
      injected[e.ordinal()] += fs.injected(e);
    }
  }

  private Fault[] injectFaults(FaultInjectingFileSystem fs, long seed) {
    double p = config.faultRate();
    // Only the engine's store and WAL files; never the stress directory's own files.
    String paths = "/" + StressRun.STORE + "/";
    return new Fault[] {
        fs.inject(Fault.on(FaultInjectingFileSystem.Error.EIO, FaultInjectingFileSystem.Op.WRITE,
            FaultInjectingFileSystem.Op.RENAME, FaultInjectingFileSystem.Op.CREATE).paths(paths).probability(p, seed).disable()),
        fs.inject(Fault.on(FaultInjectingFileSystem.Error.EIO, FaultInjectingFileSystem.Op.READ)
            .paths(paths).probability(p, seed + 3).disable()),
        fs.inject(Fault.on(FaultInjectingFileSystem.Error.ENOSPC, FaultInjectingFileSystem.Op.WRITE,
            FaultInjectingFileSystem.Op.CREATE).paths(paths).probability(p, seed + 1).disable()),
        fs.inject(Fault.on(FaultInjectingFileSystem.Error.FSYNC, FaultInjectingFileSystem.Op.SYNC,
            FaultInjectingFileSystem.Op.SYNC_DIRECTORY).paths(paths).probability(p, seed + 2).disable())};
  }
}
