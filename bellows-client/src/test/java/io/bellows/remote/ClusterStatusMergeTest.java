package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.EngineOptions;
import io.bellows.engine.ClusterStatus;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RemoteCluster#clusterStatus} puts the members' views together: given one member's address
 * it asks the members that view names too, takes each member's replicas once (a member reached
 * under two addresses counts once), and reports a member that cannot be reached as not reported,
 * with the lag of a follower measured against its region's leader. The members here are servers
 * whose engines answer set views (no Raft), so the answers are fixed.
 */
class ClusterStatusMergeTest {
  @TempDir
  Path dir;

  @Test
  void theMembersViewsArePutTogetherAndAnUnreachableMemberIsNotReported() throws Exception {
    List<AutoCloseable> open = new ArrayList<>();
    try {
      List<AtomicReference<ClusterStatus>> views = List.of(new AtomicReference<>(), new AtomicReference<>());
      List<String> addresses = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        LocalEngine local = LocalEngine.open(dir.resolve("m" + (i + 1)), EngineOptions.defaults());
        open.add(local);
        BellowsServer server = BellowsServer.start(reporting(local, views.get(i)),
            ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE);
        open.add(0, server::close);
        addresses.add("127.0.0.1:" + server.port());
      }
      addresses.add("127.0.0.1:" + closedPort());
      for (int i = 0; i < 2; i++) {
        String self = "m" + (i + 1);
        List<ClusterStatus.Member> members = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
          members.add(new ClusterStatus.Member("m" + (j + 1), addresses.get(j), j == i));
        }
        boolean leads = i == 0;
        views.get(i).set(new ClusterStatus(members, List.of(
            new ClusterStatus.Replica(null, 0, self, leads ? "FOLLOWER" : "LEADER", "m2", 2, 10 + i, 0, 0, 0),
            new ClusterStatus.Replica("t", 1, self, leads ? "LEADER" : "FOLLOWER", "m1", 3, leads ? 50 : 47, 0, 0, 0))));
      }
      // Given m1 alone, and m1 again under another name: m2 and m3 are found in m1's view.
      try (RemoteCluster client = RemoteCluster.open(List.of(addresses.get(0),
          addresses.get(0).replace("127.0.0.1", "localhost")), RemoteOptions.defaults())) {
        ClusterStatus status = client.clusterStatus().orElseThrow();
        assertThat(status.members()).extracting(ClusterStatus.Member::id, ClusterStatus.Member::reported)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("m1", true), org.assertj.core.groups.Tuple.tuple("m2", true),
                org.assertj.core.groups.Tuple.tuple("m3", false));
        assertThat(status.replicas()).hasSize(4);
        assertThat(status.leaderOf(null)).map(ClusterStatus.Replica::member).contains("m2");
        assertThat(status.replicasOf("t")).extracting(ClusterStatus.Replica::member).containsExactly("m1", "m2");
        assertThat(status.lag(status.replicasOf("t").get(1))).contains(3L);
      }
    } finally {
      for (AutoCloseable c : open) {
        c.close();
      }
    }
  }

  /** The engine, but it answers {@code view} for its cluster status. */
  private static Engine reporting(LocalEngine local, AtomicReference<ClusterStatus> view) {
    return (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(), new Class<?>[] {Engine.class},
        (proxy, method, args) -> {
          if (method.getName().equals("clusterStatus")) {
            return Optional.of(view.get());
          }
          try {
            return method.invoke(local, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
