package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static io.bellows.memstore.MemStoreFixtures.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.memstore.MemStoreFixtures.Form;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.config.ActiveIndexType;
import io.bellows.config.MemStorePolicy;
import io.bellows.config.SegmentIndexType;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chunk-backed segments: knob resolution, chunk lifetime under scans, relocation on compaction,
 * accounting of chunk indexes, and the tombstone-aware time-range skip. Every test ends with the
 * chunk pool at its baseline.
 */
class ChunkSegmentTest {
  private final MemStoreFixtures.ManualExecutor bg = new MemStoreFixtures.ManualExecutor();
  private ChunkAllocator chunks;

  @AfterEach
  void poolBackAtBaseline() {
    if (chunks != null) {
      chunks.checkNoChunksInUse();
    }
  }

  private CompactingMemStore store(MemStorePolicy policy, Form form, long flushSize, boolean newestOnly) {
    chunks = form.allocator();
    MemStoreContext ctx = MemStoreFixtures.context(MemStoreFixtures.family(policy, 0.05, 2, 0.2, form), flushSize,
        bg, newestOnly ? MemStoreFixtures::newestOnly : MemStoreFixtures::keepAll, MemStoreContext.Listener.NONE,
        chunks);
    return new CompactingMemStore(ctx, () -> 0.0);
  }

  private static Form chunkForm(boolean offHeap) {
    return new Form(true, ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.CHUNK, offHeap);
  }

  @Test
  void knobsResolveToValidForms() {
    CompactingMemStore ms = store(MemStorePolicy.BASIC,
        new Form(false, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, false), 1 << 20, false);
    SegmentFactory f = ms.segmentFactory();
    assertThat(f.mslab()).as("a chunk index alone copies at flatten, not as writers add").isFalse();
    assertThat(f.chunkActive()).isFalse();
    assertThat(f.chunkFlat()).isTrue();
    assertThat(f.heapViews()).as("its cells view heap chunks once flat").isTrue();
    ms.close();
    ms = store(MemStorePolicy.BASIC, new Form(false, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, true),
        1 << 20, false);
    f = ms.segmentFactory();
    assertThat(f.chunkActive()).as("without MSLAB the active segment stays on the heap").isFalse();
    assertThat(f.chunkFlat()).isTrue();
    assertThat(f.heapViews()).isFalse();
    ms.close();
    ms = store(MemStorePolicy.BASIC, new Form(true, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, true),
        1 << 20, false);
    f = ms.segmentFactory();
    assertThat(f.chunkActive()).as("off heap forces chunk indexes").isTrue();
    assertThat(f.chunkFlat()).isTrue();
    assertThat(f.heapViews()).isFalse();
    ms.close();
  }

  /**
   * Without MSLAB a chunk index store keeps the writers' cells in its active segment (an idle store
   * holds no chunk), and the flatten copies them into chunks sized to the segment: the data chunk is
   * no bigger than the cells, the index chunk no bigger than their entries.
   */
  @Test
  void flattenCopiesIntoChunksSizedToTheSegment() {
    CompactingMemStore ms = store(MemStorePolicy.BASIC,
        new Form(false, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, false), 1 << 20, false);
    List<Cell> written = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Cell c = cell(String.format("row%03d", i), "q", 1, i + 1);
      written.add(c);
      ms.add(c);
    }
    assertThat(chunks.stats().chunksInUse()).as("the active segment keeps the writers' arrays").isZero();
    ms.close();
    chunks.checkNoChunksInUse();

    ms = store(MemStorePolicy.BASIC,
        new Form(false, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, false), 1 << 20, false);
    MutableSegment active = ms.segmentFactory().newActive(1);
    long data = 0;
    for (Cell c : written) {
      active.add(c, new MemStoreAccounting());
      data += c.length();
    }
    active.seal(null);
    active.awaitSealed();
    SegmentCompactor.Result r = new SegmentCompactor(() -> 99, ms.segmentFactory()).flatten(active);
    ImmutableSegment flat = r.output();
    assertThat(flat.kind()).isEqualTo(SegmentKind.CHUNK);
    assertThat(readAll(List.of(flat.tryScanner()))).containsExactlyElementsOf(written);
    io.bellows.memstore.chunk.ChunkAllocator.Stats st = chunks.stats();
    assertThat(st.chunksInUse()).as("one data chunk, one index chunk").isEqualTo(2);
    assertThat(st.bytesInUse()).as("sized to the cells and their entries")
        .isEqualTo(data + 40L * io.bellows.memstore.chunk.ChunkCellIndex.ENTRY_SIZE);
    flat.release();
    active.release();
    ms.close();
    chunks.checkNoChunksInUse();
  }

  /**
   * A scan opened before a flush keeps reading its segments' chunks while the flush releases them
   * and new writes fill recycled chunks: the scan sees its old cells intact, and the chunks return
   * to the pool only when it closes.
   */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void scanInProgressNeverReadsARecycledChunk(boolean offHeap) {
    CompactingMemStore ms = store(MemStorePolicy.BASIC, chunkForm(offHeap), 1 << 20, false);
    List<Cell> written = new ArrayList<>();
    long seq = 5_000_000_000L;
    for (int i = 0; i < 2000; i++) {
      Cell c = cell("row" + (1000 + i), "q", 1, seq++);
      ms.add(c);
      written.add(c);
    }
    List<CellScanner> scan = ms.scanners();
    for (CellScanner s : scan) {
      s.seek(SegmentCompactor.firstKey());
    }
    long inUseDuringScan = chunks.stats().chunksInUse();
    FlushSnapshot snap = ms.snapshot();
    ms.releaseSnapshot(snap); // the memory store lets go; only the scan holds the segment now
    assertThat(chunks.stats().chunksInUse()).as("chunks under an open scan stay allocated")
        .isGreaterThanOrEqualTo(inUseDuringScan);
    // New writes with different bytes: any freed chunk would be reused and overwritten here.
    for (int i = 0; i < 2000; i++) {
      ms.add(MemStoreFixtures.bigCell("row" + (1000 + i), "q", 2, seq++, 80));
    }
    List<Cell> read = new ArrayList<>();
    for (CellScanner s : scan) {
      for (Cell c = s.next(); c != null; c = s.next()) {
        read.add(c);
      }
    }
    read.sort(io.bellows.cell.CellComparator.INSTANCE); // one scanner per segment: merge them
    assertThat(read).containsExactlyElementsOf(written);
    for (int i = 0; i < read.size(); i++) {
      assertThat(read.get(i).value()).isEqualTo(written.get(i).value());
    }
    long pooledBefore = chunks.stats().chunksPooled();
    scan.forEach(CellScanner::close);
    assertThat(chunks.stats().chunksPooled()).as("closing the scan returns its chunks").isGreaterThan(pooledBefore);
    // Cells handed out own their bytes: still intact after their chunks were recycled.
    ms.releaseSnapshot(ms.snapshot());
    for (int i = 0; i < 2000; i++) {
      ms.add(MemStoreFixtures.bigCell("row" + i, "q", 3, seq++, 80));
    }
    for (int i = 0; i < read.size(); i++) {
      assertThat(read.get(i).value()).isEqualTo(written.get(i).value());
    }
    ms.close();
  }

  /**
   * EAGER compaction copies survivors into a fresh MSLAB, jumbo cells included: the result never
   * points into the retired chunks, which go back to the pool (jumbo ones are dropped).
   */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void eagerCompactionRelocatesSurvivorsIncludingJumboCells(boolean offHeap) {
    CompactingMemStore ms = store(MemStorePolicy.EAGER, chunkForm(offHeap), 4 << 20, true);
    long seq = 3_000_000_000L;
    int big = MemStoreFixtures.TEST_CHUNK_SIZE * 2;
    ms.add(MemStoreFixtures.bigCell("a", "old", 1, seq++, big)); // superseded below: eliminated
    ms.add(MemStoreFixtures.bigCell("b", "jumbo", 1, seq++, big)); // survives: relocated
    for (int i = 0; i < 300; i++) {
      ms.add(cell("row" + (i % 30), "q", i, seq++)); // ten versions per column
    }
    ms.add(MemStoreFixtures.bigCell("a", "old", 2, seq++, 10));
    assertThat(chunks.stats().jumboInUse()).isEqualTo(2);
    // Force the active segment into the pipeline and compact it.
    while (ms.metrics().get("memstore.in.memory.flushes").longValue() == 0) {
      ms.add(cell("zz", "pad", seq, seq++));
    }
    bg.runAll();
    assertThat(ms.metrics().get("memstore.compactions").longValue()).isPositive();
    assertThat(ms.metrics().get("memstore.cells.eliminated").longValue()).isPositive();
    assertThat(ms.metrics().get("memstore.bytes.relocated").longValue()).isGreaterThan(big);
    assertThat(chunks.stats().jumboCreated()).as("the surviving jumbo cell was copied").isEqualTo(3);
    assertThat(chunks.stats().jumboInUse()).as("old jumbo chunks retired, the copy lives").isEqualTo(1);

    NavigableSet<Cell> now = readAll(ms.scanners());
    Cell jumbo = now.stream().filter(c -> Bytes.str(c.qualifier()).equals("jumbo")).findFirst().orElseThrow();
    assertThat(jumbo.valueLength()).isEqualTo(big);
    assertThat(now.stream().filter(c -> Bytes.str(c.qualifier()).equals("old")).count()).isEqualTo(1);
    assertThat(now.stream().filter(c -> Bytes.str(c.row()).startsWith("row")).count()).isEqualTo(30);

    // Only the compaction output and the new active segment hold chunks now.
    long inUse = chunks.stats().chunksInUse();
    FlushSnapshot snap = ms.snapshot();
    ms.releaseSnapshot(snap);
    assertThat(chunks.stats().chunksInUse()).isLessThan(inUse);
    assertThat(chunks.stats().jumboInUse()).isZero();
    ms.close();
  }

  @Test
  void chunkIndexesChargeTheirRealOverheadAndReturnToZero() {
    CompactingMemStore ms = store(MemStorePolicy.BASIC, chunkForm(true), 40_000, false);
    long seq = 1L << 32;
    while (ms.metrics().get("memstore.in.memory.flushes").longValue() == 0) {
      ms.add(cell("row" + seq, "q", 1, seq++));
    }
    MemStoreSize active = ms.size();
    // Chunk skiplist: overhead = node bytes (16 + 8 per level, at least 24 per cell), all off heap,
    // plus the active segment's row filter on the heap.
    long activeFilter = ms.activeRowFilterBytes();
    long nodes = active.overheadBytes() - activeFilter;
    assertThat(nodes % 8).isZero();
    assertThat(nodes).isBetween(24 * active.cellCount(), 32 * active.cellCount());
    assertThat(active.offHeapBytes()).isEqualTo(active.footprint() - activeFilter);
    bg.runAll();
    MemStoreSize flat = ms.size();
    assertThat(ms.metrics().get("memstore.footprint.chunk").longValue()).isPositive();
    // Flat chunk index: exactly 20 bytes per cell, no cell objects, plus the heap row filter (one
    // row per cell here).
    long filter = SegmentRowFilter.heapBytesFor((int) flat.cellCount());
    assertThat(flat.overheadBytes()).isEqualTo(20 * flat.cellCount() + filter);
    assertThat(flat.dataBytes()).isEqualTo(active.dataBytes());
    assertThat(flat.offHeapBytes()).isEqualTo(flat.footprint() - filter);
    ms.releaseSnapshot(ms.snapshot());
    assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
    ms.close();
  }

  @Test
  void heapMslabWithArraysChargesCellViewsOnly() {
    CompactingMemStore ms = store(MemStorePolicy.BASIC,
        new Form(true, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, false), 40_000, false);
    Cell c = cell("row", "q", 1, 1);
    ms.add(c);
    // The kept cell is a view into a chunk: no private array header, and nothing off heap.
    assertThat(ms.size()).isEqualTo(new MemStoreSize(c.length(),
        MemoryLayout.CELL_OBJECT + MemoryLayout.SKIPLIST_ENTRY + ms.activeRowFilterBytes(), 0, 1));
    ms.close();
  }

  /**
   * A segment of only newer cells is never skipped by a time range that ends before them: a newer
   * version still takes a VERSIONS slot and a newer tombstone still masks older cells elsewhere.
   * A segment of only older cells is skipped.
   */
  @Test
  void timeRangeSkipsOnlySegmentsOlderThanTheRange() {
    MemStoreAccounting acct = new MemStoreAccounting();
    MutableSegment puts = new MutableSegment(1, new SkipListActiveIndex());
    MutableSegment deletes = new MutableSegment(2, new SkipListActiveIndex());
    add(puts, cell("r", "q", 500, 1), acct);
    add(deletes, withSeq(Cells.create(Bytes.of("r"), MemStoreFixtures.FAMILY, Bytes.EMPTY, 500, CellType.DELETE_FAMILY,
        Bytes.EMPTY), 2), acct);
    ScanQuery older = ScanQuery.builder().timeRange(0, 100).build();
    assertThat(puts.stats().mayMatch(older)).as("a newer version takes a version slot").isTrue();
    assertThat(deletes.stats().mayMatch(older)).as("a newer family delete still masks older cells").isTrue();
    ScanQuery newer = ScanQuery.builder().timeRange(600, 700).build();
    assertThat(puts.stats().mayMatch(newer)).as("everything here is older than the range").isFalse();
    assertThat(deletes.stats().mayMatch(newer)).as("everything here is older than the range").isFalse();
    deletes.seal(null);
    ImmutableSegment flat = new SegmentCompactor(() -> 9, MemStoreFixtures.plainSegments()).flatten(deletes).output();
    assertThat(flat.stats().mayMatch(older)).isTrue();
    assertThat(flat.stats().mayMatch(newer)).isFalse();
  }

  private static Cell withSeq(Cell c, long seq) {
    c.setSeqId(seq);
    return c;
  }

  private static void add(MutableSegment s, Cell c, MemStoreAccounting acct) {
    assertThat(s.tryEnter()).isTrue();
    s.add(c, acct);
    s.exit();
  }
}
