package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flat;
import static io.bellows.wal.WalTestSupport.quiet;
import static io.bellows.wal.WalTestSupport.reopenAndReplay;
import static io.bellows.wal.WalTestSupport.replayAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(SeedExtension.class)
class WalRoundTripTest {
  @TempDir Path dir;

  @Test
  void appendCloseOpenReplayReturnsEveryEditWithLargeSequenceIds(Seed seed) {
    Random rnd = seed.random();
    long[] bases = {1, (1L << 31) - 3, Long.MAX_VALUE / 2 - 50};
    List<WriteRecord> written = new ArrayList<>();
    try (Wal wal = Wal.open(dir, quiet())) {
      assertThat(replayAll(wal)).isEmpty();
      long txid = 0;
      for (long base : bases) {
        for (int i = 0; i < 30; i++) {
          WriteRecord e = edit(i % 3, base + i, rnd);
          written.add(e);
          txid = wal.append(e);
        }
      }
      wal.sync(txid, Durability.FSYNC_WAL);
      assertThat(wal.forcedTxid()).isEqualTo(txid);
      assertThat(wal.recordsAppended()).isEqualTo(written.size());
      assertThat(wal.bytesAppended()).isEqualTo(txid);
    }
    List<WriteRecord> replayed = reopenAndReplay(dir);
    assertThat(flat(replayed)).containsExactlyElementsOf(flat(written));
    for (WriteRecord e : replayed) {
      for (Cell c : e.cells()) {
        assertThat(c.seqId()).isEqualTo(e.seqId());
      }
    }
    assertThat(replayed.get(replayed.size() - 1).seqId()).isEqualTo(Long.MAX_VALUE / 2 - 21);
  }

  @Test
  void reopenAppendsToANewFileAndReplaysBothRuns() throws Exception {
    try (Wal wal = Wal.open(dir, quiet())) {
      wal.append(edit(1, 1, "a", "one"));
    }
    try (Wal wal = Wal.open(dir, quiet())) {
      assertThat(flat(replayAll(wal))).containsExactly(flat(edit(1, 1, "a", "one")));
      wal.append(edit(2, 2, "b", "two"));
    }
    assertThat(WalTestSupport.walFiles(dir)).extracting(p -> p.getFileName().toString())
        .containsExactly("wal-00000000000000000001.log", "wal-00000000000000000002.log");
    assertThat(flat(reopenAndReplay(dir))).containsExactly(flat(edit(1, 1, "a", "one")), flat(edit(2, 2, "b", "two")));
  }

  @Test
  void closeWritesAsyncEditsThatWereNeverSynced() {
    try (Wal wal = Wal.open(dir, quiet())) {
      long t = wal.append(edit(1, 7, "r", "v"));
      wal.sync(t, Durability.ASYNC_WAL);
      assertThat(wal.writtenTxid()).isZero();
    }
    assertThat(flat(reopenAndReplay(dir))).containsExactly(flat(edit(1, 7, "r", "v")));
  }

  @Test
  void syncWalWritesWithoutForcingAndFsyncForces() {
    try (Wal wal = Wal.open(dir, quiet())) {
      long t1 = wal.append(edit(1, 1, "r", "v"));
      wal.sync(t1, Durability.SKIP_WAL);
      assertThat(wal.writtenTxid()).isZero();
      wal.sync(t1, Durability.SYNC_WAL);
      assertThat(wal.writtenTxid()).isEqualTo(t1);
      assertThat(wal.forcedTxid()).isZero();
      assertThat(wal.forces()).isZero();
      wal.sync(t1, Durability.FSYNC_WAL);
      assertThat(wal.forcedTxid()).isEqualTo(t1);
      assertThat(wal.forces()).isEqualTo(1);
      assertThat(wal.syncs()).isEqualTo(2);
      // Already covered: no more I/O.
      wal.sync(t1, Durability.FSYNC_WAL);
      assertThat(wal.syncs()).isEqualTo(2);
      assertThatThrownBy(() -> wal.sync(t1, Durability.USE_DEFAULT)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> wal.sync(t1 + 1, Durability.SYNC_WAL)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void backgroundThreadForcesAsyncEditsAndStopsOnClose() throws Exception {
    Wal wal = Wal.open(dir, new WalOptions(1 << 20, 5));
    long t = wal.append(edit(1, 1, "r", "v"));
    wal.sync(t, Durability.ASYNC_WAL);
    assertThat(wal.awaitForced(t, 30, TimeUnit.SECONDS)).isTrue();
    assertThat(wal.forces()).isGreaterThanOrEqualTo(1);
    assertThat(wal.syncThreadAlive()).isTrue();
    wal.close();
    assertThat(wal.syncThreadAlive()).isFalse();
  }

  @Test
  void appendAfterCloseThrowsAndCloseIsIdempotent() {
    Wal wal = Wal.open(dir, quiet());
    long t = wal.append(edit(1, 1, "r", "v"));
    wal.close();
    wal.close();
    assertThatThrownBy(() -> wal.append(edit(1, 2, "r", "v"))).isInstanceOf(IllegalStateException.class);
    wal.sync(t, Durability.FSYNC_WAL); // covered by close
  }

  @Test
  void replayRunsOnce() {
    try (Wal wal = Wal.open(dir, quiet())) {
      wal.replay(e -> { });
      assertThatThrownBy(() -> wal.replay(e -> { })).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void editWithoutCellsRoundTrips() {
    try (Wal wal = Wal.open(dir, quiet())) {
      wal.append(new WriteRecord(5, 1L << 40, List.of()));
    }
    List<WriteRecord> r = reopenAndReplay(dir);
    assertThat(r).hasSize(1);
    assertThat(r.get(0).regionId()).isEqualTo(5);
    assertThat(r.get(0).seqId()).isEqualTo(1L << 40);
    assertThat(r.get(0).cells()).isEmpty();
  }
}
