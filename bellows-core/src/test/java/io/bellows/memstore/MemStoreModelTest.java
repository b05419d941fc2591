package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static io.bellows.memstore.MemStoreFixtures.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.memstore.MemStoreFixtures.Form;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.scan.RetentionFilter;
import io.bellows.config.ActiveIndexType;
import io.bellows.config.SegmentIndexType;
import io.bellows.config.MemStorePolicy;
import java.util.ArrayList;
import io.bellows.util.Bytes;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random adds (many versions of few keys), background rounds, snapshots and releases, checked after
 * every step against a model of what was added and flushed. With a keep-everything filter the union
 * of scanners must equal exactly the unflushed cells; with a newest-version-only filter it may lack
 * only cells that have a newer version of their column.
 */
class MemStoreModelTest {
  static List<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long[] seeds = {1L, 7L, 20240611L};
    for (MemStorePolicy p : MemStorePolicy.values()) {
      for (Form form : Form.ALL) {
        // Every form with one seed; the plain form (the reference) with all of them.
        for (long seed : form == Form.PLAIN ? seeds : new long[] {seeds[p.ordinal() % seeds.length]}) {
          out.add(Arguments.of(p, form, false, seed));
          out.add(Arguments.of(p, form, true, seed));
        }
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {1} newestOnly={2} seed={3}")
  @MethodSource("cases")
  void scannersHoldExactlyWhatTheModelAllows(MemStorePolicy policy, Form form, boolean newestOnly, long seed) {
    System.out.println("MemStoreModelTest seed=" + seed + " policy=" + policy + " form=" + form
        + " newestOnly=" + newestOnly);
    Random rnd = new Random(seed);
    MemStoreFixtures.ManualExecutor bg = new MemStoreFixtures.ManualExecutor();
    Supplier<RetentionFilter> filter = newestOnly ? MemStoreFixtures::newestOnly : MemStoreFixtures::keepAll;
    ChunkAllocator chunks = form.allocator();
    MemStoreContext ctx = MemStoreFixtures.context(MemStoreFixtures.family(policy, 0.05, 2, 0.2, form), 20_000, bg,
        filter, MemStoreContext.Listener.NONE, chunks);
    MemStore ms = policy == MemStorePolicy.NONE
        ? new DefaultMemStore(ctx)
        : new CompactingMemStore(ctx, new Random(seed ^ 0x5DEECE66DL)::nextDouble);

    NavigableSet<Cell> unflushed = new TreeSet<>(CellComparator.INSTANCE);
    java.util.Map<String, Cell> newest = new java.util.HashMap<>();
    FlushSnapshot pending = null;
    long seq = (1L << 31) + 10; // sequence ids beyond int range
    for (int step = 0; step < 600; step++) {
      int action = rnd.nextInt(100);
      if (action < 80) {
        Cell c = rnd.nextInt(200) == 0
            ? MemStoreFixtures.bigCell("row" + rnd.nextInt(8), "q" + rnd.nextInt(3), 1 + rnd.nextInt(6), seq++,
                MemStoreFixtures.TEST_CHUNK_SIZE + 100) // larger than a chunk: a jumbo chunk with MSLAB
            : cell("row" + rnd.nextInt(8), "q" + rnd.nextInt(3), 1 + rnd.nextInt(6), seq++);
        ms.add(c);
        unflushed.add(c);
        newest.merge(columnKey(c), c, (a, b) -> CellComparator.INSTANCE.compare(a, b) <= 0 ? a : b);
      } else if (action < 90) {
        bg.runAll();
      } else if (action < 95 && pending == null) {
        pending = ms.snapshot();
        NavigableSet<Cell> inSnap = readAll(List.of(pending.scanner()));
        assertThat(MemStoreFixtures.countAll(pending.scanner())).isEqualTo(pending.cellCount());
        assertThat(inSnap).hasSize((int) pending.cellCount());
      } else if (pending != null) {
        NavigableSet<Cell> inSnap = readAll(List.of(pending.scanner()));
        ms.releaseSnapshot(pending);
        pending = null;
        unflushed.removeAll(inSnap);
      }
      check(ms, unflushed, newest, newestOnly, "step " + step);
    }
    bg.runAll();
    check(ms, unflushed, newest, newestOnly, "end");
    if (pending != null) {
      ms.releaseSnapshot(pending);
    }
    for (int i = 0; i < 2; i++) {
      FlushSnapshot s = ms.snapshot();
      ms.releaseSnapshot(s);
    }
    bg.runAll();
    assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
    assertThat(ms.oldestUnflushedSeqId()).isEqualTo(Long.MAX_VALUE);
    assertThat(readAll(ms.scanners())).isEmpty();
    if (policy == MemStorePolicy.EAGER && newestOnly) {
      assertThat(ms.metrics().get("memstore.cells.eliminated").longValue()).isPositive();
    }
    if (policy != MemStorePolicy.NONE) {
      System.out.println(ms.metrics());
      assertThat(ms.metrics().get("memstore.in.memory.flushes").longValue()).isPositive();
      // BASIC merges, EAGER compacts, ADAPTIVE does either (its draw decides).
      long merges = ms.metrics().get("memstore.merges").longValue();
      long compactions = ms.metrics().get("memstore.compactions").longValue();
      assertThat(policy == MemStorePolicy.EAGER ? compactions
          : policy == MemStorePolicy.BASIC ? merges : merges + compactions).isPositive();
    }
    ms.close();
    chunks.checkNoChunksInUse(); // the pool is back at its baseline
    // A chunk index without MSLAB takes chunks only when it flattens, which NONE never does.
    if (form.mslab() || form.active() != ActiveIndexType.OBJECT_SKIPLIST
        || (form.flat() != SegmentIndexType.ARRAY && policy != MemStorePolicy.NONE)) {
      assertThat(chunks.stats().chunksCreated()).as("chunk-backed form really used chunks").isPositive();
    } else {
      assertThat(chunks.stats().chunksCreated()).isZero();
    }
  }

  private static void check(
      MemStore ms, NavigableSet<Cell> unflushed, java.util.Map<String, Cell> newest, boolean newestOnly, String where) {
    NavigableSet<Cell> present = readAll(ms.scanners());
    if (!newestOnly) {
      assertThat(present).as(where).isEqualTo(unflushed);
    } else {
      assertThat(unflushed).as(where).containsAll(present);
      for (Cell c : unflushed) {
        if (newest.get(columnKey(c)) == c) {
          assertThat(present).as(where + ": newest version " + c).contains(c);
        }
      }
    }
    // At a quiescent moment every cell lives in exactly one segment, so the accounting's cell count
    // equals the deduplicated union.
    assertThat(ms.size().cellCount()).as(where).isEqualTo(present.size());
    long minSeq = present.stream().mapToLong(Cell::seqId).min().orElse(Long.MAX_VALUE);
    assertThat(ms.oldestUnflushedSeqId()).as(where).isLessThanOrEqualTo(minSeq);
    checkRowBefore(ms, present, where);
  }

  /** Reversed reads: every segment's last row before a probe row, merged, is the model's. */
  private static void checkRowBefore(MemStore ms, NavigableSet<Cell> present, String where) {
    java.util.TreeSet<String> rows = new java.util.TreeSet<>();
    present.forEach(c -> rows.add(Bytes.str(c.row())));
    List<String> probes = new java.util.ArrayList<>(List.of("", "a", "row3\u0000", "rowz"));
    for (int i = 0; i <= 8; i++) {
      probes.add("row" + i);
    }
    for (String probe : probes) {
      String best = null;
      for (io.bellows.scan.CellScanner s : ms.scanners()) {
        try (s) {
          byte[] r = s.rowBefore(Bytes.of(probe));
          if (r != null && (best == null || Bytes.str(r).compareTo(best) > 0)) {
            best = Bytes.str(r);
          }
        }
      }
      String want = probe.isEmpty() ? (rows.isEmpty() ? null : rows.last()) : rows.lower(probe);
      assertThat(best).as(where + ": row before '" + probe + "'").isEqualTo(want);
    }
  }

  private static String columnKey(Cell c) {
    return io.bellows.util.Bytes.str(c.row()) + "/" + io.bellows.util.Bytes.str(c.qualifier());
  }
}
