package io.bellows.cli.stress;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Runs a stress test and prints its progress and summary: in this process (the store is closed,
 * reopened and verified at the end), or, with {@code --kill-every}, in a series of child processes
 * that this one kills with SIGKILL at random moments, each next child verifying the store the last
 * one left before going on.
 */
public final class StressDriver {
  private final StressConfig config;
  private final PrintStream out;
  private final long startNanos = System.nanoTime();

  public StressDriver(StressConfig config, PrintStream out) {
    this.config = config;
    this.out = out;
  }

  /** Runs the whole test; returns the totals. */
  public Summary run() throws IOException, InterruptedException {
    StressRun.prepare(config.dir());
    out.printf("stress: %s, %d threads, %,d keys of %d columns x %d bytes, durability %s, seed %d%s%n",
        config.dir(), config.threads(), config.keys(), config.columns(), config.valueSize(),
        config.durability(), config.seed(),
        config.killEvery() == null ? "" : ", " + failureName() + " every ~" + seconds(config.killEvery()) + " s");
    out.flush();
    if (config.fs() != StressConfig.FsMode.LOCAL) {
      return withInProcessFailures();
    }
    return config.killEvery() == null ? inProcess() : withKills();
  }

  private String failureName() {
    return switch (config.fs()) {
      case LOCAL -> "SIGKILL";
      case CRASHABLE -> "simulated power loss (in-memory file system)";
      case FAULTY -> "a window of injected I/O errors (" + config.faultRate() + " of file operations)";
    };
  }

  private Summary withInProcessFailures() throws InterruptedException {
    StressCounters counters = new StressCounters(out);
    long deadline = startNanos + config.duration().toNanos();
    AtomicInteger failures = new AtomicInteger();
    Thread reporter = reporter(() -> StressStats.of(counters), failures::get);
    int n;
    try {
      n = new InProcessFailures(config, out, counters, failures).run(deadline);
    } finally {
      reporter.interrupt();
      reporter.join();
    }
    String what = config.fs() == StressConfig.FsMode.CRASHABLE ? "simulated power losses" : "fault windows";
    return new Summary(StressStats.of(counters), n, n + 1, elapsed(),
        what + ", " + counters.interrupted.sum() + " operations cut off by them");
  }

  private Summary inProcess() throws IOException, InterruptedException {
    StressCounters counters = new StressCounters(out);
    long deadline = startNanos + config.duration().toNanos();
    Thread reporter = reporter(() -> StressStats.of(counters), () -> 0);
    try (ExpectedState expected = openExpected()) {
      StressRun.runOnce(config, expected, counters, deadline, out, false);
      out.println("closed the store; reopening it to verify every key");
      try (var db = StressRun.open(config)) {
        StressVerifier.verifyAll(db.getTable(StressRun.TABLE), expected,
            new StressRows(config.columns(), config.valueSize()), counters);
      }
    } finally {
      reporter.interrupt();
      reporter.join();
    }
    return new Summary(StressStats.of(counters), 0, 1, elapsed(), null);
  }

  /** The child side of {@link #withKills}: one process's run, reporting its counts every second. */
  public void child() throws IOException, InterruptedException {
    StressCounters counters = new StressCounters(out);
    long deadline = startNanos + config.duration().toNanos();
    Thread stats = new Thread(() -> {
      try {
        while (true) {
          TimeUnit.SECONDS.sleep(1);
          printStats(counters);
        }
      } catch (InterruptedException e) {
        // done
      }
    }, "stress-stats");
    stats.setDaemon(true);
    stats.start();
    try (ExpectedState expected = openExpected()) {
      StressRun.runOnce(config, expected, counters, deadline, out, true);
    } finally {
      stats.interrupt();
      stats.join();
      printStats(counters);
      out.println("DONE");
      out.flush();
    }
  }

  private void printStats(StressCounters counters) {
    synchronized (out) {
      out.println(StressStats.of(counters).toLine());
      out.flush();
    }
  }

  private ExpectedState openExpected() throws IOException {
    return ExpectedState.mapped(config.dir().resolve(StressRun.EXPECTED), config.keys(), config.columns());
  }

  private Summary withKills() throws IOException, InterruptedException {
    SplittableRandom random = new SplittableRandom(config.seed());
    long deadline = startNanos + config.duration().toNanos();
    AtomicReference<StressStats> finished = new AtomicReference<>(StressStats.ZERO);
    AtomicReference<StressStats> current = new AtomicReference<>(StressStats.ZERO);
    AtomicInteger kills = new AtomicInteger();
    Thread reporter = reporter(() -> finished.get().plus(current.get()), kills::get);
    int processes = 0;
    try {
      while (System.nanoTime() < deadline) {
        Duration left = Duration.ofNanos(deadline - System.nanoTime());
        Child child = Child.start(config.childArgs(left, config.seed() + 1000L * ++processes), current, out);
        if (!child.awaitRunning()) {
          throw child.failure("the child process ended before it was running");
        }
        long delay = (long) (config.killEvery().toMillis() * (0.5 + random.nextDouble()));
        if (!child.process.waitFor(delay, TimeUnit.MILLISECONDS)) {
          child.process.destroyForcibly();
          child.process.waitFor();
          kills.incrementAndGet();
        } else if (child.process.exitValue() != 0) {
          throw child.failure("the child process failed with exit code " + child.process.exitValue());
        }
        child.drain();
        finished.set(finished.get().plus(current.getAndSet(StressStats.ZERO)));
      }
      // A last child only verifies (its duration is zero): every key the kills left is checked.
      Child last = Child.start(config.childArgs(Duration.ZERO, config.seed()), current, out);
      processes++;
      if (last.process.waitFor() != 0) {
        throw last.failure("the verifying child process failed with exit code " + last.process.exitValue());
      }
      last.drain();
      finished.set(finished.get().plus(current.getAndSet(StressStats.ZERO)));
    } finally {
      reporter.interrupt();
      reporter.join();
    }
    return new Summary(finished.get(), kills.get(), processes, elapsed(), null);
  }

  /** Prints the totals every {@code --report-every} until interrupted. */
  private Thread reporter(Supplier<StressStats> totals, IntSupplier kills) {
    Thread t = new Thread(() -> {
      long every = config.reportEvery().toMillis();
      try {
        while (true) {
          TimeUnit.MILLISECONDS.sleep(every);
          StressStats s = totals.get();
          double secs = elapsed().toMillis() / 1000.0;
          synchronized (out) {
            out.printf("[%5.0f s] %,d operations (%,.0f/s), %,d keys verified, %d kills, %d errors,"
                + " %d violations%n", secs, s.operations(), s.operations() / secs, s.verified(), kills.getAsInt(),
                s.errors(), s.violations());
            out.flush();
          }
        }
      } catch (InterruptedException e) {
        // the run is over
      }
    }, "stress-progress");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? Long.toString(d.toSeconds()) : String.format("%.1f", d.toMillis() / 1000.0);
  }

  /** A child process of the stress run, its output read by a thread. */
  private static final class Child {
    final Process process;
    final Thread reader;
    final java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
    final List<String> tail = new ArrayList<>();

    private Child(Process process, AtomicReference<StressStats> stats, PrintStream out) {
      this.process = process;
      this.reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
          for (String line; (line = r.readLine()) != null; ) {
            StressStats s = StressStats.parse(line);
            if (s != null) {
              stats.set(s);
            } else if (line.equals("RUNNING")) {
              running.countDown();
            } else if (line.startsWith("VIOLATION") || line.startsWith("ERROR")) {
              synchronized (out) {
                out.println(line);
                out.flush();
              }
            } else if (!line.equals("DONE")) {
              synchronized (tail) {
                tail.add(line);
                if (tail.size() > 40) {
                  tail.remove(0);
                }
              }
            }
          }
        } catch (IOException e) {
          // the child was killed
        } finally {
          running.countDown();
        }
      }, "stress-child-output");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(List<String> args, AtomicReference<StressStats> stats, PrintStream out) throws IOException {
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), "io.bellows.cli.BellowsCli"));
      cmd.addAll(args);
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      return new Child(p, stats, out);
    }

    /** Waits until the child verified the store and started its workload; false if it ended first. */
    boolean awaitRunning() throws InterruptedException {
      running.await();
      return process.isAlive() || process.exitValue() == 0;
    }

    void drain() throws InterruptedException {
      reader.join();
    }

    IllegalStateException failure(String what) throws InterruptedException {
      process.waitFor();
      reader.join();
      synchronized (tail) {
        return new IllegalStateException(what + "; its last output:\n  " + String.join("\n  ", tail));
      }
    }
  }

  /** What a stress run did, and what it found. */
  public record Summary(StressStats stats, int kills, int processes, Duration elapsed, String failureKind) {
    public long violations() {
      return stats.violations();
    }

    public long errors() {
      return stats.errors();
    }

    public void print(PrintStream out) {
      StressStats s = stats;
      out.printf("stress summary: %.0f s%n", elapsed.toMillis() / 1000.0);
      out.printf("  operations  %,d (puts %,d, deletes %,d, batches %,d, gets %,d, scans %,d, flushes/compactions/splits %,d)%n",
          s.operations(), s.puts(), s.deletes(), s.batches(), s.gets(), s.scans(), s.admin());
      out.printf("  kills       %d (%s), reopens %d%n", kills, failureKind == null ? "SIGKILL" : failureKind, processes);
      out.printf("  verified    %,d keys after reopens%n", s.verified());
      out.printf("  errors      %,d operations failed%n", s.errors());
      out.printf("  violations  %,d%n", s.violations());
      out.flush();
    }
  }
}
