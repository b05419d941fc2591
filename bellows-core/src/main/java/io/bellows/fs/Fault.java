package io.bellows.fs;

import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One fault of a {@link FaultInjectingFileSystem}: which operations it selects (kinds and a path
 * pattern), when it fires among the selected calls, and the error it raises. Built with {@link
 * #on}; switched off and on at run time ({@link #disable}, {@link #enable}). Thread-safe.
 */
public final class Fault {
  private final Set<Op> ops;
  private final Error error;
  private Pattern pathPattern;
  /** Fire only on the n-th selected call (1-based); 0: every call the probability lets through. */
  private long nth;
  /** Fire on no selected call before this one (1-based). */
  private long from = 1;
  private double probability = 1.0;
  private Random random;
  private volatile boolean enabled = true;
  private long selected;
  private long fired;

  private Fault(Set<Op> ops, Error error) {
    this.ops = ops;
    this.error = error;
  }

  /** A fault raising {@code error} on every call of the given kinds (until narrowed). */
  public static Fault on(Error error, Op first, Op... rest) {
    return new Fault(EnumSet.of(first, rest), error);
  }

  /** Selects only paths whose string form contains a match of {@code regex}. */
  public Fault paths(String regex) {
    this.pathPattern = Pattern.compile(regex);
    return this;
  }

  /** Fires only on the {@code n}-th selected call (1-based), once. */
  public Fault nth(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("n is 1-based: " + n);
    }
    this.nth = n;
    return this;
  }

  /** Fires from the {@code n}-th selected call (1-based) on, on every one. */
  public Fault from(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("n is 1-based: " + n);
    }
    this.from = n;
    return this;
  }

  /** Fires on each selected call with probability {@code p}, drawn from a generator seeded {@code seed}. */
  public Fault probability(double p, long seed) {
    this.probability = p;
    this.random = new Random(seed);
    return this;
  }

  public Fault disable() {
    enabled = false;
    return this;
  }

  public Fault enable() {
    enabled = true;
    return this;
  }

  public boolean enabled() {
    return enabled;
  }

  public Error error() {
    return error;
  }

  /** Times this fault fired. */
  public synchronized long fired() {
    return fired;
  }

  synchronized boolean fires(Op op, Path path) {
    if (!enabled || !ops.contains(op) || (pathPattern != null && !pathPattern.matcher(path.toString()).find())) {
      return false;
    }
    selected++;
    boolean fire = nth > 0 ? selected == nth
        : selected >= from && (random == null || random.nextDouble() < probability);
    if (fire) {
      fired++;
    }
    return fire;
  }

  @Override
  public String toString() {
    return error + " on " + ops + (pathPattern == null ? "" : " of paths ~ " + pathPattern)
        + (nth > 0 ? " at call " + nth : "") + (from > 1 ? " from call " + from : "") + (random != null ? " with p=" + probability : "")
        + (enabled ? "" : " (off)");
  }
}
