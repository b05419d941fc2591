package io.bellows.memstore;

/** The index form of a memory segment, used for metrics (footprint per segment type). */
public enum SegmentKind {
  /** Mutable: a concurrent skiplist of cell objects (the active segment). */
  SKIPLIST,
  /** Mutable: a concurrent skiplist whose nodes live in chunk memory (no object per cell). */
  CHUNK_SKIPLIST,
  /** Immutable: a sorted array of cell references (flattened, merged or compacted). */
  ARRAY,
  /** Immutable: a serialized index in chunk memory (CellChunkMap). */
  CHUNK
}
