package io.bellows.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.record.WriteRecord;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Early lock release: a writer holds its rows' locks while it evaluates, logs and inserts, not while
 * it waits for its log sync and for MVCC to publish it, so the next writer of a hot row is not
 * queued behind the first one's sync. The first write's sync here waits until the log received the
 * second write of the same row: with the lock held through the sync that never happens (the test's
 * deadlock detector then lets the first write go, and the test fails). The second writer must still
 * see the first write, and be acknowledged and become visible only after it.
 */
class RowLockReleaseTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] ROW = Bytes.of("hot");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();
  /** Only a deadlock detector: with early lock release the first sync is released at once. */
  private static final long DEADLOCK_SECONDS = 30;

  @TempDir Path dir;
  private final List<Region> opened = new ArrayList<>();

  @AfterEach
  void closeRegions() {
    opened.forEach(r -> r.close(false));
  }

  /**
   * A log whose first record's sync waits until a second record was appended, then succeeds or
   * fails as told; every later sync returns at once.
   */
  static final class SecondAppendGate implements RegionLog {
    final List<WriteRecord> records = new ArrayList<>();
    final CountDownLatch firstAppended = new CountDownLatch(1);
    final CountDownLatch secondAppended = new CountDownLatch(1);
    volatile boolean firstSyncSawSecondAppend;
    volatile RuntimeException firstSyncFailure;

    @Override
    public synchronized long append(WriteRecord record) {
      records.add(record);
      (records.size() == 1 ? firstAppended : secondAppended).countDown();
      return records.size();
    }

    @Override
    public void awaitDurable(long ticket, Durability durability) {
      if (ticket != 1) {
        return;
      }
      try {
        firstSyncSawSecondAppend = secondAppended.await(DEADLOCK_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StorageException("interrupted", e);
      }
      if (firstSyncFailure != null) {
        throw firstSyncFailure;
      }
    }

    @Override
    public boolean failed() {
      return firstSyncFailure != null && secondAppended.getCount() == 0;
    }

    @Override
    public void forceAppended() {}

    synchronized List<WriteRecord> records() {
      return List.copyOf(records);
    }
  }

  private Region region(RegionLog log) {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    TestRegionServices services = new TestRegionServices(options, log, SequenceIds.of(new AtomicLong()));
    Region r = Region.create(1, TABLE, dir.resolve("r" + opened.size()), services);
    r.recovered(0);
    opened.add(r);
    return r;
  }

  private static Cell put(String qualifier, String value) {
    return Cells.put(ROW, F, Bytes.of(qualifier), Long.MAX_VALUE, Bytes.of(value));
  }

  /** The visible cells of the row, as "qualifier=value". */
  private static List<String> visible(Region r) {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.scanner(ScanQuery.builder().singleRow(ROW).build())) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        row.forEach(c -> out.add(Bytes.str(c.qualifier()) + "=" + valueOf(c)));
        row.clear();
      }
    }
    return out;
  }

  private static String valueOf(Cell c) {
    byte[] v = c.value();
    return v.length == 8 && Bytes.str(c.qualifier()).equals("n") ? Long.toString(Bytes.getLong(v, 0)) : Bytes.str(v);
  }

  /** Runs {@code write} on another thread and returns once the log has its record. */
  private static CompletableFuture<Void> firstWrite(SecondAppendGate log, Runnable write) throws Exception {
    return firstWrite(log.firstAppended, write);
  }

  private static CompletableFuture<Void> firstWrite(CountDownLatch appended, Runnable write) throws Exception {
    CompletableFuture<Void> first = CompletableFuture.runAsync(write);
    assertThat(appended.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)).isTrue();
    return first;
  }

  @Test
  void theNextPutOfAHotRowIsLoggedWhileTheFirstWaitsForItsSync() throws Exception {
    SecondAppendGate log = new SecondAppendGate();
    Region r = region(log);
    CompletableFuture<Void> first = firstWrite(log, () -> r.mutate(ROW, List.of(put("q", "one")), -1, null));

    r.mutate(ROW, List.of(put("q", "two")), -1, null); // returns once durable and visible

    first.get(DEADLOCK_SECONDS, TimeUnit.SECONDS);
    assertThat(log.firstSyncSawSecondAppend).as("the second write reached the log during the first one's sync").isTrue();
    assertThat(log.records()).extracting(WriteRecord::seqId).containsExactly(1L, 2L);
    assertThat(visible(r)).containsExactly("q=two");
  }

  @Test
  void aBatchReleasesItsRowsBeforeItsSyncToo() throws Exception {
    SecondAppendGate log = new SecondAppendGate();
    Region r = region(log);
    byte[] other = Bytes.of("cold");
    CompletableFuture<Void> first = firstWrite(log, () -> r.mutateBatch(List.of(
        new Region.RowWrite(other, List.of(Cells.put(other, F, Bytes.of("q"), Long.MAX_VALUE, Bytes.of("c"))), -1, null),
        new Region.RowWrite(ROW, List.of(put("q", "one")), -1, null))));

    r.mutate(ROW, List.of(put("q", "two")), -1, null);

    first.get(DEADLOCK_SECONDS, TimeUnit.SECONDS);
    assertThat(log.firstSyncSawSecondAppend).isTrue();
    assertThat(visible(r)).containsExactly("q=two");
  }

  @Test
  void anIncrementEvaluatesAgainstTheOneBeforeItWhileThatOneWaitsForItsSync() throws Exception {
    SecondAppendGate log = new SecondAppendGate();
    Region r = region(log);
    List<ColumnUpdate> plusOne = List.of(ColumnUpdate.increment(F, Bytes.of("n"), 1));
    List<ColumnUpdate> plusTen = List.of(ColumnUpdate.increment(F, Bytes.of("n"), 10));
    CompletableFuture<Outcome> first = new CompletableFuture<>();
    firstWrite(log, () -> first.complete(r.mutateRow(ROW, null, List.of(), -1, plusOne, null, true)));

    Outcome second = r.mutateRow(ROW, null, List.of(), -1, plusTen, null, true);

    assertThat(Bytes.getLong(first.get(DEADLOCK_SECONDS, TimeUnit.SECONDS).values().get(0).value(), 0)).isEqualTo(1);
    assertThat(log.firstSyncSawSecondAppend).isTrue();
    // The second increment read the first one's value, not yet durable nor visible, under the row
    // lock; it is acknowledged after the first, in log order.
    assertThat(Bytes.getLong(second.values().get(0).value(), 0)).isEqualTo(11);
    assertThat(log.records()).extracting(rec -> Bytes.getLong(rec.cells().get(0).value(), 0)).containsExactly(1L, 11L);
    assertThat(visible(r)).containsExactly("n=11");
  }

  @Test
  void aWriteThatReadAnUnsyncedOneIsNeitherAcknowledgedNorVisibleWhenThatOnesSyncFails() throws Exception {
    SecondAppendGate log = new SecondAppendGate();
    log.firstSyncFailure = new StorageException("disk gone");
    Region r = region(log);
    List<ColumnUpdate> plusOne = List.of(ColumnUpdate.increment(F, Bytes.of("n"), 1));
    CompletableFuture<Void> first = firstWrite(log, () -> r.mutateRow(ROW, null, List.of(), -1, plusOne, null, false));

    // The second increment read the first one's cell; the first one's sync then fails: the second
    // one, though its own sync worked, must not be acknowledged or seen before the first is durable.
    assertThatThrownBy(() -> r.mutateRow(ROW, null, List.of(), -1, plusOne, null, false))
        .isInstanceOf(StorageException.class).hasMessageContaining("not visible");
    assertThatThrownBy(() -> first.get(DEADLOCK_SECONDS, TimeUnit.SECONDS))
        .hasCauseInstanceOf(StorageException.class).hasMessageContaining("write-ahead log sync failed");
    assertThat(log.firstSyncSawSecondAppend).isTrue();
    assertThat(visible(r)).isEmpty();

    r.logRecovered(); // the log made both durable: both become visible, in order
    assertThat(visible(r)).containsExactly("n=2");
  }

  @Test
  void aConditionThatFailsOnAWriteNotYetVisibleAnswersOnlyOnceThatWriteIs() throws Exception {
    DurableAheadTest.HeldFirstWriter log = new DurableAheadTest.HeldFirstWriter(); // holds the first sync
    Region r = region(log);
    CompletableFuture<Void> first = firstWrite(log.firstAppended,
        () -> r.mutate(ROW, List.of(put("q", "one")), -1, null));

    // The check sees "one" (the first writer released the row before its sync) and fails. Answering
    // "not applied" now would be answering from a write no reader sees yet (nor may ever, if its
    // sync fails): it must wait until that write is visible.
    AtomicReference<Outcome> answer = new AtomicReference<>();
    Thread check = new Thread(() -> answer.set(r.mutateRow(ROW, Condition.ifAbsent(F, Bytes.of("q")),
        List.of(put("q", "two")), -1, List.of(), null, false)), "check-and-put");
    check.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLOCK_SECONDS);
    while (check.getState() != Thread.State.WAITING && check.getState() != Thread.State.TERMINATED) {
      assertThat(System.nanoTime() - deadline).as("the check neither waited nor answered").isNegative();
      Thread.onSpinWait();
    }
    assertThat(check.getState()).as("answered before the write it read was visible").isEqualTo(Thread.State.WAITING);
    assertThat(visible(r)).isEmpty();

    log.releaseFirst.countDown();
    check.join(TimeUnit.SECONDS.toMillis(DEADLOCK_SECONDS));
    first.get(DEADLOCK_SECONDS, TimeUnit.SECONDS);
    assertThat(answer.get().applied()).isFalse();
    assertThat(visible(r)).containsExactly("q=one");
  }
}
