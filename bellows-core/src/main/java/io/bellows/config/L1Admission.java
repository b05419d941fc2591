package io.bellows.config;

/** Which data blocks read from a file the on-heap cache (L1) takes in ({@code bellows.blockcache.l1.admission}). */
public enum L1Admission {
  /** Every block read (HBase's and RocksDB's way). */
  ALL,
  /**
   * A block read again while its key is still remembered from its last miss (io.bellows.cache.ReadAgainFilter):
   * a block read once, as most are when gets spread over far more blocks than the cache holds, is
   * not cached, so it dies young instead of living on in the cache for the collector to copy.
   */
  READ_AGAIN,
  /**
   * No data block read from a file, nor L2's copies of them (the default): data blocks live in L2,
   * off the heap, and gets read them where they lie; L1's budget serves the KV cache and the blocks
   * of IN_MEMORY families. Without an L2 this is {@link #ALL}: data blocks must be cached somewhere.
   */
  NONE
}
