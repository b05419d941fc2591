package io.bellows.bench;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * The workloads of {@code bench read}: YCSB B (95% whole-row gets, 5% updates of existing rows with
 * the same size) and C (gets only) over scrambled Zipf θ 0.99 or uniform keys, or Zipf keys in rank
 * order ({@code -ordered}: item 0 the hottest, its neighbours next), and the paper's CBMG
 * sessions (gets only; hot keys are 10% of the rows, as the paper's 1.5M hot of 15M queries), and
 * {@code C-hot}, gets spread evenly over a hot set scattered through blocks (below).
 * Keys are items, 0 ≤ item < rows; {@link ReadRows#key} maps them to row keys in item order.
 */
enum ReadWorkload {
  B_ZIPF("B-zipf", 0.05),
  /** YCSB B over Zipf keys <em>not</em> scrambled: the hottest rows are neighbours in key order. */
  B_ZIPF_ORDERED("B-zipf-ordered", 0.05),
  B_UNIFORM("B-uniform", 0.05),
  C_ZIPF("C-zipf", 0),
  C_ZIPF_ORDERED("C-zipf-ordered", 0),
  C_UNIFORM("C-uniform", 0),
  CBMG("CBMG", 0),
  /**
   * Gets only, uniform over a hot set of {@link #HOT_SHARE} of the rows: every {@link #HOT_STRIDE}th
   * row from the first. So a quarter of each hot block's rows are hot, which the KV cache's rule
   * promotes (each beats its block's mean + one standard deviation), and the hot blocks together
   * (a tenth of the data) fit in the default cache budget, so that their rows stay cached long
   * enough to be counted. At 1M rows the hot rows take some 12 MB, more than the KV cache's
   * initial 10 MiB: the workload that makes its dynamic sizing grow it (YCSB's Zipf and CBMG
   * promote a few hundred to 1,500 rows, which fit in 2-4 MiB).
   */
  C_HOT("C-hot", 0);

  static final String DEFAULT_SUITE = "B-zipf,B-uniform,CBMG";
  /** Hot keys of CBMG as a share of the rows. */
  static final double CBMG_HOT_SHARE = 0.1;
  /** Hot rows of C-hot as a share of the rows. */
  static final double HOT_SHARE = 0.025;
  /** One row in this many is hot in C-hot's hot blocks. */
  static final long HOT_STRIDE = 4;

  final String label;
  final double updateShare;

  ReadWorkload(String label, double updateShare) {
    this.label = label;
    this.updateShare = updateShare;
  }

  /** A fresh, seeded chooser of items for one client thread; not thread-safe. */
  LongSupplier items(long rows, long seed) {
    return switch (this) {
      case B_ZIPF, C_ZIPF -> new ScrambledZipfKeys(rows, seed)::nextItem;
      case B_ZIPF_ORDERED, C_ZIPF_ORDERED -> new ZipfKeys(rows, ZipfKeys.DEFAULT_THETA, seed)::nextRank;
      case B_UNIFORM, C_UNIFORM -> {
        SplittableRandom r = new SplittableRandom(seed);
        yield () -> r.nextLong(rows);
      }
      case CBMG -> new CbmgKeys(rows, Math.max(2, (long) (rows * CBMG_HOT_SHARE)), CbmgKeys.DEFAULT_P_NEAR,
          CbmgKeys.DEFAULT_P_HOT, CbmgKeys.DEFAULT_MEAN_SESSION, seed)::next;
      case C_HOT -> {
        long hot = Math.max(1, (long) (rows * HOT_SHARE));
        SplittableRandom r = new SplittableRandom(seed);
        yield () -> Math.min(rows - 1, r.nextLong(hot) * HOT_STRIDE);
      }
    };
  }

  static ReadWorkload parse(String label) {
    for (ReadWorkload w : values()) {
      if (w.label.equalsIgnoreCase(label.trim())) {
        return w;
      }
    }
    throw new IllegalArgumentException("unknown workload '" + label + "'; known: B-zipf, B-zipf-ordered, B-uniform,"
        + " C-zipf, C-zipf-ordered, C-uniform, CBMG, C-hot");
  }

  static List<ReadWorkload> parseList(String list) {
    LinkedHashSet<ReadWorkload> out = new LinkedHashSet<>();
    for (String s : list.split(",")) {
      if (!s.isBlank()) {
        out.add(parse(s));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no workload given");
    }
    return List.copyOf(out);
  }
}
