package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.memstore.chunk.ChunkCellIndex;
import io.bellows.memstore.chunk.ChunkEntryCursor;
import java.nio.ByteBuffer;

/**
 * An {@link ImmutableIndex} over a {@link ChunkCellIndex} (CellChunkMap): 20 bytes per cell in
 * chunk memory and no Java object per cell; {@link #get} materializes a cell (a view over a heap
 * chunk, a copy from a direct one). Seeks compare keys in place in chunk memory. The segment that
 * owns this index holds the {@link ChunkCellIndex}'s reference. Immutable and thread-safe.
 */
final class ChunkImmutableIndex implements ImmutableIndex {
  private final ChunkCellIndex index;

  ChunkImmutableIndex(ChunkCellIndex index) {
    this.index = index;
  }

  ChunkCellIndex chunkIndex() {
    return index;
  }

  @Override
  public int size() {
    return index.size();
  }

  @Override
  public Cell get(int i) {
    return index.cell(i);
  }

  @Override
  public long indexBytes() {
    return index.indexBytes();
  }

  @Override
  public SegmentKind kind() {
    return SegmentKind.CHUNK;
  }

  @Override
  public int ceiling(Cell key, int from) {
    // Sorted: if the first cell >= key is before from, every cell from 'from' on is >= key too.
    return Math.max(from, index.seek(key));
  }

  @Override
  public int ceiling(Cell key, int from, int to) {
    return Math.min(to, ceiling(key, from));
  }

  @Override
  public ChunkEntryCursor entries() {
    return new ChunkEntryCursor() {
      private int i;

      @Override
      public boolean valid() {
        return i < index.size();
      }

      @Override
      public void advance() {
        i++;
      }

      @Override
      public int chunkId() {
        return index.chunkId(i);
      }

      @Override
      public int offset() {
        return index.offset(i);
      }

      @Override
      public int length() {
        return index.length(i);
      }

      @Override
      public long seqId() {
        return index.seqId(i);
      }

      @Override
      public ByteBuffer buffer() {
        return index.dataBuffer(i);
      }
    };
  }
}
