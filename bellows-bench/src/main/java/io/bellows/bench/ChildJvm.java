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
import java.util.function.LongConsumer;

/**
 * Runs {@link PaperChild} in a fresh {@code java} process with this JVM's own executable and class
 * path, and collects its one result line. The child's other output (engine logs) is kept back and
 * shown only when the child fails, so the suite's own output stays readable. Stateless.
 */
final class ChildJvm {
  /** Lines of the child's output kept to explain a failure. */
  private static final int TAIL_LINES = 40;

  private ChildJvm() {}

  /** The java executable of this JVM. */
  static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The child's command line: java, the flags, this JVM's class path, {@link PaperChild} and its options. */
  static List<String> command(List<String> jvmFlags, List<String> childArgs) {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaExecutable());
    cmd.addAll(jvmFlags);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(PaperChild.class.getName());
    cmd.addAll(childArgs);
    return cmd;
  }

  /**
   * Runs the command to its end; {@code progress} gets the child's rows written as it reports them.
   * Throws if the child fails or prints no result.
   */
  static PaperResult run(List<String> command, LongConsumer progress) {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
    PaperResult result = null;
    Deque<String> tail = new ArrayDeque<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(PaperResult.LINE_PREFIX)) {
          result = PaperResult.fromJson(line.substring(PaperResult.LINE_PREFIX.length()));
        } else if (line.startsWith(PaperChild.PROGRESS_PREFIX)) {
          progress.accept(Long.parseLong(line.substring(PaperChild.PROGRESS_PREFIX.length()).trim()));
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
