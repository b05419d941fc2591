package io.bellows.cache;

import java.nio.ByteBuffer;

/**
 * Reads a cached block's payload where the cache holds it ({@link BlockCache#readInPlace}), copying
 * out whatever it keeps: the buffer is valid only during the call, and must not be written.
 *
 * <p>Over the off-heap cache the read is optimistic: the slot may be freed and reused by another
 * block while the reader runs, in which case its result (or exception) is discarded and it runs
 * again under the slot's read lock. A reader must therefore have no effect beyond its result, must
 * end on any bytes (bounds-checked decoding does: it throws on what it cannot decode), and must
 * allocate no more than the payload's size.
 *
 * @param <T> what the reader makes of the payload; never null
 */
@FunctionalInterface
public interface PayloadReader<T> {
  /** Reads {@code payload}'s bytes {@code [0, limit)} by absolute index. */
  T read(ByteBuffer payload);
}
