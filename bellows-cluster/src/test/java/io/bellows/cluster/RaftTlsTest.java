package io.bellows.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.testing.FreePorts;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Raft over mutual TLS ({@link RaftTls}): three nodes in one JVM on 127.0.0.1 whose certificates
 * one CA signed form a group over TLS; a party without such a certificate (none, or another CA's)
 * can neither write to the group nor ask its members about it; a node whose certificate the others
 * do not trust is no part of the group's quorum.
 */
@Timeout(120)
class RaftTlsTest {
  private static final long WAIT_MS = 30_000;
  private static final UUID GROUP = UUID.fromString("00000000-0000-0000-0000-0000000007e5");
  private static final List<String> IDS = List.of("n1", "n2", "n3");

  @TempDir Path dir;
  private TestPki clusterCa;
  private TestPki otherCa;
  private final Map<String, Integer> ports = new TreeMap<>();
  private final Map<String, RaftNode> nodes = new ConcurrentHashMap<>();
  private final Map<String, Recorder> appliers = new ConcurrentHashMap<>();

  /** Keeps what it applied; waits for a count without sleeping. */
  static final class Recorder implements LogApplier {
    private final List<String> applied = new ArrayList<>();

    @Override
    public synchronized byte[] apply(LogPosition at, byte[] entry) {
      applied.add(new String(entry, StandardCharsets.UTF_8));
      notifyAll();
      return new byte[0];
    }

    synchronized List<String> applied() {
      return List.copyOf(applied);
    }

    synchronized List<String> awaitCount(int n) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
      while (applied.size() < n) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        assertThat(left).as("applied %d of %d entries", applied.size(), n).isPositive();
        wait(left);
      }
      return List.copyOf(applied);
    }
  }

  @BeforeEach
  void pki() throws Exception {
    clusterCa = new TestPki(dir.resolve("pki"), "cluster");
    otherCa = new TestPki(dir.resolve("pki"), "other");
    for (String id : IDS) {
      ports.put(id, FreePorts.next());
    }
  }

  @AfterEach
  void stopAll() {
    nodes.values().forEach(RaftNode::close);
  }

  private List<RaftNode.Peer> peers() {
    return ports.entrySet().stream().map(e -> new RaftNode.Peer(e.getKey(), "127.0.0.1:" + e.getValue())).toList();
  }

  /**
   * Starts the nodes with their TLS, then adds the group on each (every Raft port listens before
   * any replica campaigns), and waits until each has learnt of a leader.
   */
  private String startGroup(Map<String, RaftTls> tls) throws Exception {
    for (String id : IDS) {
      Recorder applier = new Recorder();
      appliers.put(id, applier);
      nodes.put(id, RaftNode.start(id, RaftSettings.of("127.0.0.1", ports.get(id), dir.resolve(id)), g -> applier,
          null, tls.get(id)));
    }
    for (String id : IDS) {
      nodes.get(id).addGroup(GROUP, peers());
    }
    return nodes.get("n1").awaitLeader(GROUP, WAIT_MS);
  }

  /** The three nodes, each with its certificate of the cluster's CA; returns the leader. */
  private String startTrustedThree() throws Exception {
    Map<String, RaftTls> tls = new TreeMap<>();
    for (String id : IDS) {
      tls.put(id, clusterCa.tls(clusterCa.member(id)));
    }
    String leader = startGroup(tls);
    for (String id : IDS) {
      nodes.get(id).awaitLeader(GROUP, WAIT_MS);
    }
    return leader;
  }


  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void threeMembersWithCertificatesOfOneCaElectALeaderAndReplicateOverTls() throws Exception {
    String leader = startTrustedThree();
    List<CompletableFuture<byte[]>> acks = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      acks.add(nodes.get(leader).log(GROUP).append(bytes("e" + i)));
    }
    acks.forEach(CompletableFuture::join);
    List<String> expected = appliers.get(leader).awaitCount(20);
    for (String id : IDS) {
      assertThat(appliers.get(id).awaitCount(20)).as(id).isEqualTo(expected);
    }
    // Each Raft port speaks TLS and shows its member's own certificate.
    TestPki.Member probe = clusterCa.member("probe");
    for (String id : IDS) {
      assertThat(peerCertificate(ports.get(id), probe, clusterCa.ca).getSubjectX500Principal().getName())
          .as(id).isEqualTo("CN=" + id);
    }
  }

  /**
   * A Ratis client that is no member: without TLS, or with a certificate another CA signed (it
   * trusts the cluster's CA, so only the members' check of its certificate can stop it). Its write
   * and its admin request both fail, where a client with a certificate of the cluster's CA is
   * answered, and the group's log holds only the members' entries.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"plain text", "another CA's certificate"})
  void aPartyWithoutACertificateOfTheClustersCaCannotSpeakRaftToAMember(String kind) throws Exception {
    String leader = startTrustedThree();
    nodes.get(leader).log(GROUP).append(bytes("before")).join();
    RaftGroup group = RaftGroup.valueOf(RaftGroupId.valueOf(GROUP),
        peers().stream().map(RaftNode.Peer::toRatis).toList());
    // The control: the same request with a certificate of the cluster's CA is answered.
    try (RaftClient trusted = client(group, leader, clusterCa.tls(clusterCa.member("admin")))) {
      assertThat(trusted.getGroupManagementApi(RaftPeerId.valueOf(leader)).info(group.getGroupId()).isSuccess())
          .isTrue();
    }
    RaftTls intruderTls = null;
    if (kind.equals("another CA's certificate")) {
      TestPki.Member intruder = otherCa.member("intruder");
      intruderTls = new RaftTls(intruder.cert(), intruder.key(), clusterCa.ca);
    }
    try (RaftClient intruder = client(group, leader, intruderTls)) {
      assertThatThrownBy(() -> intruder.io().send(Message.valueOf("intruder"))).isInstanceOf(IOException.class);
      // Ratis' admin calls fail with gRPC's own exception, its client calls with an IOException.
      assertThatThrownBy(() -> intruder.getGroupManagementApi(RaftPeerId.valueOf(leader)).info(group.getGroupId()))
          .isInstanceOfAny(IOException.class, StatusRuntimeException.class);
    }
    // An entry of the members' after the attempt: every replica applies it right after "before".
    nodes.get(leader).log(GROUP).append(bytes("after")).join();
    for (String id : IDS) {
      assertThat(appliers.get(id).awaitCount(2)).as(id).containsExactly("before", "after");
    }
  }

  /**
   * n3's certificate was signed by another CA (n3 itself trusts the cluster's): n1 and n2 elect a
   * leader and replicate without it; with the other of them stopped, the leader's only peer is n3,
   * whose acknowledgements never arrive: the leader loses its majority and steps down, failing the
   * pending append, and n3 never applied an entry.
   */
  @Test
  void aMemberWhoseCertificateTheOthersDoNotTrustIsNoPartOfTheQuorum() throws Exception {
    TestPki.Member untrusted = otherCa.member("n3");
    String leader = startGroup(Map.of("n1", clusterCa.tls(clusterCa.member("n1")),
        "n2", clusterCa.tls(clusterCa.member("n2")),
        "n3", new RaftTls(untrusted.cert(), untrusted.key(), clusterCa.ca)));
    assertThat(leader).isIn("n1", "n2");
    for (int i = 0; i < 5; i++) {
      nodes.get(leader).log(GROUP).append(bytes("a" + i)).join();
    }
    String follower = leader.equals("n1") ? "n2" : "n1";
    assertThat(appliers.get(follower).awaitCount(5)).isEqualTo(appliers.get(leader).awaitCount(5));

    nodes.remove(follower).close();
    CompletableFuture<byte[]> lost = nodes.get(leader).log(GROUP).append(bytes("lost"));
    assertThatThrownBy(() -> lost.get(WAIT_MS, TimeUnit.MILLISECONDS))
        .as("an append with only the untrusted member left").isInstanceOf(ExecutionException.class);
    assertThat(appliers.get("n3").applied()).isEmpty();
    assertThat(appliers.get(leader).applied()).hasSize(5);
  }

  /** A Ratis client of {@code group} that calls {@code leader} once, over {@code tls} unless it is null. */
  private static RaftClient client(RaftGroup group, String leader, RaftTls tls) {
    Parameters parameters = new Parameters();
    if (tls != null) {
      tls.applyTo(parameters);
    }
    RaftProperties properties = new RaftProperties();
    RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(10, TimeUnit.SECONDS));
    return RaftClient.newBuilder().setRaftGroup(group).setLeaderId(RaftPeerId.valueOf(leader))
        .setProperties(properties).setParameters(parameters).setRetryPolicy(RetryPolicies.noRetry()).build();
  }

  /** The certificate the server on {@code port} shows in a TLS handshake made with {@code client}'s. */
  private static X509Certificate peerCertificate(int port, TestPki.Member client, Path ca) throws Exception {
    CertificateFactory cf = CertificateFactory.getInstance("X.509");
    Certificate clientCert;
    Certificate caCert;
    try (InputStream in = Files.newInputStream(client.cert()); InputStream c = Files.newInputStream(ca)) {
      clientCert = cf.generateCertificate(in);
      caCert = cf.generateCertificate(c);
    }
    String pem = Files.readString(client.key()).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
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
