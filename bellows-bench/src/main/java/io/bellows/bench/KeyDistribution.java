package io.bellows.bench;

/** The key distributions of the benchmarks; makes a seeded {@link KeyChooser} for one writer. */
public enum KeyDistribution {
  /** Zipf with θ = 0.99 over {@code keySpace} rows, hot rows scattered over the key range. */
  ZIPF {
    @Override
    public KeyChooser chooser(long keySpace, long seed) {
      return new ZipfKeys(keySpace, ZipfKeys.DEFAULT_THETA, seed);
    }
  },
  /** YCSB's scrambled zipfian (θ = 0.99, YCSB's constants) over {@code keySpace} rows: {@link ScrambledZipfKeys}. */
  SCRAMBLED_ZIPF {
    @Override
    public KeyChooser chooser(long keySpace, long seed) {
      return new ScrambledZipfKeys(keySpace, seed);
    }
  },
  /** Uniform over {@code keySpace} rows, with repeats: {@link UniformKeys}. */
  UNIFORM {
    @Override
    public KeyChooser chooser(long keySpace, long seed) {
      return new UniformKeys(keySpace, seed);
    }
  },
  /** Every put writes a row never written before (no redundancy at all); {@code keySpace} is unused. */
  UNIQUE {
    @Override
    public KeyChooser chooser(long keySpace, long seed) {
      return new UniqueKeys(seed);
    }
  },
  /**
   * YCSB's "latest": 5% of puts insert a new row, the others update recent rows, the newest the
   * most often ({@link LatestKeys}); {@code keySpace} rows exist at the start.
   */
  LATEST {
    @Override
    public KeyChooser chooser(long keySpace, long seed) {
      return new LatestKeys(keySpace, seed, 0, 1);
    }

    @Override
    public KeyChooser chooser(long keySpace, long seed, int writer, int writers) {
      return new LatestKeys(keySpace, seed, writer, writers);
    }
  };

  /** A chooser for a run with a single writer. */
  public abstract KeyChooser chooser(long keySpace, long seed);

  /**
   * The chooser of writer {@code writer} of {@code writers}: the same as {@link #chooser(long, long)}
   * unless the distribution's writers must share out new rows (LATEST).
   */
  public KeyChooser chooser(long keySpace, long seed, int writer, int writers) {
    return chooser(keySpace, seed);
  }
}
