package io.bellows.memstore;

import io.bellows.region.OptionsResolver;
import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.Cells;
import io.bellows.config.Knobs;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.config.ActiveIndexType;
import io.bellows.config.SegmentIndexType;
import io.bellows.scan.CellScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.MemStorePolicy;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/** Helpers shared by the memory store tests: contexts, cells, filters, a hand-driven executor. */
final class MemStoreFixtures {
  private MemStoreFixtures() {}

  static final byte[] FAMILY = Bytes.of("f");

  /** An executor that queues tasks until the test runs them, on the test thread. */
  static final class ManualExecutor implements Executor, InMemoryWork {
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private final List<Long> results = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** In-memory work is queued like any task; what it returns is kept for {@link #results}. */
    @Override
    public void submit(java.util.function.LongSupplier task) {
      execute(() -> results.add(task.getAsLong()));
    }

    /** The results of the in-memory work run so far, in order. */
    List<Long> results() {
      return results;
    }

    @Override
    public synchronized void execute(Runnable r) {
      tasks.add(r);
    }

    synchronized Runnable poll() {
      return tasks.poll();
    }

    int pending() {
      synchronized (this) {
        return tasks.size();
      }
    }

    /** Runs queued tasks, including ones they queue, until none is left; returns how many ran. */
    int runAll() {
      int n = 0;
      for (Runnable r = poll(); r != null; r = poll()) {
        r.run();
        n++;
      }
      return n;
    }
  }

  /**
   * Where a memory store's cells and indexes live: the family knobs MSLAB, ACTIVE_INDEX and
   * SEGMENT_INDEX and the engine's off-heap switch. {@link #ALL} lists every distinct resolved form
   * (with MSLAB and off-heap chunks both indexes are chunk indexes whatever the knobs say; a chunk
   * index without MSLAB copies at flatten, on or off heap).
   */
  record Form(boolean mslab, ActiveIndexType active, SegmentIndexType flat, boolean offHeap) {
    static final Form PLAIN = new Form(false, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, false);
    static final List<Form> ALL = List.of(
        PLAIN,
        new Form(true, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, false),
        new Form(false, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, false),
        new Form(true, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, false),
        new Form(false, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, true),
        new Form(false, ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.ARRAY, false),
        new Form(true, ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.CHUNK, false),
        new Form(true, ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, true));

    ColumnFamilyDescriptor.Builder apply(ColumnFamilyDescriptor.Builder b) {
      return b.set(Knobs.MSLAB, mslab).set(Knobs.ACTIVE_INDEX, active).set(Knobs.SEGMENT_INDEX, flat);
    }

    /** A fresh allocator with small chunks (so tests cross chunk boundaries and make jumbo cells). */
    ChunkAllocator allocator() {
      return new ChunkAllocator(TEST_CHUNK_SIZE, 1L << 20, offHeap);
    }

    @Override
    public String toString() {
      return (mslab ? "mslab," : "") + active + "," + flat + (offHeap ? ",offheap" : "");
    }
  }

  static final int TEST_CHUNK_SIZE = 16 * 1024;

  static ColumnFamilyDescriptor family(MemStorePolicy policy, double fraction, int maxSegments, double threshold) {
    return family(policy, fraction, maxSegments, threshold, Form.PLAIN);
  }

  static ColumnFamilyDescriptor family(
      MemStorePolicy policy, double fraction, int maxSegments, double threshold, Form form) {
    return form.apply(ColumnFamilyDescriptor.builder("f")
        .memStorePolicy(policy)
        .set(Knobs.IN_MEMORY_FLUSH_FRACTION, fraction)
        .set(Knobs.PIPELINE_MAX_SEGMENTS, maxSegments)
        .set(Knobs.ADAPTIVE_THRESHOLD, threshold))
        .build();
  }

  static MemStoreContext context(
      ColumnFamilyDescriptor family, long flushSize, Executor background,
      Supplier<RetentionFilter> filter, MemStoreContext.Listener listener) {
    return context(family, flushSize, background, filter, listener, null);
  }

  static MemStoreContext context(
      ColumnFamilyDescriptor family, long flushSize, Executor background,
      Supplier<RetentionFilter> filter, MemStoreContext.Listener listener, ChunkAllocator chunks) {
    return new MemStoreContext(family.name(), OptionsResolver.memStore(family), flushSize, chunks,
        background instanceof InMemoryWork w ? w : InMemoryWork.on(background),
        filter, Clock.SYSTEM, listener);
  }

  /** Segment forms of a plain family (no chunks). */
  static SegmentFactory plainSegments() {
    return new SegmentFactory(context(family(MemStorePolicy.BASIC, 0.05, 2, 0.2), 1 << 20, Runnable::run,
        MemStoreFixtures::keepAll, MemStoreContext.Listener.NONE));
  }

  static Cell cell(String row, String qualifier, long ts, long seq) {
    Cell c = Cells.put(Bytes.of(row), FAMILY, Bytes.of(qualifier), ts, Bytes.of("value-" + seq));
    c.setSeqId(seq);
    return c;
  }

  /** A put whose value makes the serialized cell at least {@code size} bytes. */
  static Cell bigCell(String row, String qualifier, long ts, long seq, int size) {
    byte[] value = new byte[size];
    java.util.Arrays.fill(value, (byte) seq);
    Cell c = Cells.put(Bytes.of(row), FAMILY, Bytes.of(qualifier), ts, value);
    c.setSeqId(seq);
    return c;
  }

  /** Keeps everything: proves that no in-memory operation loses a cell. */
  static RetentionFilter keepAll() {
    return c -> true;
  }

  /** Keeps only the first (newest) cell of each column in the input it is fed. */
  static RetentionFilter newestOnly() {
    return new RetentionFilter() {
      private Cell prev;

      @Override
      public boolean keep(Cell c) {
        boolean first = prev == null || CellComparator.compareColumns(prev, c) != 0;
        prev = c;
        return first;
      }
    };
  }

  /** Reads every scanner fully from the start, closes them, and returns the deduplicated union. */
  static NavigableSet<Cell> readAll(List<CellScanner> scanners) {
    NavigableSet<Cell> out = new TreeSet<>(CellComparator.INSTANCE);
    for (CellScanner s : scanners) {
      try (s) {
        s.seek(SegmentCompactor.firstKey());
        for (Cell c = s.next(); c != null; c = s.next()) {
          out.add(c);
        }
      }
    }
    return out;
  }

  /** Counts cells over all scanners without deduplicating. */
  static long countAll(CellScanner s) {
    long n = 0;
    try (s) {
      s.seek(SegmentCompactor.firstKey());
      for (Cell c = s.next(); c != null; c = s.next()) {
        n++;
      }
    }
    return n;
  }
}
