package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone server is no cluster: its {@code ClusterStatus} answer says so, and neither a
 * client of it nor a {@link RemoteCluster} given it reports one; a TIMELINE read of it is answered
 * as any read, never stale; a leadership move ({@code move}) is refused with a message saying why.
 */
class StandaloneClusterStatusTest {
  @TempDir
  Path dir;

  @Test
  void aStandaloneServerReportsNoClusterAndItsTimelineReadsAreNotStale() {
    try (ServerFixture server = new ServerFixture(dir);
        RemoteEngine one = RemoteEngine.open(server.target(), RemoteOptions.defaults());
        RemoteCluster cluster = RemoteCluster.open(List.of(server.target()), RemoteOptions.defaults())) {
      assertThat(one.clusterStatus()).isEmpty();
      assertThat(cluster.clusterStatus()).isEmpty();

      one.createTable(TableDescriptor.builder("t").family("f").build());
      server.connect().getTable("t").put(new io.bellows.client.Put("r").addColumn("f", "q", "v"));
      var t = one.table("t");
      for (ScanQuery q : List.of(ScanQuery.builder().singleRow(Bytes.of("r")).consistency(Consistency.TIMELINE).build(),
          ScanQuery.builder().consistency(Consistency.TIMELINE).build())) {
        try (RowScanner s = one.scan(t, q)) {
          List<io.bellows.cell.Cell> row = new ArrayList<>();
          assertThat(s.nextRow(row)).isTrue();
          assertThat(s.mayBeStale()).isFalse();
        }
      }
      // Nothing to move: the one server serves every region itself, and says so.
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> one.moveLeader("t", Bytes.of("r"), "m2"))
          .isInstanceOf(io.bellows.util.StorageException.class).hasMessageContaining("needs a cluster");
    }
  }
}
