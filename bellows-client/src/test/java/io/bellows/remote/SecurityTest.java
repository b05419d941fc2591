package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.Role;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.util.Bytes;
import io.bellows.wire.RemoteCallException;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bearer tokens with roles, TLS, mutual TLS. */
class SecurityTest {
  @TempDir
  Path dir;

  /** No retries: a refusal must surface at once. */
  private static final RemoteOptions ONCE = RemoteOptions.defaults().withRetries(1, Duration.ofMillis(1), Duration.ofMillis(1));

  private static ServerConfig.Token token(String name, Role role, String secret, Instant expires) throws Exception {
    byte[] hash = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    return new ServerConfig.Token(name, role, hash, expires);
  }

  private static List<ServerConfig.Token> tokens() throws Exception {
    return List.of(
        token("reader", Role.READ_ONLY, "reader-secret", null),
        token("writer", Role.READ_WRITE, "writer-secret", null),
        token("root", Role.ADMIN, "root-secret", null),
        token("old", Role.ADMIN, "old-secret", Instant.parse("2000-01-01T00:00:00Z")));
  }

  private static void refused(Runnable call, Status.Code code, String message) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(RemoteCallException.class, e -> {
      assertThat(e.code()).isEqualTo(code);
      assertThat(e.getMessage()).contains(message);
    });
  }

  @Test
  void tokensAreCheckedAndRolesLimitWhatTheyMayDo() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, ServerConfig.defaults().withTokens(tokens()), ServerEvents.NONE);
        Bellows root = f.connect(ONCE.withToken("root-secret"));
        Bellows writer = f.connect(ONCE.withToken("writer-secret"));
        Bellows reader = f.connect(ONCE.withToken("reader-secret"));
        Bellows none = f.connect(ONCE);
        Bellows unknown = f.connect(ONCE.withToken("guess"));
        Bellows expired = f.connect(ONCE.withToken("old-secret"))) {
      refused(none::listTables, Status.Code.UNAUTHENTICATED, "no bearer token");
      refused(unknown::listTables, Status.Code.UNAUTHENTICATED, "unknown bearer token");
      refused(expired::listTables, Status.Code.UNAUTHENTICATED, "expired");

      TableDescriptor t = TableDescriptor.builder("t").family("f").build();
      refused(() -> writer.createTable(t), Status.Code.PERMISSION_DENIED, "token 'writer' is read-write; CreateTable needs admin");
      refused(() -> reader.createTable(t), Status.Code.PERMISSION_DENIED, "CreateTable needs admin");
      assertThat(root.listTables()).isEmpty();
      root.createTable(t);

      writer.getTable("t").put(new Put("r1").addColumn("f", "q", "v1"));
      Table readOnly = reader.getTable("t");
      refused(() -> readOnly.put(new Put("r2").addColumn("f", "q", "v2")), Status.Code.PERMISSION_DENIED,
          "token 'reader' is read-only; Mutate needs read-write");
      refused(() -> readOnly.incrementColumnValue(Bytes.of("r1"), Bytes.of("f"), Bytes.of("n"), 1),
          Status.Code.PERMISSION_DENIED, "MutateRow needs read-write");
      refused(() -> readOnly.checkAndMutate(io.bellows.atomic.Condition.ifAbsent(Bytes.of("f"), Bytes.of("q")),
          new Put("r2").addColumn("f", "q", "v2")), Status.Code.PERMISSION_DENIED, "MutateRow needs read-write");
      refused(() -> reader.flush("t"), Status.Code.PERMISSION_DENIED, "Flush needs admin");
      refused(() -> writer.disableTable("t"), Status.Code.PERMISSION_DENIED, "DisableTable needs admin");

      // The refused calls changed nothing; reading is allowed to the reader.
      assertThat(readOnly.get(new Get(Bytes.of("r1"))).getValue(Bytes.of("f"), Bytes.of("q"))).isEqualTo(Bytes.of("v1"));
      assertThat(readOnly.get(new Get(Bytes.of("r2"))).isEmpty()).isTrue();
      assertThat(readOnly.get(new Get(Bytes.of("r1"))).getValue(Bytes.of("f"), Bytes.of("n"))).isNull();
      assertThat(root.isTableEnabled("t")).isTrue();
      assertThat(f.engine.listTables()).containsExactly("t");
    }
  }

  @Test
  void tlsServesTrustingClientsAndRefusesPlainTextAndStrangers() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    ServerConfig tls = ServerConfig.defaults().withBind("127.0.0.1").withTls(pki.serverCert, pki.serverKey, null)
        .withTokens(tokens());
    try (ServerFixture f = new ServerFixture(dir.resolve("data"), tls, ServerEvents.NONE)) {
      try (Bellows db = f.connect(ONCE.withToken("root-secret").withTls(pki.ca, null, null))) {
        db.createTable(TableDescriptor.builder("t").family("f").build());
        db.getTable("t").put(new Put("r").addColumn("f", "q", "v"));
      }
      try (Bellows plain = f.connect(ONCE.withToken("root-secret"))) {
        assertThatThrownBy(plain::listTables).isInstanceOfSatisfying(RemoteCallException.class,
            e -> assertThat(e.code()).isEqualTo(Status.Code.UNAVAILABLE));
      }
      try (Bellows stranger = f.connect(ONCE.withToken("root-secret").withTls(pki.otherCa, null, null))) {
        assertThatThrownBy(stranger::listTables).isInstanceOfSatisfying(RemoteCallException.class,
            e -> assertThat(e.code()).isEqualTo(Status.Code.UNAVAILABLE));
      }
      assertThat(f.engine.listTables()).containsExactly("t");
    }
  }

  @Test
  void mutualTlsRequiresAClientCertificateSignedByTheClientCa() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    ServerConfig mtls = ServerConfig.defaults().withBind("127.0.0.1").withTls(pki.serverCert, pki.serverKey, pki.ca);
    try (ServerFixture f = new ServerFixture(dir.resolve("data"), mtls, ServerEvents.NONE)) {
      try (Bellows anonymous = f.connect(ONCE.withTls(pki.ca, null, null))) {
        assertThatThrownBy(anonymous::listTables).isInstanceOf(RemoteCallException.class);
      }
      try (Bellows known = f.connect(ONCE.withTls(pki.ca, pki.clientCert, pki.clientKey))) {
        assertThat(known.listTables()).isEmpty();
      }
    }
  }

  @Test
  void withMutualTlsAndNoTokensACertificateGetsTheConfiguredRoleReadOnlyByDefault() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    TableDescriptor t = TableDescriptor.builder("t").family("f").build();
    ServerConfig mtls = ServerConfig.defaults().withBind("127.0.0.1").withTls(pki.serverCert, pki.serverKey, pki.ca);
    try (ServerFixture f = new ServerFixture(dir.resolve("data"), mtls, ServerEvents.NONE);
        Bellows holder = f.connect(ONCE.withTls(pki.ca, pki.clientCert, pki.clientKey))) {
      assertThat(holder.listTables()).isEmpty();
      refused(() -> holder.createTable(t), Status.Code.PERMISSION_DENIED,
          "client certificates are read-only (tls.client.role); CreateTable needs admin");
      assertThat(f.engine.listTables()).isEmpty();
    }
    try (ServerFixture f = new ServerFixture(dir.resolve("data2"), mtls.withTlsClientRole(Role.ADMIN), ServerEvents.NONE);
        Bellows holder = f.connect(ONCE.withTls(pki.ca, pki.clientCert, pki.clientKey))) {
      holder.createTable(t);
      assertThat(f.engine.listTables()).containsExactly("t");
    }
  }

  @Test
  void theClientSendsATokenInPlainTextOnlyToLoopback() {
    assertThatThrownBy(() -> RemoteEngine.open("db.example:7070", ONCE.withToken("secret")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plain text to db.example:7070");
    assertThatThrownBy(() -> RemoteEngine.open("10.0.0.7:7070", ONCE.withToken("secret")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(RemoteEngine.loopback("127.0.0.1:7070")).isTrue();
    assertThat(RemoteEngine.loopback("localhost:7070")).isTrue();
    assertThat(RemoteEngine.loopback("[::1]:7070")).isTrue();
    assertThat(RemoteEngine.loopback("dns:///127.0.0.2:7070")).isTrue();
    assertThat(RemoteEngine.loopback("localhost.attacker.example:7070")).isFalse();
    RemoteEngine.open("db.example:7070", ONCE).close(); // no token: nothing to leak (connects lazily)
  }
}
