package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import io.bellows.region.Region;
import io.bellows.region.RegionLog;
import io.bellows.region.SequenceIds;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clock of a replicated region's leader, on one region without Raft: a leadership's clock is
 * the host's moved ahead by what it lacks of the newest timestamp the region holds (memory and
 * files), plus one, set by the term's first evaluation and kept through the term while the host's
 * clock moves; a term whose host clock is already ahead is not moved.
 */
class LeaderClockTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  void aLeadershipStampsAboveTheRegionsNewestTimestampAndMovesWithTheClock() {
    Region region = Region.create(1, TableDescriptor.builder("t").family("f").build(), dir.resolve("region"),
        new ReplicaServices(new NoLog(), SequenceIds.of(new AtomicLong()), new AtomicLong(1)));
    try {
      Clock.Manual host = new Clock.Manual(1_000);
      LeaderClock clock = new LeaderClock(host);
      clock.region(region);
      clock.lead(1);
      assertThat(clock.currentTimeMillis()).as("an empty region: the host's clock").isEqualTo(1_000);

      region.mutate(Bytes.of("a"), List.of(Cells.put(Bytes.of("a"), F, Q, 5_000, Bytes.of("x"))), -1, null);
      region.flush(true);
      region.mutate(Bytes.of("b"), List.of(Cells.put(Bytes.of("b"), F, Q, 3_000, Bytes.of("y"))), -1, null);
      clock.lead(1);
      assertThat(clock.currentTimeMillis()).as("set once per term").isEqualTo(1_000);

      clock.lead(2);
      assertThat(clock.currentTimeMillis()).as("one above the newest, in a file").isEqualTo(5_001);
      host.advance(10);
      assertThat(clock.currentTimeMillis()).as("moving with the host's clock").isEqualTo(5_011);
      region.mutate(Bytes.of("c"), List.of(Cells.put(Bytes.of("c"), F, Q, 7_000, Bytes.of("z"))), -1, null);
      clock.lead(2);
      assertThat(clock.currentTimeMillis()).as("still the term's shift").isEqualTo(5_011);
      clock.lead(3);
      assertThat(clock.currentTimeMillis()).as("one above the newest, in memory").isEqualTo(7_001);

      host.set(9_000);
      clock.lead(4);
      assertThat(clock.currentTimeMillis()).as("a host clock ahead of the region is not moved").isEqualTo(9_000);
    } finally {
      region.close(false);
    }
  }

  /** A log that takes records and makes nothing durable: the region's data path without a WAL. */
  private static final class NoLog implements RegionLog {
    private final AtomicLong tickets = new AtomicLong();

    @Override
    public long append(WriteRecord record) {
      return tickets.incrementAndGet();
    }

    @Override
    public void awaitDurable(long ticket, Durability durability) {}

    @Override
    public boolean failed() {
      return false;
    }

    @Override
    public void forceAppended() {}
  }
}
