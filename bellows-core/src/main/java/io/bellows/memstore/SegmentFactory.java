package io.bellows.memstore;

import io.bellows.config.ActiveIndexType;
import io.bellows.config.SegmentIndexType;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.memstore.chunk.MemStoreLab;

/**
 * Turns a family's memory settings ({@code MSLAB}, {@code ACTIVE_INDEX}, {@code SEGMENT_INDEX}, as
 * resolved into {@link MemStoreOptions}) and the allocator's on/off-heap mode (the engine's {@code
 * bellows.mslab.offheap}) into the forms a store's segments really take,
 * and creates active segments accordingly. Immutable; thread-safe.
 *
 * <p>Resolution rules (the knobs are requests; these make every combination valid):
 *
 * <ol>
 *   <li>A chunk skiplist refers to cells by chunk position, so it implies MSLAB: writers copy cell
 *       bytes into chunks.
 *   <li>A chunk flat index (CellChunkMap) needs its cells in chunks. With MSLAB they are there
 *       already and a flatten or merge only writes index entries; without it the writers keep their
 *       own arrays in the active segment and the flatten copies the cells into chunks, in key order,
 *       sized to the segment (so an idle store holds no chunk, and writers pay no copy).
 *   <li>With MSLAB and off-heap chunks, both indexes become chunk indexes: a {@code Cell} object
 *       can only view a heap array, so an object skiplist or a cell array over direct memory would
 *       copy every cell back onto the heap. Without MSLAB, off-heap chunks make the flat index a
 *       chunk index (the active segment stays on the heap, in the writers' arrays).
 *   <li>Otherwise each knob is honoured as given.
 * </ol>
 */
final class SegmentFactory {
  private final ChunkAllocator chunks;
  private final boolean mslab;
  private final boolean chunkActive;
  private final boolean chunkFlat;
  private final boolean rowFilter;

  SegmentFactory(MemStoreContext context) {
    MemStoreOptions o = context.options();
    boolean wantChunkActive = o.activeIndex() == ActiveIndexType.CHUNK_SKIPLIST;
    boolean wantChunkFlat = o.segmentIndex() == SegmentIndexType.CHUNK;
    boolean wantMslab = o.mslab() || wantChunkActive;
    this.chunks = context.chunks();
    if ((wantMslab || wantChunkFlat) && chunks == null) {
      throw new IllegalArgumentException("family " + context.family() + " needs memory chunks (MSLAB or a chunk index)"
          + " but the memory store has no chunk allocator");
    }
    boolean offHeap = (wantMslab || wantChunkFlat) && chunks.offHeap();
    this.mslab = wantMslab;
    this.chunkActive = wantChunkActive || (wantMslab && offHeap);
    this.chunkFlat = wantChunkFlat || offHeap;
    this.rowFilter = o.rowFilter();
  }

  /** Whether flat segments get a row Bloom filter for gets ({@code SEGMENT_ROW_FILTER}). */
  boolean rowFilter() {
    return rowFilter;
  }

  /** Whether writers' cell bytes are copied into chunks as they are added (MSLAB). */
  boolean mslab() {
    return mslab;
  }

  /** Whether the active segment uses the chunk skiplist. */
  boolean chunkActive() {
    return chunkActive;
  }

  /** Whether flat segments use the chunk index (CellChunkMap) rather than a cell array. */
  boolean chunkFlat() {
    return chunkFlat;
  }

  /** Whether cells read from chunk-backed segments view heap memory (copied when handed out). */
  boolean heapViews() {
    return (mslab || chunkFlat) && !chunks.offHeap();
  }

  /** The engine's allocator, or null when this store uses no chunks. */
  ChunkAllocator chunks() {
    return chunks;
  }

  /** A fresh lab for a new active segment. */
  MemStoreLab newLab() {
    return new MemStoreLab(chunks);
  }

  /**
   * A fresh lab for the cells of a flatten or compaction, which copies at most {@code expectedBytes}
   * from the calling thread alone (the segment it builds is installed after the copying ends).
   */
  MemStoreLab newLab(long expectedBytes) {
    return MemStoreLab.forOneWriter(chunks, expectedBytes);
  }

  MutableSegment newActive(long id) {
    return newActive(id, 0);
  }

  /**
   * An active segment; with {@code expectedRows} &gt; 0 and row filters on, it gets a row filter
   * sized for that many rows.
   */
  MutableSegment newActive(long id, long expectedRows) {
    ActiveRowFilter filter = rowFilter && expectedRows > 0 ? new ActiveRowFilter(expectedRows) : null;
    if (!mslab) {
      return new MutableSegment(id, new SkipListActiveIndex(), filter);
    }
    MemStoreLab lab = newLab();
    return new MutableSegment(id, chunkActive ? new ChunkSkipListActiveIndex(lab) : new SkipListActiveIndex(lab),
        filter);
  }

  @Override
  public String toString() {
    return "segments(mslab=" + mslab + ", active=" + (chunkActive ? "CHUNK_SKIPLIST" : "OBJECT_SKIPLIST")
        + ", flat=" + (chunkFlat ? "CHUNK" : "ARRAY") + ", offHeap=" + ((mslab || chunkFlat) && chunks.offHeap())
        + ", rowFilter=" + rowFilter + ")";
  }
}
