package io.bellows.bench;

import java.util.Locale;

/** The paper's two key distributions, by the names the suite's options and reports use. */
enum PaperKeys {
  /** YCSB's scrambled zipfian, θ = 0.99 (the paper's "Zipf"). */
  ZIPF("zipf", KeyDistribution.SCRAMBLED_ZIPF),
  /** Uniform over the key space, with repeats (the paper's "uniform"). */
  UNIFORM("uniform", KeyDistribution.UNIFORM);

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
    throw new IllegalArgumentException("unknown key distribution '" + s + "': use zipf or uniform");
  }
}
