package io.bellows.bench;

import java.util.Locale;

/** The key distributions of the paper's suite (the paper's two, and YCSB's latest), by the names its options and reports use. */
enum PaperKeys {
  /** YCSB's scrambled zipfian, θ = 0.99 (the paper's "Zipf"). */
  ZIPF("zipf", KeyDistribution.SCRAMBLED_ZIPF),
  /** Uniform over the key space, with repeats (the paper's "uniform"). */
  UNIFORM("uniform", KeyDistribution.UNIFORM),
  /** YCSB's "latest": recent rows hottest, 5% of puts insert new rows (not in the paper; write workload only). */
  LATEST("latest", KeyDistribution.LATEST);

  final String label;
  final KeyDistribution distribution;

  PaperKeys(String label, KeyDistribution distribution) {
    this.label = label;
    this.distribution = distribution;
  }

  static PaperKeys parse(String s) {
    for (PaperKeys k : values()) {
      if (k.label.equals(s.trim().toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown key distribution '" + s + "': use zipf, uniform or latest");
  }
}
