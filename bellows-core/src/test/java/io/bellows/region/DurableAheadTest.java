package io.bellows.region;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer waiting to become visible publishes the writes ahead of it that the log already made
 * durable, instead of waiting for their threads to run again. Here the first writer's thread stays
 * inside its log wait (as a thread the scheduler does not run would) while the second write's sync
 * covers both records: the second writer must return, with both writes visible, before the first
 * thread is let go.
 */
class DurableAheadTest {
  private static final byte[] F = Bytes.of("f");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();
  /** Only a deadlock detector. */
  private static final long DEADLOCK_SECONDS = 30;

  @TempDir Path dir;
  private final List<Region> opened = new ArrayList<>();

  @AfterEach
  void closeRegions() {
    opened.forEach(r -> r.close(false));
  }

  /**
   * A log whose first record's writer is held in its wait until the test lets it go; the second
   * record's sync covers both records (a group commit), and the log says so through isDurable.
   */
  static class HeldFirstWriter implements RegionLog {
    final CountDownLatch firstAppended = new CountDownLatch(1);
    final CountDownLatch releaseFirst = new CountDownLatch(1);
    volatile boolean firstReleasedByTest;
    volatile long durableUpTo;
    private long appended;

    @Override
    public synchronized long append(WriteRecord record) {
      appended++;
      if (appended == 1) {
        firstAppended.countDown();
      }
      return appended;
    }

    @Override
    public void awaitDurable(long ticket, Durability durability) {
      if (ticket == 1) {
        try {
          firstReleasedByTest = releaseFirst.await(DEADLOCK_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new StorageException("interrupted", e);
        }
      }
      durableUpTo = Math.max(durableUpTo, ticket); // this sync covers every record up to ticket
    }

    @Override
    public boolean isDurable(long ticket, Durability durability) {
      return ticket <= durableUpTo;
    }

    @Override
    public boolean failed() {
      return false;
    }

    @Override
    public void forceAppended() {}
  }

  private Region region(RegionLog log) {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    TestRegionServices services = new TestRegionServices(options, log, SequenceIds.of(new AtomicLong()));
    Region r = Region.create(1, TABLE, dir.resolve("r"), services);
    r.recovered(0);
    opened.add(r);
    return r;
  }

  private static List<Cell> put(String row, String value) {
    return List.of(Cells.put(Bytes.of(row), F, Bytes.of("q"), Long.MAX_VALUE, Bytes.of(value)));
  }

  private static List<String> visibleRows(Region r) {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.scanner(ScanQuery.builder().build())) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        row.forEach(c -> out.add(Bytes.str(c.row()) + "=" + Bytes.str(c.value())));
        row.clear();
      }
    }
    return out;
  }

  @Test
  void aWriterPublishesTheWriteAheadOfItThatItsSyncMadeDurable() throws Exception {
    HeldFirstWriter log = new HeldFirstWriter();
    Region r = region(log);
    CompletableFuture<Void> first = CompletableFuture.runAsync(() -> r.mutate(Bytes.of("a"), put("a", "1"), -1, null));
    assertThat(log.firstAppended.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)).isTrue();

    r.mutate(Bytes.of("b"), put("b", "2"), -1, null); // its sync covers the first record too

    assertThat(first).as("the first writer is still held").isNotDone();
    assertThat(visibleRows(r)).containsExactly("a=1", "b=2");
    log.releaseFirst.countDown();
    assertThat(first).succeedsWithin(java.time.Duration.ofSeconds(DEADLOCK_SECONDS));
    assertThat(log.firstReleasedByTest).as("the second writer did not wait for the first thread").isTrue();
    assertThat(visibleRows(r)).containsExactly("a=1", "b=2");
  }

  @Test
  void aWriteTheLogHasNotMadeDurableIsNotPublishedByAnother() throws Exception {
    HeldFirstWriter log = new HeldFirstWriter() {
      @Override
      public boolean isDurable(long ticket, Durability durability) {
        return ticket != 1 && super.isDurable(ticket, durability); // the second sync did not cover it
      }
    };
    Region r = region(log);
    CompletableFuture<Void> first = CompletableFuture.runAsync(() -> r.mutate(Bytes.of("a"), put("a", "1"), -1, null));
    assertThat(log.firstAppended.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Void> second = CompletableFuture.runAsync(() -> r.mutate(Bytes.of("b"), put("b", "2"), -1, null));

    // The second write waits for the first (its sequence id is larger), which nobody may publish.
    assertThat(visibleRows(r)).isEmpty();
    assertThat(second).isNotDone();
    log.releaseFirst.countDown();
    assertThat(second).succeedsWithin(java.time.Duration.ofSeconds(DEADLOCK_SECONDS));
    assertThat(first).succeedsWithin(java.time.Duration.ofSeconds(DEADLOCK_SECONDS));
    assertThat(visibleRows(r)).containsExactly("a=1", "b=2");
  }
}
