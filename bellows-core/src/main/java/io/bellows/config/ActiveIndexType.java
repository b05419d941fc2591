package io.bellows.config;

/** Index of the mutable (active) memory segment. */
public enum ActiveIndexType {
  /** A {@code ConcurrentSkipListMap} of cell objects. */
  OBJECT_SKIPLIST,
  /** A concurrent skiplist whose nodes live in memory chunks: no per-cell Java object. */
  CHUNK_SKIPLIST
}
