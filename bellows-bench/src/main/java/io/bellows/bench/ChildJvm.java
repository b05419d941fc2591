package io.bellows.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Runs {@link PaperChild} (or another child, such as {@link ReadChild}) in a fresh {@code java}
 * process with this JVM's own executable and class path, and collects its one result line. The child's other output (engine logs) is kept back and
 * shown only when the child fails, so the suite's own output stays readable. Stateless.
 */
final class ChildJvm {
  /** Lines of the child's output kept to explain a failure. */
  private static final int TAIL_LINES = 40;
  /**
   * Flags every child gets before the suite's own (which may override them): a child out of memory
   * exits (with 3) instead of living on with its other threads, which left the suite waiting for
   * its result forever.
   */
  static final List<String> ALWAYS = List.of("-XX:+ExitOnOutOfMemoryError");
  /**
   * How long a child may go without news before it is killed ({@code
   * -Dbellows.bench.child.stall.minutes}, 15 by default): news is a progress line whose figures
   * changed, or any other line. A child's progress thread prints the same figures on and on while its
   * work is stuck (a deadlock, a store that stopped writes), and the suite used to wait for it forever.
   */
  static final Duration STALL_LIMIT = Duration.ofMinutes(Long.getLong("bellows.bench.child.stall.minutes", 15));

  private ChildJvm() {}

  /** The java executable of this JVM. */
  static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * The child's command line: java, {@link #ALWAYS} and the flags, this JVM's class path, {@link
   * PaperChild} and its options.
   */
  static List<String> command(List<String> jvmFlags, List<String> childArgs) {
    return command(PaperChild.class, jvmFlags, childArgs);
  }

  /** The command line of another child's main class. */
  static List<String> command(Class<?> main, List<String> jvmFlags, List<String> childArgs) {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaExecutable());
    cmd.addAll(ALWAYS);
    cmd.addAll(jvmFlags);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(childArgs);
    return cmd;
  }

  /**
   * Runs the command to its end; {@code progress} gets the child's rows written as it reports them.
   * Throws if the child fails or prints no result.
   */
  static PaperResult run(List<String> command, LongConsumer progress) {
    return PaperResult.fromJson(run(command, PaperResult.LINE_PREFIX, PaperChild.PROGRESS_PREFIX,
        rows -> progress.accept(Long.parseLong(rows.trim()))));
  }

  /**
   * Runs the command to its end and returns the rest of its line that starts with {@code
   * resultPrefix}; {@code progress} gets the rest of each line that starts with {@code
   * progressPrefix}. Throws if the child fails or prints no result.
   */
  static String run(List<String> command, String resultPrefix, String progressPrefix, Consumer<String> progress) {
    return run(command, resultPrefix, progressPrefix, progress, STALL_LIMIT);
  }

  /** {@link #run(List, String, String, Consumer)}, killing the child after {@code stallLimit} without news. */
  static String run(List<String> command, String resultPrefix, String progressPrefix, Consumer<String> progress,
      Duration stallLimit) {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
    String result = null;
    Deque<String> tail = new ArrayDeque<>();
    AtomicLong lastNews = new AtomicLong(System.nanoTime());
    AtomicBoolean stalled = new AtomicBoolean();
    Thread watchdog = watchdog(p, stallLimit, lastNews, stalled);
    String lastProgress = null;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(resultPrefix)) {
          result = line.substring(resultPrefix.length());
        } else if (line.startsWith(progressPrefix)) {
          String figures = line.substring(progressPrefix.length());
          if (!figures.equals(lastProgress)) {
            lastNews.set(System.nanoTime());
            lastProgress = figures;
          }
          progress.accept(figures);
        } else {
          lastNews.set(System.nanoTime());
          tail.addLast(line);
          if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
          }
        }
      }
      int exit = p.waitFor();
      if (stalled.get()) {
        throw new IllegalStateException("the child JVM made no progress for " + stallLimit.toSeconds()
            + " s and was killed (-Dbellows.bench.child.stall.minutes raises the limit); its last lines:\n  "
            + String.join("\n  ", tail));
      }
      if (exit != 0 || result == null) {
        throw new IllegalStateException("the child JVM " + (exit != 0 ? "exited with " + exit : "printed no result")
            + "; its last lines:\n  " + String.join("\n  ", tail));
      }
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException("reading the child's output", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      watchdog.interrupt();
      p.destroyForcibly();
    }
  }

  /** A thread that kills {@code p} once {@code limit} passed since {@code lastNews}; ends when p does. */
  private static Thread watchdog(Process p, Duration limit, AtomicLong lastNews, AtomicBoolean stalled) {
    Thread t = new Thread(() -> {
      try {
        while (true) {
          long left = limit.toNanos() - (System.nanoTime() - lastNews.get());
          if (left <= 0) {
            stalled.set(true);
            p.destroyForcibly();
            return;
          }
          if (p.waitFor(left, TimeUnit.NANOSECONDS)) {
            return;
          }
        }
      } catch (InterruptedException done) {
        // the run is over
      }
    }, "child-watchdog");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
