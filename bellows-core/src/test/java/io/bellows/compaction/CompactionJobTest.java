package io.bellows.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.metrics.MetricSet;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ListScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.DamagedFileException;
import io.bellows.util.EventListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The compaction job on its own, over a target that is a list of files in memory: it merges what
 * the policy picks (or everything, for a major compaction) within the store's row range, has the
 * target write and commit once, gives back every reference it took even when an input is damaged,
 * and never compacts a store whose damage is known.
 */
class CompactionJobTest {
  private static final byte[] F = Bytes.of("f");

  /** A file in memory; counts its references. */
  private static final class MemFile implements CompactionInput {
    final long id;
    final List<Cell> cells;
    final boolean damaged;
    int refs;

    MemFile(long id, List<Cell> cells, boolean damaged) {
      this.id = id;
      this.cells = cells;
      this.damaged = damaged;
    }

    @Override
    public long id() {
      return id;
    }

    @Override
    public long size() {
      return 100L * cells.size();
    }

    @Override
    public long cellCount() {
      return cells.size();
    }

    @Override
    public void retain() {
      refs++;
    }

    @Override
    public void release() {
      refs--;
    }

    @Override
    public CellScanner compactionScanner() {
      if (!damaged) {
        return new ListScanner(cells);
      }
      return new CellScanner() {
        @Override
        public Cell peek() {
          throw new CorruptionException("file " + id + ": bad block");
        }

        @Override
        public Cell next() {
          return peek();
        }

        @Override
        public boolean seek(Cell key) {
          return peek() != null;
        }

        @Override
        public void close() {}
      };
    }
  }

  /** The store's side, in memory: records what the job asked. */
  private static final class MemTarget implements CompactionTarget<MemFile> {
    final List<MemFile> live = new ArrayList<>();
    final List<List<MemFile>> committedInputs = new ArrayList<>();
    final List<RetentionFilter.Mode> modes = new ArrayList<>();
    DamagedFileException damage;
    long nextId = 100;

    @Override
    public List<MemFile> liveFiles() {
      return List.copyOf(live);
    }

    @Override
    public DamagedFileException knownDamage() {
      return damage;
    }

    @Override
    public MemFile write(CellScanner merged, RetentionFilter.Mode mode, long expectedCells, boolean major) {
      modes.add(mode);
      List<Cell> out = new ArrayList<>();
      for (Cell c = merged.next(); c != null; c = merged.next()) {
        out.add(c);
      }
      return out.isEmpty() ? null : new MemFile(nextId++, out, false);
    }

    @Override
    public void commit(MemFile written, List<MemFile> inputs) {
      committedInputs.add(inputs);
      live.removeAll(inputs);
      if (written != null) {
        live.add(written);
      }
    }

    @Override
    public RuntimeException damaged(List<MemFile> inputs, CorruptionException e) {
      damage = new DamagedFileException(e.getMessage(), Path.of("file"), 0, "t", "f", e);
      return damage;
    }
  }

  private static Cell cell(String row, long seq) {
    Cell c = Cells.put(Bytes.of(row), F, Bytes.of("q"), 10, Bytes.of("v" + seq));
    c.setSeqId(seq);
    return c;
  }

  private static MemFile file(long id, String... rows) {
    List<Cell> cells = new ArrayList<>();
    for (String r : rows) {
      cells.add(cell(r, id));
    }
    return new MemFile(id, cells, false);
  }

  private static List<String> rows(MemFile f) {
    return f.cells.stream().map(c -> Bytes.str(c.row())).toList();
  }

  /** A policy that takes the two oldest files whenever there are three or more. */
  private static final CompactionPolicy TWO_OLDEST = files -> files.size() < 3 ? CompactionSelection.EMPTY
      : new CompactionSelection(files.subList(0, 2), CompactionSelection.Reason.RATIO);

  @Test
  void aMinorCompactionMergesWhatThePolicyPicksAndCommitsOnce() {
    MemTarget target = new MemTarget();
    MemFile a = file(1, "a", "c");
    MemFile b = file(2, "b");
    MemFile c = file(3, "d");
    target.live.addAll(List.of(a, b, c));
    List<String> events = new ArrayList<>();
    EventListener listener = new EventListener() {
      @Override
      public void compactionBegin(CompactionInfo info) {
        events.add("begin " + info.inputFiles() + " files");
      }

      @Override
      public void compactionEnd(CompactionInfo info) {
        events.add("end " + info.outputCells() + " cells");
      }
    };
    MetricSet metrics = new MetricSet();
    CompactionJob<MemFile> job = new CompactionJob<>("t", "f", listener, target, TWO_OLDEST, metrics);

    assertThat(job.selectMinor()).containsExactly(a, b);
    assertThat(job.run(false)).isTrue();

    assertThat(target.committedInputs).containsExactly(List.of(a, b));
    assertThat(target.modes).containsExactly(RetentionFilter.Mode.MINOR);
    assertThat(target.live).hasSize(2).contains(c);
    assertThat(rows(target.live.get(1))).containsExactly("a", "b", "c");
    assertThat(List.of(a, b, c)).allSatisfy(f -> assertThat(f.refs).as("references of file %d", f.id).isZero());
    assertThat(events).containsExactly("begin 2 files", "end 3 cells");
    assertThat(metrics.snapshot()).containsEntry("compaction.count", 1L).containsEntry("compaction.major.count", 0L)
        .containsEntry("compaction.cells.dropped", 0L);
    assertThat(job.run(false)).as("two files left: the policy picks none").isFalse();
  }

  @Test
  void aMajorCompactionTakesEveryFileAndKeepsOnlyTheStoresRows() {
    MemTarget target = new MemTarget();
    target.live.addAll(List.of(file(1, "a", "m"), file(2, "k", "z")));
    CompactionJob<MemFile> job = new CompactionJob<>("t", "f", new EventListener() { }, target, TWO_OLDEST,
        new MetricSet());
    job.keyRange(Bytes.of("b"), Bytes.of("n"));

    assertThat(job.run(true)).isTrue();

    assertThat(target.modes).containsExactly(RetentionFilter.Mode.MAJOR);
    assertThat(target.live).hasSize(1);
    assertThat(rows(target.live.get(0))).containsExactly("k", "m");
  }

  @Test
  void aDamagedInputStopsCompactionsAndEveryReferenceIsGivenBack() {
    MemTarget target = new MemTarget();
    MemFile good = file(1, "a");
    MemFile bad = new MemFile(2, List.of(cell("b", 2)), true);
    target.live.addAll(List.of(good, bad));
    CompactionJob<MemFile> job = new CompactionJob<>("t", "f", new EventListener() { }, target, TWO_OLDEST,
        new MetricSet());

    assertThatThrownBy(() -> job.run(true)).isInstanceOf(DamagedFileException.class);

    assertThat(target.committedInputs).as("nothing committed").isEmpty();
    assertThat(good.refs).isZero();
    assertThat(bad.refs).isZero();
    target.live.add(file(3, "c"));
    assertThat(job.selectMinor()).as("a store with known damage selects nothing").isEmpty();
    assertThatThrownBy(() -> job.run(true)).isSameAs(target.damage);
  }

  @Test
  void aStoppedCompactionCommitsNothingAndGivesEveryReferenceBack() {
    MemTarget target = new MemTarget();
    MemFile a = file(1, "a", "c");
    MemFile b = file(2, "b");
    target.live.addAll(List.of(a, b));
    CompactionJob<MemFile> job = new CompactionJob<>("t", "f", new EventListener() { }, target, TWO_OLDEST,
        new MetricSet());
    java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();

    assertThat(job.run(true, () -> asked.incrementAndGet() > 0)).isFalse();

    assertThat(asked.get()).as("asked before the first cell").isEqualTo(1);
    assertThat(target.committedInputs).as("nothing committed").isEmpty();
    assertThat(target.live).containsExactly(a, b);
    assertThat(List.of(a, b)).allSatisfy(f -> assertThat(f.refs).isZero());
    assertThat(job.run(true, () -> false)).as("not stopped: compacts").isTrue();
  }
}
