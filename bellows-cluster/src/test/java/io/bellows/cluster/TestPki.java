package io.bellows.cluster;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away CA made at test time (no private key is checked in), as bellows-client's
 * TestCertificates makes one, that signs member certificates: each for 127.0.0.1 and localhost,
 * for server and client authentication both (a member is a TLS server and client of the others),
 * written as PEM files (key in PKCS#8) into a directory.
 */
final class TestPki {
  private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

  private final Path dir;
  private final String name;
  private final X500Name caName;
  private final KeyPair caKeys;
  /** This CA's certificate, PEM. */
  final Path ca;

  /** A CA named {@code name} whose files go into {@code dir}. */
  TestPki(Path dir, String name) throws IOException, GeneralSecurityException {
    this.dir = Files.createDirectories(dir);
    this.name = name;
    this.caName = new X500Name("CN=" + name);
    this.caKeys = keys();
    X509Certificate caCert = sign(caName, caKeys.getPrivate(), caName, caKeys.getPublic(), true);
    this.ca = pem(dir.resolve(name + "-ca.pem"), "CERTIFICATE", caCert.getEncoded());
  }

  /** A member's certificate and key, signed by this CA. */
  record Member(Path cert, Path key) {}

  Member member(String id) throws IOException, GeneralSecurityException {
    KeyPair keys = keys();
    X509Certificate cert = sign(caName, caKeys.getPrivate(), new X500Name("CN=" + id), keys.getPublic(), false);
    return new Member(pem(dir.resolve(name + "-" + id + ".pem"), "CERTIFICATE", cert.getEncoded()),
        pem(dir.resolve(name + "-" + id + ".key"), "PRIVATE KEY", keys.getPrivate().getEncoded()));
  }

  /** The TLS of a node that shows {@code member}'s certificate and trusts this CA. */
  RaftTls tls(Member member) {
    return new RaftTls(member.cert(), member.key(), ca);
  }

  private static KeyPair keys() throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(256);
    return g.generateKeyPair();
  }

  private static X509Certificate sign(X500Name issuer, PrivateKey issuerKey, X500Name subject, PublicKey key,
      boolean isCa) throws IOException, GeneralSecurityException {
    Instant now = Instant.now();
    X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIALS.incrementAndGet()),
        Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)), subject, key);
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
    if (isCa) {
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    } else {
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
      b.addExtension(Extension.extendedKeyUsage, false,
          new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
      b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
          new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    }
    try {
      return new JcaX509CertificateConverter().getCertificate(
          b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
    } catch (org.bouncycastle.operator.OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static Path pem(Path file, String type, byte[] der) throws IOException {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
    return file;
  }
}
