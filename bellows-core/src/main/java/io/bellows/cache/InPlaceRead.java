package io.bellows.cache;

/**
 * What {@link BlockCache#readInPlace} found: the reader's result, and the cached block it read,
 * which carries the KV cache's per-row counts. For a block read in the off-heap cache's memory the
 * block has no heap payload ({@link CachedBlock#hasPayload} is false): only its counts and sizes.
 */
public record InPlaceRead<T>(T value, CachedBlock block) {}
