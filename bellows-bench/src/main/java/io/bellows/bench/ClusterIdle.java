package io.bellows.bench;

import io.bellows.client.Bellows;
import io.bellows.engine.ClusterStatus;
import io.bellows.remote.RemoteCluster;
import io.bellows.remote.RemoteOptions;
import io.bellows.schema.TableDescriptor;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench cluster --test idle}: what idle regions cost. Three members start with the meta
 * group only; once they have settled, each one's threads are counted and its CPU time sampled over
 * a window; then {@code tables} tables are created (one region each, so one Raft group each, with a
 * replica on every member), every group gets a leader, the members settle again (Ratis' cached
 * pools let idle threads go after 60 s), and the same is measured again. The targets
 * (docs/design/cluster.md, "Per-replica cost"): at most 5 threads per replica, and the idle groups
 * cost at most 10% of one core for 100 regions × 3 replicas.
 */
final class ClusterIdle {
  /** Threads per replica the target allows, and the share of one core for 100 groups × 3 replicas. */
  static final double THREADS_TARGET = 5;
  static final double CPU_TARGET = 0.10;
  static final int TARGET_GROUPS = 100;

  private ClusterIdle() {}

  /**
   * One member's figures: threads before and after the tables, CPU nanoseconds over each window, and
   * how many of the groups it leads (a leader's replica runs more threads than a follower's).
   */
  record Member(String id, int threadsBefore, int threadsAfter, long cpuBeforeNanos, long cpuAfterNanos, int leads) {
    /** Threads each replica of this member costs. */
    double threadsPerReplica(int groups) {
      return (double) (threadsAfter - threadsBefore) / groups;
    }
  }

  /**
   * What the run measured: per member, and thread kinds (names without numbers) summed over the
   * members before and after.
   */
  record Result(int groups, long windowNanos, List<Member> members, Map<String, Integer> kindsBefore,
      Map<String, Integer> kindsAfter, Map<String, Long> cpuByKindAfter) {
    /** Share of one core the members used together over the window with the groups (1.0 = a core). */
    double cpuShareAfter() {
      return members.stream().mapToLong(Member::cpuAfterNanos).sum() / (double) windowNanos;
    }

    double cpuShareBefore() {
      return members.stream().mapToLong(Member::cpuBeforeNanos).sum() / (double) windowNanos;
    }

    /** The groups' own share: after less before, scaled to the target's 100 groups. */
    double cpuSharePer100Groups() {
      return (cpuShareAfter() - cpuShareBefore()) * TARGET_GROUPS / groups;
    }

    /** The largest threads per replica of any member (the target holds for each). */
    double maxThreadsPerReplica() {
      return members.stream().mapToDouble(m -> m.threadsPerReplica(groups)).max().orElse(0);
    }

    boolean meetsThreads() {
      return maxThreadsPerReplica() <= THREADS_TARGET;
    }

    /** The target is on what the groups add (meta's own idle cost is there without them). */
    boolean meetsCpu() {
      return cpuSharePer100Groups() <= CPU_TARGET;
    }

    /** Thread kinds whose count changed, most grown first: kind, before, after. */
    List<String[]> grownKinds() {
      TreeSet<String> all = new TreeSet<>(kindsBefore.keySet());
      all.addAll(kindsAfter.keySet());
      List<String[]> out = new ArrayList<>();
      for (String k : all) {
        int b = kindsBefore.getOrDefault(k, 0);
        int a = kindsAfter.getOrDefault(k, 0);
        if (a != b) {
          out.add(new String[] {k, Integer.toString(b), Integer.toString(a)});
        }
      }
      out.sort(Comparator.comparingInt((String[] r) -> Integer.parseInt(r[1]) - Integer.parseInt(r[2])));
      return out;
    }

    String markdown(String preamble) {
      StringBuilder sb = new StringBuilder(preamble).append('\n');
      sb.append("## Idle cost of ").append(groups).append(" regions × ").append(members.size()).append(" replicas\n\n");
      MarkdownTable t = new MarkdownTable("member", "groups led", "threads before", "threads after",
          "threads per replica", "CPU before (% of a core)", "CPU after (% of a core)");
      for (Member m : members) {
        t.row(m.id(), m.leads(), m.threadsBefore(), m.threadsAfter(), MarkdownTable.f2(m.threadsPerReplica(groups)),
            MarkdownTable.f2(100.0 * m.cpuBeforeNanos() / windowNanos), MarkdownTable.f2(100.0 * m.cpuAfterNanos() / windowNanos));
      }
      sb.append(t.render()).append('\n');
      sb.append(String.format(Locale.ROOT, "* threads per replica: at most %.2f (target ≤ %.0f): **%s**%n",
          maxThreadsPerReplica(), THREADS_TARGET, meetsThreads() ? "met" : "missed"));
      sb.append(String.format(Locale.ROOT, "* CPU of the three members, idle, over %.0f s: %.2f%% of one core with"
              + " meta only, %.2f%% with the %d groups; the groups' own share scaled to 100 groups %.2f%% (target ≤"
              + " %.0f%% for 100 groups × 3 replicas): **%s**%n",
          windowNanos / 1e9, 100 * cpuShareBefore(), 100 * cpuShareAfter(), groups, 100 * cpuSharePer100Groups(),
          100 * CPU_TARGET, meetsCpu() ? "met" : "missed"));
      sb.append("\n### Threads by kind, summed over the members (numbers in names as #)\n\n");
      MarkdownTable k = new MarkdownTable("thread kind", "before", "after", "per group");
      for (String[] r : grownKinds()) {
        k.row("`" + r[0] + "`", r[1], r[2],
            MarkdownTable.f2((Integer.parseInt(r[2]) - Integer.parseInt(r[1])) / (double) groups));
      }
      sb.append(k.render());
      if (!cpuByKindAfter.isEmpty()) {
        sb.append("\n### CPU by thread kind with the groups, summed over the members\n\n");
        sb.append("From the JVM's CPU time per thread in a thread dump at each end of the window (threads the"
            + " JVM does not list, and the kernel's work on the process's behalf outside them, are not here).\n\n");
        MarkdownTable c = new MarkdownTable("thread kind", "CPU (ms)", "% of a core");
        cpuByKindAfter.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(20)
            .forEach(e -> c.row("`" + e.getKey() + "`", e.getValue() / 1_000_000,
                MarkdownTable.f2(100.0 * e.getValue() / windowNanos)));
        long listed = cpuByKindAfter.values().stream().mapToLong(Long::longValue).sum();
        c.row("all listed threads", listed / 1_000_000, MarkdownTable.f2(100.0 * listed / windowNanos));
        sb.append(c.render());
      }
      return sb.toString();
    }

    String csv() {
      StringBuilder sb = new StringBuilder("member,groups,groups_led,window_s,threads_before,threads_after,"
          + "threads_per_replica,cpu_before_core_share,cpu_after_core_share\n");
      for (Member m : members) {
        sb.append(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%d,%d,%.3f,%.5f,%.5f%n", m.id(), groups, m.leads(),
            windowNanos / 1e9,
            m.threadsBefore(), m.threadsAfter(), m.threadsPerReplica(groups), m.cpuBeforeNanos() / (double) windowNanos,
            m.cpuAfterNanos() / (double) windowNanos));
      }
      return sb.toString();
    }
  }

  static Result run(ClusterBench.Plan plan, PrintWriter out) throws Exception {
    try (LocalServers servers = LocalServers.cluster(plan.product(), plan.jvmFlags(), plan.jfr(),
        plan.dir().resolve("idle"), 3)) {
      servers.startAll();
      out.println("idle: 3 members started: " + servers.clientAddresses());
      try (RemoteCluster cluster = RemoteCluster.open(servers.clientAddresses(), RemoteOptions.defaults())) {
        Bellows db = Bellows.over(cluster);
        db.listTables(); // meta has a leader
        warmCallThreads(cluster);
        settle(plan, out, "meta only");
        Map<String, Integer> threadsBefore = new HashMap<>();
        Map<String, Integer> kindsBefore = new TreeMap<>();
        for (LocalServers.Server s : servers.servers()) {
          // The dump first: its attach starts a thread in the server that stays, counted both times.
          servers.threadKinds(s.id()).forEach((k, v) -> kindsBefore.merge(k, v, Integer::sum));
          threadsBefore.put(s.id(), servers.threads(s.id()));
        }
        Map<String, Long> cpuBefore = sampleCpu(servers, plan.sampleNanos(), out, "meta only");
        long start = System.nanoTime();
        for (int i = 0; i < plan.tables(); i++) {
          db.createTable(TableDescriptor.builder(String.format(Locale.ROOT, "idle%03d", i)).family("f").build());
          if ((i + 1) % 10 == 0 || i + 1 == plan.tables()) {
            out.printf(Locale.ROOT, "idle: %d / %d tables created (%.0f s)%n", i + 1, plan.tables(),
                (System.nanoTime() - start) / 1e9);
          }
        }
        awaitLeaders(cluster, plan.tables(), out);
        settle(plan, out, plan.tables() + " groups");
        Map<String, Integer> leads = new HashMap<>();
        cluster.clusterStatus().orElseThrow().replicas().stream().filter(r -> !r.isMeta() && r.leads())
            .forEach(r -> leads.merge(r.member(), 1, Integer::sum));
        out.println("idle: groups led per member: " + new TreeMap<>(leads));
        Map<String, Integer> kindsAfter = new TreeMap<>();
        Map<String, Integer> threadsAfter = new HashMap<>();
        for (LocalServers.Server s : servers.servers()) {
          // The dump first: its attach starts a thread in the server that stays, counted both times.
          servers.threadKinds(s.id()).forEach((k, v) -> kindsAfter.merge(k, v, Integer::sum));
          threadsAfter.put(s.id(), servers.threads(s.id()));
        }
        Map<String, List<LocalServers.DumpedThread>> dumps = new HashMap<>();
        for (LocalServers.Server s : servers.servers()) {
          dumps.put(s.id(), servers.threadDump(s.id()));
        }
        Map<String, Long> cpuAfter = sampleCpu(servers, plan.sampleNanos(), out, plan.tables() + " groups");
        Map<String, Long> cpuByKind = new TreeMap<>();
        for (LocalServers.Server s : servers.servers()) {
          LocalServers.cpuByKind(dumps.get(s.id()), servers.threadDump(s.id()))
              .forEach((k, v) -> cpuByKind.merge(k, v, Long::sum));
        }
        List<Member> members = new ArrayList<>();
        for (LocalServers.Server s : servers.servers()) {
          members.add(new Member(s.id(), threadsBefore.get(s.id()), threadsAfter.get(s.id()), cpuBefore.get(s.id()),
              cpuAfter.get(s.id()), leads.getOrDefault(s.id(), 0)));
        }
        return new Result(plan.tables(), plan.sampleNanos(), members, kindsBefore, kindsAfter, cpuByKind);
      }
    }
  }

  /**
   * Many calls at once, so that each member's pool of call threads (a fixed pool, 16 by default,
   * whose threads start one per call until it is full) is full before the first count: the
   * tables' creation would fill it otherwise, and those threads are no group's cost.
   */
  private static void warmCallThreads(RemoteCluster cluster) throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(48);
    try {
      List<java.util.concurrent.Future<?>> calls = new ArrayList<>();
      for (int i = 0; i < 192; i++) {
        calls.add(pool.submit(() -> cluster.clusterStatus()));
      }
      for (java.util.concurrent.Future<?> f : calls) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static void settle(ClusterBench.Plan plan, PrintWriter out, String what) throws InterruptedException {
    out.printf(Locale.ROOT, "idle: %s: settling for %d s%n", what, plan.settleSeconds());
    TimeUnit.SECONDS.sleep(plan.settleSeconds());
  }

  /** CPU nanoseconds each member used over a window of {@code nanos}. */
  private static Map<String, Long> sampleCpu(LocalServers servers, long nanos, PrintWriter out, String what)
      throws InterruptedException {
    Map<String, Long> start = new HashMap<>();
    for (LocalServers.Server s : servers.servers()) {
      start.put(s.id(), servers.cpuNanos(s.id()));
    }
    TimeUnit.NANOSECONDS.sleep(nanos);
    Map<String, Long> used = new HashMap<>();
    for (LocalServers.Server s : servers.servers()) {
      used.put(s.id(), servers.cpuNanos(s.id()) - start.get(s.id()));
    }
    out.printf(Locale.ROOT, "idle: %s: CPU over %.0f s: %s ms%n", what, nanos / 1e9,
        used.entrySet().stream().sorted(Map.Entry.comparingByKey())
            .map(e -> e.getKey() + " " + e.getValue() / 1_000_000).toList());
    return used;
  }

  /** Waits until every table's region reports a leader (an election per group). */
  private static void awaitLeaders(RemoteCluster cluster, int tables, PrintWriter out) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (true) {
      ClusterStatus status = cluster.clusterStatus().orElseThrow();
      long led = status.replicas().stream().filter(r -> !r.isMeta() && r.leads()).map(ClusterStatus.Replica::table)
          .distinct().count();
      if (led >= tables) {
        out.println("idle: every group has a leader");
        return;
      }
      if (System.nanoTime() > end) {
        throw new IllegalStateException("only " + led + " of " + tables + " groups have a leader after 5 minutes");
      }
      TimeUnit.SECONDS.sleep(1);
    }
  }
}
