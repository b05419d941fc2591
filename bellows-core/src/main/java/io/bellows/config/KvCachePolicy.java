package io.bellows.config;

/** How the KV cache chooses the rows it drops when full (docs/design/kv-cache.md). */
public enum KvCachePolicy {
  /**
   * The SAC 2024 paper's policy: drop the lowest weight W = frequency^f / (size^d × age), kept in a
   * min-heap refreshed periodically, reclaiming from a high to a low watermark.
   */
  WEIGHTED,
  /** Least recently used first. */
  LRU,
  /** Window TinyLFU (Caffeine): admits a newcomer only if it is estimated more frequent than the victim. */
  TINYLFU
}
