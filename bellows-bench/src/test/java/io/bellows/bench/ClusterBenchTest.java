package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code bench cluster} without servers: its options, and the arithmetic of its three reports
 * (threads per replica and idle CPU, the efficiency ratio, the install's rate from the members'
 * logs against the plain copy's).
 */
class ClusterBenchTest {
  private static ClusterBench.Plan parse(String... args) {
    return ClusterBench.Plan.parse(args);
  }

  @Test
  void theTestIsRequiredAndNamedExactly() {
    assertThatThrownBy(() -> parse()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--test idle|efficiency|catchup");
    assertThatThrownBy(() -> parse("--test", "idel")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not 'idel'");
    assertThat(parse("--test", "Catchup").test()).isEqualTo(ClusterBench.Test.CATCHUP);
  }

  @Test
  void scaleMultipliesTablesRowsAndFillUnlessGivenOutright() {
    ClusterBench.Plan defaults = parse("--test", "idle");
    assertThat(defaults.tables()).isEqualTo(100);
    assertThat(defaults.rows()).isEqualTo(300_000);
    assertThat(defaults.keySpace()).isEqualTo(1_000_000);
    assertThat(defaults.fillBytes()).isEqualTo(256L << 20);
    assertThat(defaults.rounds()).isEqualTo(3);
    assertThat(defaults.out()).isEqualTo(Path.of("bench-cluster-idle"));
    assertThat(defaults.sampleNanos()).isEqualTo(60_000_000_000L);
    ClusterBench.Plan four = parse("--test", "catchup", "--scale", "4");
    assertThat(four.fillBytes()).isEqualTo(1L << 30);
    assertThat(four.tables()).isEqualTo(400);
    assertThat(four.rows()).isEqualTo(1_200_000);
    ClusterBench.Plan given = parse("--test", "idle", "--scale", "0.1", "--tables", "30", "--fill-mib", "64");
    assertThat(given.tables()).isEqualTo(30);
    assertThat(given.fillBytes()).isEqualTo(64L << 20);
    assertThat(given.rows()).isEqualTo(30_000);
  }

  @Test
  void badOptionsAreRefusedWithStatusTwoAndOneLine() {
    assertThatThrownBy(() -> parse("--test", "idle", "--rounds", "0")).hasMessageContaining("--rounds takes 1 to 100");
    assertThatThrownBy(() -> parse("--test", "idle", "--scale", "0")).hasMessageContaining("--scale must be above 0");
    assertThatThrownBy(() -> parse("--test", "idle", "--sample-s", "0")).hasMessageContaining("--sample-s");
    StringWriter text = new StringWriter();
    assertThat(ClusterBench.run(new String[] {"--test", "idle", "--bogus", "1"}, new PrintWriter(text, true))).isEqualTo(2);
    assertThat(text.toString()).startsWith("bench cluster: unknown option --bogus");
    StringWriter noJar = new StringWriter();
    assertThat(ClusterBench.run(new String[] {"--test", "idle", "--product", "/nonexistent/bellows.jar"},
        new PrintWriter(noJar, true))).isEqualTo(2);
    assertThat(noJar.toString()).contains("no product jar at /nonexistent/bellows.jar");
  }

  @Test
  void idleThreadsPerReplicaAndTheGroupsShareOfACore() {
    long minute = 60_000_000_000L;
    ClusterIdle.Result r = new ClusterIdle.Result(100, minute, List.of(
        new ClusterIdle.Member("n1", 100, 550, 200_000_000L, 2_200_000_000L, 40),
        new ClusterIdle.Member("n2", 100, 420, 200_000_000L, 2_200_000_000L, 35),
        new ClusterIdle.Member("n3", 100, 380, 200_000_000L, 2_200_000_000L, 25)),
        Map.of("grpc-default-executor-#", 10, "main", 3),
        Map.of("grpc-default-executor-#", 10, "main", 3, "n#@group-#-StateMachineUpdater", 300,
            "n#@group-#-SegmentedRaftLogWorker", 300),
        Map.of("n#@group-#-StateMachineUpdater", 3_000_000_000L, "main", 600_000_000L));
    assertThat(r.maxThreadsPerReplica()).isEqualTo(4.5);
    assertThat(r.meetsThreads()).isTrue();
    assertThat(r.cpuShareBefore()).isCloseTo(0.01, within(1e-9));
    assertThat(r.cpuShareAfter()).isCloseTo(0.11, within(1e-9));
    assertThat(r.cpuSharePer100Groups()).isCloseTo(0.10, within(1e-9));
    assertThat(r.meetsCpu()).isTrue();
    assertThat(r.grownKinds()).extracting(k -> k[0]).containsExactlyInAnyOrder("n#@group-#-StateMachineUpdater",
        "n#@group-#-SegmentedRaftLogWorker");
    assertThat(r.markdown("# pre\n")).contains("| n1 | 40 | 100 | 550 | 4.50 |").contains("**met**")
        .contains("| `n#@group-#-StateMachineUpdater` | 3000 | 5.00 |").contains("| all listed threads | 3600 | 6.00 |");
    // Half the groups at the same cost: the groups' share scaled to 100 doubles, and the target is missed.
    ClusterIdle.Result half = new ClusterIdle.Result(50, minute, r.members(), Map.of(), Map.of(), Map.of());
    assertThat(half.cpuSharePer100Groups()).isCloseTo(0.20, within(1e-9));
    assertThat(half.meetsCpu()).isFalse();
    assertThat(half.maxThreadsPerReplica()).isEqualTo(9.0);
    assertThat(half.meetsThreads()).isFalse();
  }

  @Test
  void efficiencyIsThreeTimesTheClustersRateOverTheSingleServersPerRoundWithTheMedian() {
    long second = 1_000_000_000L;
    ClusterEfficiency.Result r = new ClusterEfficiency.Result(List.of(
        new ClusterEfficiency.Run(1, "single", 200_000, second, 2 * second, 1000, 5000, 9000, 2.0),
        new ClusterEfficiency.Run(1, "cluster", 200_000, 5 * second, 10 * second, 4000, 20000, 30000, 2.0),
        new ClusterEfficiency.Run(2, "cluster", 200_000, 4 * second, 8 * second, 4000, 20000, 30000, 2.0),
        new ClusterEfficiency.Run(2, "single", 200_000, second, 2 * second, 1000, 5000, 9000, 2.0),
        new ClusterEfficiency.Run(3, "single", 200_000, 2 * second, 4 * second, 1000, 5000, 9000, 2.0),
        new ClusterEfficiency.Run(3, "cluster", 200_000, 5 * second, 10 * second, 4000, 20000, 30000, 2.0)));
    // The second half's rate: 100,000 rows over its seconds.
    assertThat(r.runs().get(0).rate()).isEqualTo(100_000.0);
    assertThat(r.ratios()).containsExactly(0.6, 0.75, 1.2);
    assertThat(r.medianRatio()).isEqualTo(0.75);
    assertThat(r.meets()).isTrue();
    assertThat(r.markdown("")).contains("median **0.75**, range 0.60–1.20").contains("cluster 20.00 ms, single 5.00 ms (4.00×)");
    assertThat(ClusterEfficiency.median(new double[] {3, 1, 2, 10})).isEqualTo(2.5);
    assertThat(ClusterEfficiency.order(1)).containsExactly("single", "cluster");
    assertThat(ClusterEfficiency.order(2)).containsExactly("cluster", "single");
  }

  @Test
  void theInstallIsTimedFromTheMembersLogsAndSetAgainstThePlainCopy() {
    String group = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    String follower = String.join("\n",
        "2026-11-27 12:00:00.000 [main] INFO io.bellows.server.ServerProcess - member n3 of members.txt",
        "2026-11-27 12:00:01.000 [n3-server-1] INFO org.apache.ratis.server.impl.SnapshotInstallationHandler -"
            + " n3@group-A5B4C3D2E1F0: Received notification to install snapshot at index 4711",
        "2026-11-27 12:00:03.500 [bellows-checkpoint-install] INFO io.bellows.cluster.checkpoint.CheckpointFetcher -"
            + " fetched the checkpoint of group " + group + " at (2, 4700): 12 files, 268435456 bytes (0 kept from an"
            + " earlier fetch, 0 chunks asked again)",
        "2026-11-27 12:00:05.000 [bellows-checkpoint-install] INFO io.bellows.cluster.checkpoint.CheckpointInstaller -"
            + " installed the checkpoint of group " + group + " at (2, 4700) in /d/region: 12 files, 268435456 bytes");
    String leader = String.join("\n",
        "2026-11-27 11:59:00.000 [x] INFO io.bellows.cluster.checkpoint.LeaderCheckpoints - checkpoint of group "
            + group + " at (2, 100): 1 files, 10 bytes",
        "2026-11-27 12:00:01.750 [x] INFO io.bellows.cluster.checkpoint.LeaderCheckpoints - checkpoint of group "
            + group + " at (2, 4700): 12 files, 268435456 bytes");
    String installed = follower.substring(follower.lastIndexOf('\n') + 1);
    ClusterCatchup.Install i = ClusterCatchup.install(follower, leader, installed);
    assertThat(i.group()).isEqualTo(group);
    assertThat(i.millis()).isEqualTo(4000);
    assertThat(i.takenMillis() - i.notifiedMillis()).isEqualTo(750);
    assertThat(i.fetchedMillis() - i.takenMillis()).isEqualTo(1750);
    assertThat(i.files()).isEqualTo(12);
    assertThat(i.bytes()).isEqualTo(256L << 20);
    // The copy moved the same bytes in 2 s: the install ran at half its rate.
    ClusterCatchup.Result r = new ClusterCatchup.Result(256L << 20, 256L << 20, i,
        new ClusterCatchup.Copy(256L << 20, 12, 500_000_000L, 2_000_000_000L), 256L << 20, 0);
    assertThat(r.installRate()).isEqualTo(64.0 * 1048576);
    assertThat(r.ratio()).isCloseTo(0.5, within(1e-9));
    assertThat(r.meets()).isFalse();
    assertThat(r.markdown("")).contains("install ÷ plain copy: **0.50**").contains("**missed**");
  }

  @Test
  void threadCpuComesFromTwoDumpsOfTheJvmByKind() {
    String before = String.join("\n",
        "\"n1@group-A5B4C3D2E1F0-StateMachineUpdater\" #40 daemon prio=5 os_prio=0 cpu=100.00ms elapsed=9.1s"
            + " tid=0x1 nid=0x2a waiting on condition  [0x0]",
        "   java.lang.Thread.State: TIMED_WAITING (parking)",
        "\"VM Thread\" os_prio=0 cpu=50.50ms elapsed=10s tid=0x2 nid=0x2b runnable");
    String after = String.join("\n",
        "\"n1@group-A5B4C3D2E1F0-StateMachineUpdater\" #40 daemon prio=5 os_prio=0 cpu=160.00ms elapsed=69s"
            + " tid=0x1 nid=0x2a waiting on condition  [0x0]",
        "\"n1@group-0000000000AB-StateMachineUpdater\" #41 daemon prio=5 os_prio=0 cpu=5.00ms elapsed=3s tid=0x3"
            + " nid=0x2c waiting",
        "\"VM Thread\" os_prio=0 cpu=52.50ms elapsed=70s tid=0x2 nid=0x2b runnable");
    List<LocalServers.DumpedThread> a = LocalServers.parseDump(after);
    assertThat(a).extracting(LocalServers.DumpedThread::nid).containsExactly("0x2a", "0x2c", "0x2b");
    assertThat(LocalServers.cpuByKind(LocalServers.parseDump(before), a)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "n#@group-#-StateMachineUpdater", 65_000_000L, "VM Thread", 2_000_000L));
  }

  @Test
  void threadKindsCountAPoolsThreadsTogether() {
    assertThat(LocalServers.threadKind("grpc-default-executor-12")).isEqualTo("grpc-default-executor-#");
    assertThat(LocalServers.threadKind("n2@group-A5B4C3D2E1F0-StateMachineUpdater"))
        .isEqualTo("n#@group-#-StateMachineUpdater");
    assertThat(LocalServers.threadKind("n1@group-0000000000AB->n3-GrpcLogAppender-LogAppenderDaemon"))
        .isEqualTo("n#@group-#->n#-GrpcLogAppender-LogAppenderDaemon");
    assertThat(LocalServers.logTime("no stamp")).isEqualTo(-1);
    assertThat(LocalServers.logTime("2026-11-27 12:00:01.750 [x] INFO")
        - LocalServers.logTime("2026-11-27 12:00:00.000 [x] INFO")).isEqualTo(1750);
  }
}
