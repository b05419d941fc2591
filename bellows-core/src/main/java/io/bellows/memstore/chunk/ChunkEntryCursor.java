package io.bellows.memstore.chunk;

import java.nio.ByteBuffer;

/**
 * A forward cursor over cells that live in chunks, exposing where each cell is instead of a {@code
 * Cell} object, so an index over the same bytes can be built without copying or materializing
 * them (an in-memory merge into a {@link ChunkCellIndex}).
 *
 * <p>Not thread-safe (one reader). The caller holds references on the chunks for as long as it
 * uses the cursor.
 */
public interface ChunkEntryCursor {
  /** Whether the cursor is on a cell (false once exhausted). */
  boolean valid();

  /** Moves to the next cell. */
  void advance();

  int chunkId();

  /** Offset of the serialized cell in its chunk. */
  int offset();

  /** Serialized length of the cell. */
  int length();

  long seqId();

  /** The buffer of the current cell's chunk (absolute access only). */
  ByteBuffer buffer();
}
