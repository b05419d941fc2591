package io.bellows.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.record.WriteRecord;
import io.bellows.record.WriteRecordCodec;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region whose log applies the records itself (a replicated region's, here the test's own):
 * writers take the log's epoch before they read, propose records without a sequence id, and the
 * region applies committed records with the ids the log gives them; a flush covers every applied
 * id, and a replay of records some store flushed fills only the stores that lack them.
 */
class LogAppliedWritesTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").family("g").build();

  @TempDir Path dir;
  private final List<Region> opened = new ArrayList<>();

  @AfterEach
  void closeRegions() {
    opened.forEach(r -> r.close(false));
  }

  /**
   * A log that commits each proposal at once at the next index (the id is {@code base + index});
   * before a writer evaluates, it applies the records "another leader" committed ({@link #foreign}),
   * as a new leader applies its predecessor's entries before it takes writes.
   */
  static final class CommittingLog implements RegionLog {
    final long base;
    Region region;
    long index;
    long epoch = 7;
    boolean leads = true;
    final List<WriteRecord> foreign = new ArrayList<>();
    final List<long[]> proposals = new ArrayList<>(); // {epoch, seqId of the proposed record}
    final List<WriteRecord> committed = new ArrayList<>();

    CommittingLog(long base) {
      this.base = base;
    }

    @Override
    public boolean appliesRecords() {
      return true;
    }

    @Override
    public long beginEvaluation() {
      if (!leads) {
        throw new StorageException("not the leader");
      }
      foreign.forEach(this::commit);
      foreign.clear();
      return epoch;
    }

    @Override
    public void propose(long epoch, WriteRecord record) {
      proposals.add(new long[] {epoch, record.seqId()});
      index++; // a configuration entry of the log's own: ids have gaps
      commit(record);
    }

    private void commit(WriteRecord r) {
      // Through the bytes, as a replica that receives the entry does.
      WriteRecord decoded = WriteRecordCodec.decode(WriteRecordCodec.encode(r));
      WriteRecord withId = new WriteRecord(decoded.regionId(), base + ++index, decoded.cells());
      committed.add(withId);
      region.applyCommitted(withId);
    }

    @Override
    public long append(WriteRecord record) {
      throw new AssertionError("a log that applies records takes no appends");
    }

    @Override
    public void awaitDurable(long ticket, Durability durability) {
      throw new AssertionError("a log that applies records takes no appends");
    }

    @Override
    public boolean failed() {
      return false;
    }

    @Override
    public void forceAppended() {}
  }

  private Region open(String name, CommittingLog log, long last, boolean create) {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    TestRegionServices services = new TestRegionServices(options, log, SequenceIds.assignedByLog(last));
    Region r = create ? Region.create(9, TABLE, dir.resolve(name), services) : new Region(9, TABLE,
        dir.resolve(name), services);
    log.region = r;
    opened.add(r);
    return r;
  }

  private static Cell put(byte[] family, String row, String qualifier, long ts, String value) {
    return Cells.put(Bytes.of(row), family, Bytes.of(qualifier), ts, Bytes.of(value));
  }

  private static String hex(Cell c) {
    return HexFormat.of().formatHex(c.toBytes());
  }

  private static List<String> contents(Region r) {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.scanner(ScanQuery.builder().maxVersions(Integer.MAX_VALUE).build())) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        row.forEach(c -> out.add(hex(c) + "@" + c.seqId()));
        row.clear();
      }
    }
    return out;
  }

  @Test
  void writesAreProposedWithoutIdsAndAppliedWithTheLogsIds() {
    CommittingLog log = new CommittingLog(1_000);
    Region r = open("r", log, 1_000, true);
    r.mutate(Bytes.of("a"), List.of(put(F, "a", "q", 5, "x")), -1, null);
    r.mutateBatch(List.of(
        new Region.RowWrite(Bytes.of("b"), List.of(put(F, "b", "q", Long.MAX_VALUE, "y")), -1, Durability.SKIP_WAL),
        new Region.RowWrite(Bytes.of("c"), List.of(put(G, "c", "q", 6, "z")), -1, null)));

    assertThat(log.proposals).extracting(p -> p[0] + "/" + p[1]).containsExactly("7/0", "7/0");
    // Every cell is in the record, the SKIP_WAL row's too (after the others): a replica must not miss it.
    assertThat(log.committed.get(1).cells()).extracting(LogAppliedWritesTest::hex)
        .containsExactly(hex(put(G, "c", "q", 6, "z")), hex(put(F, "b", "q", 1_000, "y")));
    assertThat(contents(r)).containsExactly(hex(put(F, "a", "q", 5, "x")) + "@1002",
        hex(put(F, "b", "q", 1_000, "y")) + "@1004", hex(put(G, "c", "q", 6, "z")) + "@1004");
  }

  @Test
  void anAtomicOperationReadsOnlyAfterTheLogAppliedWhatWasCommittedBeforeIt() {
    CommittingLog log = new CommittingLog(0);
    Region r = open("r", log, 0, true);
    r.mutateRow(Bytes.of("k"), null, List.of(), -1, List.of(ColumnUpdate.increment(F, Bytes.of("n"), 1)), null, false);
    // Another leader's write, committed before this replica takes writes again.
    log.foreign.add(new WriteRecord(9, 0, List.of(Cells.put(Bytes.of("k"), F, Bytes.of("n"), 2_000, Bytes.toBytes(40L)),
        Cells.put(Bytes.of("k"), F, Bytes.of("lock"), 2_000, Bytes.of("held")))));
    r.mutateRow(Bytes.of("k"), null, List.of(), -1, List.of(ColumnUpdate.increment(F, Bytes.of("n"), 2)), null, false);
    assertThat(r.mutateRow(Bytes.of("k"), Condition.ifAbsent(F, Bytes.of("lock")), List.of(put(F, "k", "x", 1, "v")),
        -1, List.of(), null, false).applied()).isFalse();

    List<Cell> latest = r.reads().readLatest(ScanQuery.builder().singleRow(Bytes.of("k")).addColumn(F, Bytes.of("n"))
        .readPoint(Long.MAX_VALUE).build());
    assertThat(Bytes.getLong(latest.get(0).array(), latest.get(0).valueOffset())).isEqualTo(42);
    assertThat(log.proposals).hasSize(2);
  }

  @Test
  void aReplicaThatDoesNotLeadRefusesBeforeReadingOrProposing() {
    CommittingLog log = new CommittingLog(0);
    Region r = open("r", log, 0, true);
    log.leads = false;
    assertThatThrownBy(() -> r.mutate(Bytes.of("a"), List.of(put(F, "a", "q", 5, "x")), -1, null))
        .hasMessage("not the leader");
    assertThatThrownBy(() -> r.mutateRow(Bytes.of("a"), null, List.of(), -1,
        List.of(ColumnUpdate.increment(F, Bytes.of("n"), 1)), null, false)).hasMessage("not the leader");
    assertThat(log.proposals).isEmpty();
    assertThat(contents(r)).isEmpty();
  }

  @Test
  void aFlushCoversEveryAppliedIdAndAReplayFillsOnlyTheStoresThatLackARecord() {
    CommittingLog log = new CommittingLog(100);
    Region r = open("r", log, 100, true);
    r.mutate(Bytes.of("a"), List.of(put(F, "a", "q", 5, "x"), put(G, "a", "q", 5, "x")), -1, null);
    r.flush(true);
    assertThat(r.stores().values()).allSatisfy(s -> assertThat(s.flushedSeqId()).isEqualTo(102));
    r.mutate(Bytes.of("b"), List.of(put(G, "b", "q", 5, "y")), -1, null);
    r.stores().get("g").prepareFlush(104); // only g's files hold record 104
    r.stores().get("g").flush();
    assertThat(r.stores().get("g").flushedSeqId()).isEqualTo(104);
    r.mutate(Bytes.of("b"), List.of(put(F, "b", "q", 5, "y")), -1, null);
    List<String> before = contents(r);
    List<WriteRecord> committed = List.copyOf(log.committed);
    r.close(false); // a crash: record 106 was only in memory

    // Reopened from the highest id its files hold; the log replays from its last checkpoint (102).
    CommittingLog replay = new CommittingLog(100);
    Region again = open("r", replay, 104, false);
    again.recovered(104);
    for (WriteRecord rec : committed.subList(1, committed.size())) {
      again.applyCommitted(WriteRecordCodec.decode(WriteRecordCodec.encode(rec)));
    }
    assertThat(contents(again)).isEqualTo(before);
    assertThat(again.stores().get("g").memStoreSize().cellCount()).isZero();
  }

  /**
   * A log that commits proposals only when their writer waits for one ({@link #proposeAsync}): the
   * writer sees how many of its proposals are pending at once. {@link #propose} commits at once.
   */
  static final class DeferringLog implements RegionLog {
    final CommittingLog committing;
    final List<WriteRecord> queued = new ArrayList<>();
    final List<CompletableFuture<Void>> futures = new ArrayList<>();
    /** Proposals pending when each proposal was made (itself included). */
    final List<Integer> pendingAtProposal = new ArrayList<>();
    /** Index (from 0) of a proposal whose future fails instead of committing; -1: none. */
    int failing = -1;
    int proposed;
    /** If set, a writer waiting for its proposals waits for this first (another thread opens it). */
    java.util.concurrent.CountDownLatch gate;
    /** Counted down at each asynchronous proposal. */
    final java.util.concurrent.Semaphore proposals = new java.util.concurrent.Semaphore(0);

    DeferringLog(long base) {
      committing = new CommittingLog(base);
    }

    @Override
    public boolean appliesRecords() {
      return true;
    }

    @Override
    public long beginEvaluation() {
      return committing.beginEvaluation();
    }

    @Override
    public synchronized void propose(long epoch, WriteRecord record) {
      pendingAtProposal.add(queued.size() + 1);
      proposed++;
      committing.propose(epoch, record);
    }

    // No @Override: a log of a region that waits for each proposal never has this called.
    public synchronized CompletableFuture<Void> proposeAsync(long epoch, WriteRecord record) {
      queued.add(record);
      pendingAtProposal.add(queued.size());
      int n = proposed++;
      CompletableFuture<Void> f = new CompletableFuture<>() {
        @Override
        public Void join() {
          if (gate != null) {
            try {
              gate.await();
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
          }
          commitQueued();
          return super.join();
        }
      };
      futures.add(f);
      if (n == failing) {
        f.completeExceptionally(new StorageException("proposal " + n + " lost"));
      }
      proposals.release();
      return f;
    }

    /** Commits every queued proposal in order, as a log applies one writer's entries. */
    synchronized void commitQueued() {
      for (int i = 0; i < queued.size(); i++) {
        CompletableFuture<Void> f = futures.get(futures.size() - queued.size() + i);
        if (!f.isDone()) {
          committing.propose(7, queued.get(i));
          f.complete(null);
        }
      }
      queued.clear();
    }

    @Override
    public long append(WriteRecord record) {
      throw new AssertionError("a log that applies records takes no appends");
    }

    @Override
    public void awaitDurable(long ticket, Durability durability) {
      throw new AssertionError("a log that applies records takes no appends");
    }

    @Override
    public boolean failed() {
      return false;
    }

    @Override
    public void forceAppended() {}
  }

  private Region open(String name, DeferringLog log) {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    TestRegionServices services = new TestRegionServices(options, log, SequenceIds.assignedByLog(0));
    Region r = Region.create(9, TABLE, dir.resolve(name), services);
    log.committing.region = r;
    opened.add(r);
    return r;
  }

  private static Region.RowWrite row(String row, String value) {
    return new Region.RowWrite(Bytes.of(row), List.of(put(F, row, "q", Long.MAX_VALUE, value)), -1, null);
  }

  /**
   * A batch that writes a row three times is three mini-batches: with a log that applies records
   * they are proposed one after the other before the first commits (one wait for the three, not
   * three rounds of the log), and still applied in batch order, the row's last write winning.
   */
  @Test
  void aBatchsMiniBatchesAreProposedWithoutWaitingForEachOtherAndAppliedInOrder() {
    DeferringLog log = new DeferringLog(0);
    Region r = open("r", log);
    r.mutateBatch(List.of(row("a", "1"), row("b", "1"), row("a", "2"), row("c", "1"), row("a", "3")));

    assertThat(log.pendingAtProposal).containsExactly(1, 2, 3);
    assertThat(log.committing.committed).extracting(w -> w.cells().size()).containsExactly(2, 2, 1);
    List<Cell> latest = r.reads().readLatest(ScanQuery.builder().singleRow(Bytes.of("a")).readPoint(Long.MAX_VALUE)
        .build());
    assertThat(latest).extracting(c -> new String(c.value(), java.nio.charset.StandardCharsets.UTF_8)).containsExactly("3");
    assertThat(log.futures).allSatisfy(f -> assertThat(f).isDone());
  }

  /** A mini-batch that deletes a row's latest version reads the region: the writes before it apply first. */
  @Test
  void aMiniBatchThatReadsTheRegionWaitsForTheProposalsBeforeIt() {
    DeferringLog log = new DeferringLog(0);
    Region r = open("r", log);
    Cell deleteLatest = Cells.create(Bytes.of("a"), F, Bytes.of("q"), Long.MAX_VALUE, io.bellows.cell.CellType.DELETE,
        Bytes.EMPTY);
    // Mini-batches [a, b], [b], [b, delete of a's latest version].
    r.mutateBatch(List.of(row("a", "1"), row("b", "1"), row("b", "2"), row("b", "3"),
        new Region.RowWrite(Bytes.of("a"), List.of(deleteLatest), -1, null)));

    assertThat(log.pendingAtProposal).containsExactly(1, 2, 1); // the third found none pending
    // The delete names the version it deletes: the put before it, applied when it was evaluated.
    Cell delete = log.committing.committed.get(2).cells().get(1);
    assertThat(delete.timestamp()).isEqualTo(1_000);
    assertThat(r.reads().readLatest(ScanQuery.builder().singleRow(Bytes.of("a")).readPoint(Long.MAX_VALUE).build()))
        .isEmpty();
  }

  /**
   * A mini-batch that fails fails the batch, but only once every proposal made has completed: one
   * still pending could apply, and the rows' locks are held until then.
   */
  @Test
  void aFailedMiniBatchFailsTheBatchOnceEveryProposalCompleted() {
    DeferringLog log = new DeferringLog(0);
    log.failing = 1;
    Region r = open("r", log);
    assertThatThrownBy(() -> r.mutateBatch(List.of(row("a", "1"), row("a", "2"), row("a", "3"))))
        .isInstanceOf(StorageException.class).hasMessage("proposal 1 lost");
    assertThat(log.pendingAtProposal).containsExactly(1, 2, 3);
    assertThat(log.futures).allSatisfy(f -> assertThat(f).isDone());
    assertThat(log.queued).isEmpty();
  }

  /**
   * A batch releases its rows once its records are in the log, before they apply; an atomic
   * operation on one of its rows then waits for them before it reads: its condition sees the
   * batch's write.
   */
  @Test
  void anAtomicOperationWaitsForTheWritesABatchLeftInFlightOnItsRow() throws Exception {
    DeferringLog log = new DeferringLog(0);
    log.gate = new java.util.concurrent.CountDownLatch(1);
    Region r = open("r", log);
    java.util.concurrent.CompletableFuture<Void> batch = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CompletableFuture<io.bellows.atomic.Outcome> check = new java.util.concurrent.CompletableFuture<>();
    Thread writer = new Thread(() -> {
      try {
        r.mutateBatch(List.of(row("a", "1"), row("b", "1")));
        batch.complete(null);
      } catch (Throwable t) {
        batch.completeExceptionally(t);
      }
    });
    Thread checker = new Thread(() -> {
      try {
        check.complete(r.mutateRow(Bytes.of("a"),
            Condition.column(F, Bytes.of("q"), io.bellows.filter.CompareOperator.EQUAL, Bytes.of("1")),
            List.of(put(F, "a", "q", Long.MAX_VALUE, "2")), -1, List.of(), null, false));
      } catch (Throwable t) {
        check.completeExceptionally(t);
      }
    });
    try {
      writer.start();
      // The batch's record is in the log; its writer waits at the gate, its rows released.
      assertThat(log.proposals.tryAcquire(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      checker.start();
      // Until the check has either answered or stopped to wait, for the batch's record or for the
      // row's lock (no timing).
      while (!check.isDone() && !(checker.getState() == Thread.State.WAITING && java.util.Arrays.stream(
          checker.getStackTrace()).anyMatch(f -> f.getClassName().endsWith("RowLocks")
          || f.getClassName().endsWith("AtomicRowWrite")))) {
        Thread.onSpinWait();
      }
      log.gate.countDown();
      batch.get();
      assertThat(check.get().applied()).isTrue(); // before: it read no "a" and answered "not applied"
    } finally {
      log.gate.countDown();
      writer.join();
      checker.join();
    }
  }
}
