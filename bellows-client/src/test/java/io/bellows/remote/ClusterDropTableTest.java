package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disabling, enabling and dropping tables of a cluster (three members in this JVM), through
 * {@link RemoteCluster} as any client does: a disabled table refuses data calls as a standalone
 * one does ({@code TableNotEnabledException}) and holds its rows again once enabled; a dropped
 * table exists on no member, whose regions' directories and Raft logs are gone; a member stopped
 * before the drop removes its replicas when it is back, including one that had recorded the drop
 * and died before removing anything; a cluster restarted whole does not bring the table back; and
 * the name created again is a new, empty table. Refusals are a standalone engine's, with nothing
 * appended to meta; a call on a dropped table fails as missing even with a member down.
 */
class ClusterDropTableTest {
  private static final byte[] F = Bytes.of("f");

  @TempDir
  Path dir;

  @Test
  void tablesAreDisabledEnabledAndDroppedOnEveryMember() throws Exception {
    RemoteOptions options = RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(20))
        .withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    try (InJvmCluster cluster = new InJvmCluster(dir);
        Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      db.createTable(TableDescriptor.builder("s").family("f").build(), List.of(Bytes.of("h"), Bytes.of("q")));
      Table t = db.getTable("t");
      Table s = db.getTable("s");
      List<String> rows = List.of("a1", "m1", "z1");
      for (String row : rows) {
        t.put(put(row));
        s.put(put(row));
      }
      List<UUID> groups = new ArrayList<>(cluster.member("m1").engine().groups("t"));
      groups.addAll(cluster.member("m1").engine().groups("s"));
      assertThat(groups).hasSize(4);

      // Refusals, with nothing appended to meta.
      long metaIndex = metaApplied(cluster);
      assertThatThrownBy(() -> db.dropTable("t")).isInstanceOf(TableNotEnabledException.class)
          .hasMessageContaining("disable it before dropping it");
      assertThatThrownBy(() -> db.enableTable("t")).isInstanceOf(StorageException.class)
          .hasMessageContaining("already enabled");
      assertThatThrownBy(() -> db.disableTable("nope")).isInstanceOf(TableNotFoundException.class);
      assertThat(metaApplied(cluster)).as("meta's log").isEqualTo(metaIndex);

      // Disabled: data calls refused through the client, on every member; enabled: the rows are back.
      db.disableTable("t");
      db.disableTable("s");
      assertThatThrownBy(() -> db.disableTable("s")).isInstanceOf(TableNotEnabledException.class)
          .hasMessageContaining("already disabled");
      for (InJvmCluster.Member m : cluster.live()) {
        assertThat(m.engine().isTableEnabled("t")).as(m.id()).isFalse();
        assertThat(m.engine().isTableEnabled("s")).as(m.id()).isFalse();
      }
      assertThat(db.isTableEnabled("s")).isFalse();
      assertThatThrownBy(() -> t.put(put("b2"))).isInstanceOf(TableNotEnabledException.class)
          .hasMessageContaining("is disabled");
      assertThatThrownBy(() -> s.put(put("n2"))).isInstanceOf(TableNotEnabledException.class);
      assertThatThrownBy(() -> s.get(new Get(Bytes.of("m1")))).isInstanceOf(TableNotEnabledException.class);
      assertThatThrownBy(() -> scan(s)).isInstanceOf(TableNotEnabledException.class);
      db.enableTable("t");
      db.enableTable("s");
      assertThat(db.isTableEnabled("s")).isTrue();
      assertThat(scan(t)).containsExactlyElementsOf(rows);
      assertThat(scan(s)).containsExactlyElementsOf(rows);
      assertThat(new String(s.get(new Get(Bytes.of("z1"))).getValue(F, F), StandardCharsets.UTF_8)).isEqualTo("z1");

      // m3 stops; then t and s are disabled and dropped.
      ReplicatedEngine third = cluster.member("m3").engine();
      third.node().log(ReplicatedEngine.META).read(new byte[0]).join(); // it has applied the enables
      cluster.stop("m3");
      db.disableTable("t");
      db.disableTable("s");
      db.dropTable("t");
      db.dropTable("s");
      assertThat(db.tableExists("t")).isFalse();
      // Missing, though m3 (down) cannot say so: the client does not go round until its deadline
      // (a call that ran out of time carries its attempts as a suppressed exception).
      assertThatThrownBy(() -> t.put(put("c3"))).isInstanceOfSatisfying(TableNotFoundException.class,
          e -> assertThat(e.getSuppressed()).as("not at the call's deadline").isEmpty());
      assertThatThrownBy(() -> db.dropTable("t")).isInstanceOfSatisfying(TableNotFoundException.class,
          e -> assertThat(e.getSuppressed()).as("not at the call's deadline").isEmpty());
      for (InJvmCluster.Member m : cluster.live()) {
        assertThat(m.engine().tableExists("t")).as(m.id()).isFalse();
        assertThat(m.engine().listTables()).as(m.id()).isEmpty();
        assertGone(m.id(), groups);
      }
      for (UUID g : groups) {
        assertThat(dir.resolve("m3").resolve("regions").resolve(g.toString())).as("m3 was down").isDirectory();
        assertThat(dir.resolve("m3").resolve("raft").resolve(g.toString())).isDirectory();
      }
      // As if m3 had recorded t's drop and died before removing anything, and had died while
      // deleting a removed group's log.
      Files.writeString(dir.resolve("m3").resolve("regions").resolve("dropped"), groups.get(0) + "\n");
      Path leftover = dir.resolve("m3").resolve("raft").resolve(UUID.randomUUID() + ".removed").resolve("current");
      Files.createDirectories(leftover);
      Files.writeString(leftover.resolve("log_0-10"), "x");

      ReplicatedEngine m3 = cluster.start("m3", EngineOptions.defaults()).engine();
      assertThat(leftover.getParent()).as("a removed log's leftover, deleted at start").doesNotExist();
      assertThat(m3.node().holds(groups.get(0))).as("a group recorded dropped, left at start").isFalse();
      assertThat(dir.resolve("m3").resolve("regions").resolve(groups.get(0).toString())).doesNotExist();
      m3.node().awaitLeader(ReplicatedEngine.META, InJvmCluster.WAIT_MS);
      m3.node().log(ReplicatedEngine.META).read(new byte[0]).join(); // it has applied the drops
      assertThat(m3.tableExists("t")).isFalse();
      assertThat(m3.tableExists("s")).isFalse();
      assertGone("m3", groups);
      assertThatThrownBy(() -> t.put(put("c3"))).as("every member says so").isInstanceOf(TableNotFoundException.class);

      // The whole cluster restarted: meta's replay creates and drops the tables again, opening nothing.
      for (String id : cluster.ids()) {
        cluster.stop(id);
      }
      for (String id : cluster.ids()) {
        cluster.start(id, EngineOptions.defaults());
      }
      for (InJvmCluster.Member m : cluster.live()) {
        m.engine().node().awaitLeader(ReplicatedEngine.META, InJvmCluster.WAIT_MS);
        m.engine().node().log(ReplicatedEngine.META).read(new byte[0]).join();
        assertThat(m.engine().listTables()).as(m.id()).isEmpty();
        assertGone(m.id(), groups);
      }

      // The name again: a new table (new id, new groups) holding none of the old rows.
      db.createTable(TableDescriptor.builder("s").family("f").build(), List.of(Bytes.of("h"), Bytes.of("q")));
      Table again = db.getTable("s");
      assertThat(scan(again)).isEmpty();
      again.put(put("m9"));
      assertThat(scan(again)).containsExactly("m9");
      assertThat(cluster.member("m1").engine().table("s").id()).as("ids are never reused").isEqualTo(3);
      assertThat(cluster.member("m1").engine().groups("s")).doesNotContainAnyElementsOf(groups);
      assertThatThrownBy(() -> s.put(put("m8"))).as("the old table's handle").isInstanceOf(TableNotFoundException.class);
    }
  }

  /** Neither the replicas' directories nor the groups' Raft logs of {@code groups} are on member {@code id}. */
  private void assertGone(String id, List<UUID> groups) {
    for (UUID g : groups) {
      assertThat(dir.resolve(id).resolve("regions").resolve(g.toString())).as(id + "'s replica of " + g).doesNotExist();
      assertThat(dir.resolve(id).resolve("raft").resolve(g.toString())).as(id + "'s log of " + g).doesNotExist();
    }
  }

  /** The index meta's log has applied on its leader, once every member has applied as far. */
  private static long metaApplied(InJvmCluster cluster) throws Exception {
    long max = 0;
    for (InJvmCluster.Member m : cluster.live()) {
      m.engine().node().log(ReplicatedEngine.META).read(new byte[0]).join();
      max = Math.max(max, m.engine().node().log(ReplicatedEngine.META).appliedIndex());
    }
    return max;
  }

  private static Put put(String row) {
    return new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row));
  }

  private static List<String> scan(Table t) {
    List<String> out = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(new Scan())) {
      for (Result r : rs) {
        out.add(Bytes.str(r.row()));
      }
    }
    return out;
  }
}
