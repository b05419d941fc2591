package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cells;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster member has one memory-store budget over all its replicas, as an engine has, and its
 * followers keep to it too. A follower applies the log without the writer's back-pressure, and it
 * used to flush a store only when that store reached the flush size (128 MiB by default), whatever
 * the heap. Here the budget is 1 MiB, far below the flush size, and 4 MiB go through the leader:
 * every member, each follower included, must have asked for flushes because of its budget.
 */
class ClusterMemoryBudgetTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final long BUDGET = 1L << 20;

  @TempDir Path dir;

  @Test
  void everyMemberFlushesWhenItsReplicasHoldMoreThanItsBudgetFollowersIncluded() throws Exception {
    EngineOptions options = EngineOptions.defaults().toBuilder().set(Knobs.MEMSTORE_GLOBAL_SIZE, BUDGET).build();
    try (InJvmCluster cluster = new InJvmCluster(dir, options);
        RemoteCluster client = RemoteCluster.open(cluster.addresses(),
            RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500)))) {
      client.createTable(TableDescriptor.builder("t").family("f").build());
      TableRef t = client.table("t");
      byte[] value = new byte[1024];
      for (int batch = 0; batch < 64; batch++) { // 64 batches of 64 rows of 1 KiB: 4 MiB, four budgets
        List<RowMutation> rows = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
          byte[] row = Bytes.of(String.format("r%03d-%02d", batch, i));
          rows.add(new RowMutation(row, List.of(Cells.put(row, F, Q, Long.MAX_VALUE, value)), -1,
              Durability.USE_DEFAULT));
        }
        client.mutate(t, rows);
      }
      for (String id : cluster.ids()) {
        ReplicatedEngine e = cluster.member(id).engine();
        // A linearizable read of the region's log on this member: it has applied every put after it.
        e.node().log(e.group("t")).read(new byte[0]).join();
        assertThat(e.metrics().get("memstore.global.limit.bytes").longValue()).as("member %s's budget", id)
            .isEqualTo(BUDGET);
        assertThat(e.metrics().get("flush.forced.global.memory").longValue())
            .as("member %s asked for flushes because its replicas held more than its budget", id).isPositive();
      }
    }
  }
}
