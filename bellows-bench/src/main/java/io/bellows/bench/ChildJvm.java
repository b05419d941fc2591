package io.bellows.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
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
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
    String result = null;
    Deque<String> tail = new ArrayDeque<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(resultPrefix)) {
          result = line.substring(resultPrefix.length());
        } else if (line.startsWith(progressPrefix)) {
          progress.accept(line.substring(progressPrefix.length()));
        } else {
          tail.addLast(line);
          if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
          }
        }
      }
      int exit = p.waitFor();
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
      p.destroyForcibly();
    }
  }
}
