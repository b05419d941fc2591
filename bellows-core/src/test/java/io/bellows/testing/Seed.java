package io.bellows.testing;

import java.util.Random;

/**
 * The seed of one randomized test run, handed to the test by {@link SeedExtension}. Everything random
 * in the test derives from {@link #value()}, so the run replays with {@code -Dbellows.test.seed=}
 * that value (the extension prints it at the start and again on failure).
 */
public record Seed(long value, String testName) {
  /** The system property that fixes the seed of every randomized test (replay). */
  public static final String PROPERTY = "bellows.test.seed";

  /** A fresh {@link Random} from this seed; call again for another stream with the same start. */
  public Random random() {
    return new Random(value);
  }

  /** A {@link Random} for a numbered part of the test (a thread, a round) that differs from the others. */
  public Random random(long part) {
    return new Random(value + part);
  }

  /** What to pass to Maven to replay this run. */
  public String replay() {
    return "-D" + PROPERTY + "=" + value;
  }

  /** "seed N", for assertion messages. */
  @Override
  public String toString() {
    return "seed " + value;
  }
}
