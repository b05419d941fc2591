package io.bellows.config;

/** Index of an immutable (flat) memory segment. */
public enum SegmentIndexType {
  /** An ordered array of references to cell objects, binary-searched (CellArrayMap). */
  ARRAY,
  /** A serialized index in memory chunks: chunk id, offset, length and sequence id per cell, no per-cell object (CellChunkMap). */
  CHUNK
}
