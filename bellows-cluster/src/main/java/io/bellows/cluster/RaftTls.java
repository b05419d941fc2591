package io.bellows.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;

/**
 * Mutual TLS on a {@link RaftNode}'s Raft port: the node shows its own certificate to every peer it
 * calls and to every peer that calls it, and accepts a connection only from a peer whose
 * certificate the cluster's CA signed. Ratis serves its server, admin and client services on that
 * one port (no separate admin or client port is configured), and its own calls to the peers use
 * the same settings, so nothing of Raft travels in plain text or unauthenticated.
 *
 * <p>A member's certificate is used both ways: it must name the host of the member's Raft address
 * (the peers check it as a server's) and allow client authentication too.
 *
 * @param cert the node's certificate chain, PEM
 * @param key its private key, PKCS#8 PEM
 * @param ca the CA certificates, PEM, the peers' certificates must be signed by
 */
public record RaftTls(Path cert, Path key, Path ca) {
  public RaftTls {
    for (Path p : new Path[] {cert, key, ca}) {
      if (p == null) {
        throw new IllegalArgumentException("Raft TLS needs a certificate, its key and the cluster's CA");
      }
      if (!Files.isReadable(p)) {
        throw new IllegalArgumentException("Raft TLS: cannot read " + p);
      }
    }
  }

  /**
   * The TLS of a member whose server has {@code cert} and {@code key} (tls.cert, tls.key) and trusts
   * its peers by {@code ca} (cluster.tls.ca): null when none is set (plain text, unauthenticated),
   * an error naming the missing setting when only some are. A member never speaks Raft in plain
   * text while its clients' port speaks TLS, nor the other way round.
   */
  public static RaftTls forMember(Path cert, Path key, Path ca) {
    if (cert == null && key == null && ca == null) {
      return null;
    }
    if (cert == null || key == null) {
      throw new IllegalArgumentException("cluster.tls.ca needs tls.cert and tls.key: a member shows its own "
          + "certificate to the other members, on their Raft and client ports");
    }
    if (ca == null) {
      throw new IllegalArgumentException("a member whose server speaks TLS (tls.cert) needs cluster.tls.ca: the CA "
          + "the other members' certificates are signed by (its Raft traffic is mutually authenticated)");
    }
    return new RaftTls(cert, key, ca);
  }

  /** Sets these files as the TLS of every Ratis gRPC service and of every call the node makes. */
  void applyTo(Parameters parameters) {
    GrpcConfigKeys.TLS.setConf(parameters, new GrpcTlsConfig(key.toFile(), cert.toFile(), ca.toFile(), true));
  }
}
