package io.bellows.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
import io.bellows.config.KnobAssignments;
import io.bellows.config.Knobs;
import io.bellows.engine.LocalEngine;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.ReplicationGrpc;
import io.grpc.MethodDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {
  private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

  @TempDir
  Path dir;

  @Test
  void readsEveryKeyOfTheFile() throws Exception {
    Path file = dir.resolve("server.properties");
    Files.writeString(file, String.join("\n",
        "bind = 0.0.0.0",
        "port = 9000",
        "http.port = -1",
        "max.calls = 12",
        "threads = 3",
        "tls.cert = certs/server.pem",
        "tls.key = certs/server.key",
        "tls.client.ca = certs/ca.pem",
        "token.ops = admin " + HASH,
        "token.dash = read-only " + HASH.toUpperCase() + " 2030-01-01T00:00:00Z",
        "bellows.wal.max.files = 7",
        ""));
    ServerConfig c = ServerConfig.read(file);
    assertThat(c.bind()).isEqualTo("0.0.0.0");
    assertThat(c.port()).isEqualTo(9000);
    assertThat(c.httpPort()).isEqualTo(-1);
    assertThat(c.maxCalls()).isEqualTo(12);
    assertThat(c.threads()).isEqualTo(3);
    assertThat(c.tlsCert()).isEqualTo(dir.resolve("certs/server.pem"));
    assertThat(c.tlsClientCa()).isEqualTo(dir.resolve("certs/ca.pem"));
    assertThat(c.tokens()).extracting(ServerConfig.Token::name).containsExactlyInAnyOrder("ops", "dash");
    ServerConfig.Token dash = c.tokens().stream().filter(t -> t.name().equals("dash")).findFirst().orElseThrow();
    assertThat(dash.role()).isEqualTo(Role.READ_ONLY);
    assertThat(dash.expires()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    assertThat(c.engine().get(Knobs.WAL_MAX_FILES)).isEqualTo(7);
    assertThat(c.secured()).isTrue();
  }

  @Test
  void docsShowEveryKeyWithItsDefaultAndMeaning() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "SERVER.md"));
    for (String[] k : ServerConfig.KEYS) {
      assertThat(doc).contains("| `" + k[0] + "` | " + k[1] + " | " + k[2] + " |");
    }
  }

  @Test
  void docsShowEveryLimitWithTheDefaultTheServerUses() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "SERVER.md"));
    for (String[] k : ServerConfig.LIMIT_KEYS) {
      assertThat(doc).contains("| `" + k[0] + "` | " + k[1] + " | " + k[2] + " |");
    }
    assertThat(doc).contains("## Limits").contains("## Hardening");
  }

  @Test
  void readsLimitsAndAccessSettings() {
    ServerConfig c = ServerConfig.parse(Map.of("max.connections", "40", "scanner.lease.ms", "500",
        "max.response.bytes", "2048", "http.auth", "true", "http.hosts", "db.example, Status.Example",
        "tls.client.role", "admin"), Path.of("."));
    assertThat(c.limits().maxConnections()).isEqualTo(40);
    assertThat(c.limits().scannerLeaseMillis()).isEqualTo(500);
    assertThat(c.limits().maxResponseBytes()).isEqualTo(2048);
    assertThat(c.limits().maxConnectionsPerAddress()).isEqualTo(32);
    assertThat(c.httpNeedsToken()).isTrue();
    assertThat(c.httpHosts()).containsExactly("db.example", "status.example");
    assertThat(c.tlsClientRole()).isEqualTo(Role.ADMIN);
    assertThat(ServerConfig.defaults().tlsClientRole()).isEqualTo(Role.READ_ONLY);
    assertThat(ServerConfig.defaults().httpNeedsToken()).isFalse();
    assertThatThrownBy(() -> parse("max.connections", "0"))
        .hasMessageContaining("max.connections = 0 is invalid: must be an integer from 1 to 1000000");
    assertThatThrownBy(() -> parse("http.auth", "yes")).hasMessageContaining("http.auth: 'yes' is not true or false");
    assertThatThrownBy(() -> parse("scanner.lease.ms", "soon"))
        .hasMessageContaining("scanner.lease.ms: cannot read 'soon' as an integer from 1 to");
  }

  @Test
  void theConnectionCapLeavesThreeQuartersOfTheOpenFilesToTheEngine() {
    assertThat(ConnectionLimiter.capped(256, 160)).isEqualTo(40);
    assertThat(ConnectionLimiter.capped(256, 1 << 20)).isEqualTo(256);
    assertThat(ConnectionLimiter.capped(256, -1)).isEqualTo(256);
    assertThat(ConnectionLimiter.capped(256, 2)).isEqualTo(1);
  }

  @Test
  void theLogSaysWhoCanReachThePortByItsAddress() throws Exception {
    ServerConfig secured = ServerConfig.defaults().withTls(Path.of("c"), Path.of("k"), Path.of("ca"));
    assertThat(BellowsServer.reach(java.net.InetAddress.getByName("127.0.0.1"), secured)).isEqualTo("loopback only");
    assertThat(BellowsServer.reach(java.net.InetAddress.getByName("0.0.0.0"), secured))
        .isEqualTo("reachable from other hosts");
  }

  @Test
  void badKeysAndValuesAreNamed() {
    assertThatThrownBy(() -> parse("prot", "1")).hasMessageContaining("unknown server setting 'prot'");
    assertThatThrownBy(() -> parse("port", "70000")).hasMessageContaining("port");
    assertThatThrownBy(() -> parse("token.x", "root " + HASH)).hasMessageContaining("unknown role 'root'");
    assertThatThrownBy(() -> parse("token.x", "admin abc")).hasMessageContaining("64 hex digits");
    assertThatThrownBy(() -> parse("token.x", "admin " + HASH + " tomorrow")).hasMessageContaining("ISO-8601");
    assertThatThrownBy(() -> parse("tls.cert", "a.pem")).hasMessageContaining("tls.cert and tls.key go together");
    assertThatThrownBy(() -> parse("bellows.nope", "1")).hasMessageContaining("nope");
  }

  @Test
  void aMembersElectionTimeoutsAreReadWithTheirDefaultsAndTheMinimumMustBeBelowTheMaximum() {
    assertThat(ServerConfig.defaults().cluster().electionMin()).isEqualTo(java.time.Duration.ofSeconds(1));
    assertThat(ServerConfig.defaults().cluster().electionMax()).isEqualTo(java.time.Duration.ofSeconds(2));
    ServerConfig c = ServerConfig.parse(Map.of("cluster.election.min.ms", "600", "cluster.election.max.ms", "1200"),
        Path.of("."));
    assertThat(c.cluster().electionMin()).isEqualTo(java.time.Duration.ofMillis(600));
    assertThat(c.cluster().electionMax()).isEqualTo(java.time.Duration.ofMillis(1200));
    assertThatThrownBy(() -> parse("cluster.election.min.ms", "2000"))
        .hasMessageContaining("cluster.election.min.ms (2000) must be below cluster.election.max.ms (2000)");
    assertThatThrownBy(() -> parse("cluster.election.min.ms", "10")).hasMessageContaining("cluster.election.min.ms");
  }

  @Test
  void aMembersBalancingIntervalIsReadWithItsDefaultAndZeroTurnsItOff() {
    assertThat(ServerConfig.defaults().cluster().balanceInterval()).isEqualTo(java.time.Duration.ofMinutes(5));
    assertThat(parse("cluster.balance.interval.ms", "60000").cluster().balanceInterval())
        .isEqualTo(java.time.Duration.ofMinutes(1));
    assertThat(parse("cluster.balance.interval.ms", "0").cluster().balanceInterval()).isZero();
    assertThatThrownBy(() -> parse("cluster.balance.interval.ms", "-1")).hasMessageContaining("cluster.balance.interval.ms");
    // The election timeouts, set after, keep it.
    assertThat(parse("cluster.balance.interval.ms", "0").cluster()
        .withElectionTimeouts(java.time.Duration.ofMillis(600), java.time.Duration.ofMillis(1200)).balanceInterval()).isZero();
  }

  /** The file's engine knobs and {@code --set}'s go through the one parser of the registry. */
  @Test
  void engineKnobsAreReadByTheRegistrysParserAndSetOverridesTheFile() {
    ServerConfig c = parse("bellows.wal.max.files", "7")
        .withEngineSettings(KnobAssignments.parse(java.util.List.of("bellows.wal.max.files=9", "bellows.mslab.pool.max=1M")));
    assertThat(c.engine().get(Knobs.WAL_MAX_FILES)).isEqualTo(9);
    assertThat(c.engine().get(Knobs.CHUNK_POOL_MAX_BYTES)).isEqualTo(1L << 20);
    assertThatThrownBy(() -> parse("bellows.kvcache.policy", "MRU"))
        .hasMessageContaining("bellows.kvcache.policy: cannot read 'MRU' as one of");
    assertThatThrownBy(() -> ServerConfig.defaults().withEngineSettings(KnobAssignments.parse(java.util.List.of("TTL=60"))))
        .hasMessageContaining("TTL (a family setting): not settable here");
  }

  /** The server's numeric keys are knobs of scope SERVER, read by the registry's parser, as engine knobs are. */
  @Test
  void numericKeysAreServerKnobsReadByTheKnobParser() {
    assertThatThrownBy(() -> parse("threads", "many"))
        .hasMessage("threads: cannot read 'many' as an integer from 1 to 10000");
    assertThatThrownBy(() -> parse("max.calls", "0")).hasMessage("max.calls = 0 is invalid: must be an integer from 1 to 1000000");
    assertThat(parse("max.batch.rows", "500").limits().maxBatchRows()).isEqualTo(500);
    assertThat(ServerKnobs.LIMITS).allSatisfy(k -> assertThat(k.scope()).isEqualTo(Knob.Scope.SERVER));
    assertThat(ServerConfig.defaults().limits().maxRequestBytes()).isEqualTo(16 << 20);
    assertThatThrownBy(() -> ServerConfig.defaults().withLimits(java.util.Map.of("max.batch.rows", 0L)))
        .hasMessageContaining("max.batch.rows = 0 is invalid");
    assertThatThrownBy(() -> KnobAssignments.knob("max.calls")).as("a server key is no engine setting")
        .hasMessageContaining("unknown setting 'max.calls'");
  }

  private static ServerConfig parse(String key, String value) {
    Map<String, String> m = new TreeMap<>();
    m.put(key, value);
    return ServerConfig.parse(m, Path.of("."));
  }

  @Test
  void withoutSecurityTheServerRefusesToListenBeyondLoopback() {
    try (LocalEngine engine = LocalEngine.open(dir, EngineOptions.defaults())) {
      ServerConfig open = ServerConfig.defaults().withPorts(0, -1).withBind("0.0.0.0");
      assertThatThrownBy(() -> BellowsServer.start(engine, open, ServerEvents.NONE))
          .isInstanceOf(ServerStartException.class)
          .hasMessageContaining("refusing to listen on 0.0.0.0 without security");
    }
  }

  @Test
  void everyMethodNeedsARoleAndOnlyReadsAreReadOnly() {
    List<MethodDescriptor<?, ?>> methods = new ArrayList<>();
    AdminGrpc.getServiceDescriptor().getMethods().forEach(methods::add);
    DataGrpc.getServiceDescriptor().getMethods().forEach(methods::add);
    for (MethodDescriptor<?, ?> m : methods) {
      Role needed = AuthInterceptor.needed(m.getFullMethodName());
      String name = m.getBareMethodName();
      boolean write = List.of("Mutate", "CheckAndMutate", "Increment", "MutateRow").contains(name);
      boolean admin = List.of("CreateTable", "DisableTable", "EnableTable", "DropTable", "Flush", "Compact", "Split",
          "Resume", "Verify", "Snapshot", "DeleteSnapshot", "CloneSnapshot", "RestoreSnapshot", "ModifyTable",
          "BulkLoad", "Balance", "MoveLeader", "AddServer", "Decommission", "Recommission")
          .contains(name); // Verify reads every file: an admin's call
      assertThat(needed).as(name).isEqualTo(admin ? Role.ADMIN : write ? Role.READ_WRITE : Role.READ_ONLY);
    }
    assertThat(AuthInterceptor.needed("bellows.v1.Admin/SomethingNew")).isEqualTo(Role.ADMIN);
    // The members' internal calls hand out whole checkpoints of a region's files: admin only.
    ReplicationGrpc.getServiceDescriptor().getMethods().forEach(m ->
        assertThat(AuthInterceptor.needed(m.getFullMethodName())).as(m.getBareMethodName()).isEqualTo(Role.ADMIN));
  }
}
