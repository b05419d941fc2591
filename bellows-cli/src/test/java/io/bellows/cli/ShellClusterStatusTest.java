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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code status}, {@code status 'simple'} and {@code list_regions} of {@code bellows shell --connect
 * a,b,c} against three cluster members in this JVM (each a {@link ReplicatedEngine} served by a
 * {@link BellowsServer}, as {@code bellows server --cluster} serves it): they name meta's leader and
 * the table's leader as the members' Raft nodes know them, list every replica with its role and
 * applied index, and, once a follower stops, count it dead and say its replicas are unknown.
 */
class ShellClusterStatusTest {
  private static final long WAIT_MS = 60_000;

  @TempDir
  Path dir;

  private record Member(Members.Member member, ReplicatedEngine engine, BellowsServer server) {
    String name() {
      return member.id() + " " + member.clientAddress();
    }
  }

  private String shell(String input, List<String> servers) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = BellowsCli.execute(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8), "shell", "--connect", String.join(",", servers));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(status).as(text).isZero();
    return text;
  }

  @Test
  void statusAndListRegionsNameTheLeadersAndTheReplicas() throws Exception {
    StringBuilder file = new StringBuilder();
    for (int i = 1; i <= 3; i++) {
      file.append("m").append(i).append(" 127.0.0.1:").append(FreePorts.next()).append(" 127.0.0.1:").append(FreePorts.next())
          .append('\n');
    }
    Members members = Members.parse(file.toString(), "the test's member file");
    Map<String, Member> live = new LinkedHashMap<>();
    try {
      for (Members.Member m : members.list()) {
        ReplicatedEngine e = ReplicatedEngine.open(dir.resolve(m.id()), EngineOptions.defaults(), members, m.id());
        live.put(m.id(), new Member(m, e, BellowsServer.start(e, ServerConfig.defaults().withPorts(m.clientPort(), -1),
            ServerEvents.NONE)));
      }
      List<String> servers = members.list().stream().map(Members.Member::clientAddress).toList();
      shell("create 't', 'f'\nput 't', 'r1', 'f:q', 'v1'\nput 't', 'r2', 'f:q', 'v2'\n", servers);

      for (Member m : live.values()) {
        // Every member has applied the table and its puts before the shell asks (a read barrier).
        m.engine().node().log(ReplicatedEngine.META).read(new byte[0]).join();
        m.engine().node().log(m.engine().group("t")).read(new byte[0]).join();
      }
      ReplicatedEngine any = live.get("m1").engine();
      Member metaLeader = live.get(any.node().awaitLeader(ReplicatedEngine.META, WAIT_MS));
      Member tableLeader = live.get(any.node().awaitLeader(any.group("t"), WAIT_MS));

      String out = shell("status\nstatus 'simple'\nlist_regions 't'\n", servers);
      assertThat(out).contains("1 active master, 2 backup masters, 3 servers, 0 dead, 1.0000 average load\n");
      assertThat(out).contains("\nmeta leader: " + metaLeader.name() + ", term ");
      assertThat(out).contains("\nactive master: " + metaLeader.name() + " (meta's leader, term ");
      assertThat(out).contains("\n3 live servers\n").contains("\n0 dead servers\n");
      for (Member m : live.values()) {
        assertThat(out).contains("\n    " + m.name() + "\n        numberOfOnlineRegions=1, numberOfLeaders="
            + (m == tableLeader ? 1 : 0) + ",");
        assertThat(out).containsPattern(Pattern.quote("\n        t: " + (m == tableLeader ? "LEADER" : "FOLLOWER") + ", term ")
            + "\\d+, applied \\d+" + (m == tableLeader ? "\n" : ", lag \\d+\n"));
      }
      List<String> rows = regionRows(out);
      assertThat(rows).hasSize(3);
      assertThat(rows.get(0)).startsWith(tableLeader.name() + " |").contains("|   LEADER |");
      assertThat(rows.subList(1, 3)).allSatisfy(r -> assertThat(r).contains("| FOLLOWER |"));
      assertThat(out).contains("\n 3 rows\n");

      // A follower of the table stops: it is dead, and its replicas are not listed.
      Member stopped = live.values().stream().filter(m -> m != tableLeader && m != metaLeader).findFirst()
          .orElseGet(() -> live.values().stream().filter(m -> m != tableLeader).findFirst().orElseThrow());
      live.remove(stopped.member().id());
      stopped.server().close();
      stopped.engine().close();
      out = shell("status 'simple'\nlist_regions 't'\n", servers);
      assertThat(out).contains("\n2 live servers\n").contains("\n1 dead servers\n    " + stopped.name() + "\n");
      assertThat(regionRows(out)).hasSize(2).noneMatch(r -> r.startsWith(stopped.name()));
      assertThat(out).contains("\n " + stopped.name() + " did not answer: its replicas are not listed\n");
    } finally {
      for (Member m : live.values()) {
        m.server().close();
        m.engine().close();
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
