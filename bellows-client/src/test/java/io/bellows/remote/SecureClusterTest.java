package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.cluster.RaftTls;
import io.bellows.cluster.server.Members;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.BellowsServer;
import io.bellows.server.GrpcCheckpointSource;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.testing.FreePorts;
import io.bellows.util.Bytes;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three members in one JVM configured as a secure cluster's are (the same {@code tls.cert} and
 * {@code tls.key} for both ports, {@code cluster.tls.ca}; wired as {@code bellows server --cluster}
 * wires them): they elect leaders over mutually authenticated Raft, and a client over TLS creates a
 * table, writes and reads it back; each Raft port speaks TLS (before, plain text). The one member
 * certificate of the test CA serves both Ratis' server side and its client side.
 */
@Timeout(180)
class SecureClusterTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  void membersWithCertificatesOfTheClusterCaReplicateOverMutualTls() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= 3; i++) {
      text.append("m").append(i).append(" 127.0.0.1:").append(FreePorts.next()).append(" 127.0.0.1:").append(FreePorts.next())
          .append('\n');
    }
    Members members = Members.parse(text.toString(), "the test's member file");
    ServerConfig config = ServerConfig.defaults().withTls(pki.memberCert, pki.memberKey, null)
        .withClusterAccess(new ServerConfig.ClusterAccess(null, pki.ca));
    RaftTls raftTls = RaftTls.forMember(config.tlsCert(), config.tlsKey(), config.cluster().tlsCa());
    assertThat(raftTls).isNotNull();
    List<AutoCloseable> open = new ArrayList<>();
    try {
      for (Members.Member m : members.list()) {
        GrpcCheckpointSource checkpoints = GrpcCheckpointSource.of(members, config);
        ReplicatedEngine engine = ReplicatedEngine.open(dir.resolve(m.id()), EngineOptions.defaults(), members, m.id(),
            null, checkpoints, raftTls);
        BellowsServer server = BellowsServer.start(engine, config.withPorts(m.clientPort(), -1), ServerEvents.NONE);
        open.add(0, checkpoints);
        open.add(0, engine);
        open.add(0, server);
      }
      for (Members.Member m : members.list()) { // every member hears of a leader of meta over TLS
        ReplicatedEngine engine = (ReplicatedEngine) open.stream()
            .filter(o -> o instanceof ReplicatedEngine e && e.id().equals(m.id())).findFirst().orElseThrow();
        assertThat(engine.node().awaitLeader(ReplicatedEngine.META, InJvmCluster.WAIT_MS)).isIn("m1", "m2", "m3");
      }
      for (Members.Member m : members.list()) { // and each Raft port speaks TLS, showing the member's certificate
        assertThat(raftPortCertificate(m.raftPort(), pki).getSubjectX500Principal().getName())
            .as(m.id()).isEqualTo("CN=bellows test member");
      }
      try (RemoteCluster client = RemoteCluster.open(members.list().stream().map(Members.Member::clientAddress).toList(),
          RemoteOptions.defaults().withTls(pki.ca, null, null)
              .withRetries(20, Duration.ofMillis(50), Duration.ofMillis(1000)))) {
        client.createTable(TableDescriptor.builder("t").family("f").build());
        TableRef t = client.table("t");
        client.mutate(t, List.of(new RowMutation(Bytes.of("r"),
            List.of(Cells.put(Bytes.of("r"), F, Q, Long.MAX_VALUE, Bytes.of("v"))), -1, Durability.USE_DEFAULT)));
        try (RowScanner s = client.scan(t, ScanQuery.builder().singleRow(Bytes.of("r")).build())) {
          List<Cell> row = new ArrayList<>();
          assertThat(s.nextRow(row)).isTrue();
          assertThat(Bytes.str(row.get(0).value())).isEqualTo("v");
        }
      }
    } finally {
      for (AutoCloseable c : open) {
        c.close();
      }
    }
  }

  /** The certificate the Raft port {@code port} shows in a TLS handshake made with the test's client certificate. */
  private static X509Certificate raftPortCertificate(int port, TestCertificates pki) throws Exception {
    CertificateFactory cf = CertificateFactory.getInstance("X.509");
    Certificate clientCert;
    Certificate caCert;
    try (InputStream in = Files.newInputStream(pki.clientCert); InputStream c = Files.newInputStream(pki.ca)) {
      clientCert = cf.generateCertificate(in);
      caCert = cf.generateCertificate(c);
    }
    String pem = Files.readString(pki.clientKey).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
    char[] password = "probe".toCharArray();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("probe", key, password, new Certificate[] {clientCert});
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, password);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", caCert);
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
      SSLParameters p = s.getSSLParameters();
      p.setApplicationProtocols(new String[] {"h2"}); // as gRPC asks
      s.setSSLParameters(p);
      s.startHandshake();
      return (X509Certificate) s.getSession().getPeerCertificates()[0];
    }
  }

}
