package io.bellows.metamorphic;

import io.bellows.engine.EngineUnderTest;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The answers of one run of the stream under one configuration, by operation index (null where an
 * operation has nothing to compare), and the comparison of two of them.
 */
public record Transcript(Configuration config, String[] answers) {
  /** How many operations before a mismatch a report lists. */
  private static final int HISTORY = 25;

  /**
   * Runs {@code ops} operations of the stream of {@code seed}, then a full scan, a reopen and a full
   * scan again (the last two answers). An exception in an operation fails with the operation named.
   */
  static Transcript record(Configuration config, long seed, int ops, Path dir) {
    return record(config, seed, ops, dir, null);
  }

  /** As {@link #record(Configuration, long, int, Path)}, on {@code faulty} (null: the local disk). */
  static Transcript record(Configuration config, long seed, int ops, Path dir, io.bellows.fs.FileSystem faulty) {
    return record(config, seed, ops, new Subject(config, dir, OpStream.START_MILLIS, faulty));
  }

  /**
   * As {@link #record(Configuration, long, int, Path)}, on {@code engine} (a replicated cluster's
   * members, from another module; closed at the end). Operations the engine does not have are left
   * out ({@link EngineUnderTest#splits}: answers unchanged; {@link EngineUnderTest#majorCompactions}:
   * the transcript it is compared with must leave them out too). At the end every replica must hold
   * the cells of the last full scan.
   */
  public static Transcript record(Configuration config, long seed, int ops, EngineUnderTest engine) {
    return record(config, seed, ops, new Subject(config, engine, OpStream.START_MILLIS, false));
  }

  private static Transcript record(Configuration config, long seed, int ops, Subject subject) {
    OpStream stream = new OpStream(seed);
    String[] answers = new String[ops + 2];
    try (Subject s = subject) {
      for (int i = 0; i < ops; i++) {
        Op op = stream.next();
        try {
          answers[i] = op.run(s);
        } catch (RuntimeException e) {
          throw new AssertionError("seed " + seed + ", configuration " + config + ": operation #" + i + " "
              + op.describe() + " threw " + e, e);
        }
      }
      answers[ops] = OpStream.fullScan().run(s);
      s.reopen();
      answers[ops + 1] = OpStream.fullScan().run(s);
      for (EngineUnderTest.ReplicaCells replica : s.replicas()) {
        List<String> rows = new ArrayList<>();
        replica.rows().forEach(cells -> rows.add(Op.Show.row(cells)));
        String held = rows.isEmpty() ? "(no rows)" : String.join("\n", rows);
        if (!held.equals(answers[ops + 1])) {
          throw new AssertionError("seed " + seed + ", configuration " + config + ": replica " + replica.name()
              + " holds other cells than the full scan after the run answered\ndiff (- the scan, + the replica):\n"
              + diff(answers[ops + 1], held));
        }
      }
    }
    return new Transcript(config, answers);
  }

  /**
   * The report of the first answer that differs from {@code reference}'s, or null when all agree:
   * the seed, the operation (index and what it was, with the ones before it), both configurations
   * and a line diff of the two answers.
   */
  String firstDifference(Transcript reference, long seed) {
    return firstDifference(reference, seed, "MetamorphicTest");
  }

  /** As {@link #firstDifference(Transcript, long)}; the report says to re-run {@code test}. */
  public String firstDifference(Transcript reference, long seed, String test) {
    for (int i = 0; i < answers.length; i++) {
      if (!Objects.equals(answers[i], reference.answers[i])) {
        return report(reference, seed, i, test);
      }
    }
    return null;
  }

  private String report(Transcript reference, long seed, int at, String test) {
    int ops = answers.length - 2;
    Deque<String> recent = new ArrayDeque<>();
    OpStream stream = new OpStream(seed);
    for (int i = 0; i < Math.min(at + 1, ops); i++) {
      recent.addLast("#" + i + " " + stream.next().describe());
      if (recent.size() > HISTORY) {
        recent.removeFirst();
      }
    }
    String what = at < ops ? recent.getLast()
        : "#" + at + " full scan, all versions" + (at == ops ? "" : ", after a reopen");
    return "the configurations answer differently\n"
        + "seed " + seed + "  (replay: -Dtest=" + test + " -Dbellows.test.seed=" + seed + ")\n"
        + "operation " + what + "\n"
        + "reference:   " + reference.config + "\n"
        + "differs in:  " + config + "\n"
        + "diff (- reference, + " + config.name() + "):\n" + diff(reference.answers[at], answers[at])
        + "operations before it:\n  " + String.join("\n  ", recent) + "\n";
  }

  /** A line diff (longest common subsequence); rows of a scan are lines. */
  static String diff(String a, String b) {
    List<String> x = lines(a);
    List<String> y = lines(b);
    int[][] lcs = new int[x.size() + 1][y.size() + 1];
    for (int i = x.size() - 1; i >= 0; i--) {
      for (int j = y.size() - 1; j >= 0; j--) {
        lcs[i][j] = x.get(i).equals(y.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    StringBuilder out = new StringBuilder();
    int i = 0;
    int j = 0;
    while (i < x.size() || j < y.size()) {
      if (i < x.size() && j < y.size() && x.get(i).equals(y.get(j))) {
        out.append("    ").append(x.get(i++)).append('\n');
        j++;
      } else if (j < y.size() && (i == x.size() || lcs[i][j + 1] >= lcs[i + 1][j])) {
        out.append("  + ").append(y.get(j++)).append('\n');
      } else {
        out.append("  - ").append(x.get(i++)).append('\n');
      }
    }
    return out.toString();
  }

  private static List<String> lines(String s) {
    return s == null ? List.of("(nothing)") : new ArrayList<>(List.of(s.split("\n", -1)));
  }
}
