package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cluster.server.Members;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.testing.FreePorts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code create} with {@code SPLITS} and with {@code NUMREGIONS}/{@code SPLITALGO} through {@code
 * bellows shell --connect a,b,c} against three cluster members in this JVM: the table's rows are
 * written and read across its regions, {@code list_regions} lists each region's replicas with that
 * region's leader first and every follower's lag behind its own region's leader, and {@code status
 * 'simple'} names the region of each replica; {@code disable}, {@code is_enabled}, {@code enable}
 * and {@code drop} answer as over one server, and the dropped table is gone from every member;
 * {@code split} splits a region online, its rows written and read on both sides after.
 */
class ShellClusterRegionsTest {
  private static final long WAIT_MS = 60_000;

  @TempDir
  Path dir;

  private String shell(String input, List<String> servers) {
    return shell(input, servers, 0);
  }

  /** The shell's output for {@code input}, which must end with {@code status} (1: some command failed). */
  private String shell(String input, List<String> servers, int expected) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = BellowsCli.execute(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8), "shell", "--connect", String.join(",", servers));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(status).as(text).isEqualTo(expected);
    return text;
  }

  @Test
  void aPreSplitTableIsWrittenReadAndListedRegionByRegion() throws Exception {
    StringBuilder file = new StringBuilder();
    for (int i = 1; i <= 3; i++) {
      file.append("m").append(i).append(" 127.0.0.1:").append(FreePorts.next()).append(" 127.0.0.1:").append(FreePorts.next())
          .append('\n');
    }
    Members members = Members.parse(file.toString(), "the test's member file");
    List<ReplicatedEngine> engines = new ArrayList<>();
    List<BellowsServer> servers = new ArrayList<>();
    try {
      for (Members.Member m : members.list()) {
        ReplicatedEngine e = ReplicatedEngine.open(dir.resolve(m.id()), EngineOptions.defaults(), members, m.id());
        engines.add(e);
        servers.add(BellowsServer.start(e, ServerConfig.defaults().withPorts(m.clientPort(), -1), ServerEvents.NONE));
      }
      List<String> addresses = members.list().stream().map(Members.Member::clientAddress).toList();
      String out = shell("create 't', 'f', SPLITS => ['h', 'q']\n"
          + "create 'u', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}\n"
          + "put 't', 'a1', 'f:q', 'v1'\nput 't', 'm1', 'f:q', 'v2'\nput 't', 'z1', 'f:q', 'v3'\n"
          + "scan 't'\nscan 't', {REVERSED => true}\nget 't', 'm1'\n", addresses);
      assertThat(out).containsSubsequence("a1", "m1", "z1", "3 row(s)", "z1", "m1", "a1", "3 row(s)", "v2");

      for (ReplicatedEngine e : engines) {
        // Every member has applied the tables and the puts before the shell asks (read barriers).
        e.node().log(ReplicatedEngine.META).read(new byte[0]).join();
        for (UUID g : e.groups("t")) {
          e.node().awaitLeader(g, WAIT_MS);
          e.node().log(g).read(new byte[0]).join();
        }
      }
      assertThat(engines.get(0).groups("u")).hasSize(4);
      out = shell("list_regions 't'\nstatus 'simple'\n", addresses);
      List<String> rows = regionRows(out);
      assertThat(rows).as(out).hasSize(9);
      List<String> keys = new ArrayList<>();
      for (int region = 0; region < 3; region++) {
        List<String> replicas = rows.subList(region * 3, region * 3 + 3);
        assertThat(replicas.get(0)).as("region %d's leader first", region).contains("|   LEADER |");
        assertThat(replicas.subList(1, 3)).allSatisfy(r -> assertThat(r).contains("| FOLLOWER |")
            .doesNotContain("|   ? |"));
        String[] cells = replicas.get(0).split("\\|");
        keys.add(cells[2].strip() + "-" + cells[3].strip());
        assertThat(replicas).allSatisfy(r -> assertThat(r.split("\\|")[1]).isEqualTo(cells[1]));
      }
      assertThat(keys).containsExactly("-h", "h-q", "q-");
      assertThat(out).contains("numberOfOnlineRegions=7,"); // 3 regions of t, 4 of u, on each member
      assertThat(out).containsPattern("\n        t region \\d+: (LEADER|FOLLOWER), term ");

      // HBase's move: the middle region's leadership to a follower, named by the id list_regions shows;
      // a second move changes nothing; an unknown member is refused; the region takes writes on.
      List<String> middle = rows.subList(3, 6);
      String regionId = middle.get(0).split("\\|")[1].strip();
      String leader = middle.get(0).split("\\|")[0].strip().split(" ")[0];
      String follower = middle.get(1).split("\\|")[0].strip().split(" ")[0];
      out = shell("move '" + regionId + "', '" + follower + "'\nmove '" + regionId + "', '" + follower + "'\n"
          + "move '" + regionId + "', 'm9'\n", addresses, 1);
      assertThat(out).containsSubsequence(
          "Moved the leadership of region " + regionId + " of table 't' from " + leader + " to " + follower,
          "Region " + regionId + " of table 't' is led by " + follower + " already: nothing moved",
          "ERROR: move: no member 'm9' in the cluster");
      UUID moved = engines.get(0).groups("t").get(1);
      for (ReplicatedEngine e : engines) {
        String known = e.node().awaitLeader(moved, WAIT_MS);
        while (!known.equals(follower)) {
          known = e.node().awaitLeaderOtherThan(moved, known, WAIT_MS);
        }
      }
      assertThat(shell("put 't', 'm2', 'f:q', 'v4'\nget 't', 'm2'\n", addresses)).contains("value=v4");

      // HBase's decommission commands: on three members with three replicas a region, none can go.
      out = shell("list_decommissioned_regionservers\ndecommission_regionservers '" + follower + "'\n"
          + "decommission_regionservers ['m9']\nrecommission_regionserver '" + follower + "'\n", addresses, 1);
      assertThat(out).containsSubsequence("0 members decommissioned",
          "would leave 2 members for regions of 3 replicas: nothing changed",
          "ERROR: decommission_regionservers: no member 'm9' in the cluster",
          "is not decommissioned");

      // HBase's disable, enable, is_enabled and drop, over the cluster, with a standalone shell's words.
      out = shell("drop 'u'\ndisable 'u'\nis_enabled 'u'\nget 'u', 'a'\nenable 'u'\nis_enabled 'u'\n"
          + "disable 'u'\ndrop 'u'\nexists 'u'\nlist\n", addresses, 1);
      assertThat(out).containsSubsequence("ERROR: Table u is enabled. Disable it first.", "false",
          "ERROR: Table u is disabled!", "true", "Table u does not exist", "TABLE", "t", "1 row(s)");
      for (ReplicatedEngine e : engines) {
        assertThat(e.tableExists("u")).isFalse();
      }

      // HBase's split, over the cluster: region [, h) splits at c; the rows stay, on both sides.
      out = shell("split 't', 'c'\nput 't', 'b2', 'f:q', 'v4'\nput 't', 'd2', 'f:q', 'v5'\nscan 't'\n", addresses);
      assertThat(out).containsSubsequence("a1", "b2", "d2", "m1", "m2", "z1", "6 row(s)"); // m2: written after the move above
      for (ReplicatedEngine e : engines) {
        e.node().log(ReplicatedEngine.META).read(new byte[0]).join();
        assertThat(e.regions("t")).extracting(r -> new String(r.startKey(), StandardCharsets.UTF_8))
            .containsExactly("", "c", "h", "q");
      }
    } finally {
      for (BellowsServer s : servers) {
        s.close();
      }
      for (ReplicatedEngine e : engines) {
        e.close();
      }
    }
  }

  /** The rows of list_regions' table: the lines after its dashes up to " N rows", stripped. */
  private static List<String> regionRows(String out) {
    List<String> rows = new ArrayList<>();
    boolean in = false;
    for (String line : out.split("\n")) {
      if (line.strip().startsWith("---")) {
        in = true;
      } else if (in && line.matches(" \\d+ rows")) {
        break;
      } else if (in) {
        rows.add(line.strip());
      }
    }
    return rows;
  }

}
