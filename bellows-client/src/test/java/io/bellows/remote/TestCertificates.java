package io.bellows.remote;

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
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away PKI made at test time (no private key is checked in): a CA, a server certificate for
 * 127.0.0.1 and localhost, a client certificate and a cluster member's, written as PEM files into a
 * directory.
 */
final class TestCertificates {
  final Path ca;
  final Path serverCert;
  final Path serverKey;
  final Path clientCert;
  final Path clientKey;
  /** A second CA that signed nothing here: trusting only it must fail. */
  final Path otherCa;
  /** A cluster member's certificate for 127.0.0.1 and localhost, for server and client authentication both. */
  final Path memberCert;
  final Path memberKey;

  TestCertificates(Path dir) throws IOException, GeneralSecurityException, OperatorCreationException {
    KeyPair caKeys = keys();
    X500Name caName = new X500Name("CN=Bellows test CA");
    X509Certificate caCert = sign(caName, caKeys.getPrivate(), caName, caKeys.getPublic(), true, null, null);
    KeyPair serverKeys = keys();
    X509Certificate server = sign(caName, caKeys.getPrivate(), new X500Name("CN=localhost"), serverKeys.getPublic(),
        false, KeyPurposeId.id_kp_serverAuth, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    KeyPair clientKeys = keys();
    X509Certificate client = sign(caName, caKeys.getPrivate(), new X500Name("CN=bellows test client"),
        clientKeys.getPublic(), false, KeyPurposeId.id_kp_clientAuth, null);
    KeyPair memberKeys = keys();
    X509Certificate member = sign(caName, caKeys.getPrivate(), new X500Name("CN=bellows test member"),
        memberKeys.getPublic(), false, null, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    KeyPair otherKeys = keys();
    X500Name otherName = new X500Name("CN=Another CA");
    X509Certificate other = sign(otherName, otherKeys.getPrivate(), otherName, otherKeys.getPublic(), true, null, null);

    ca = pem(dir.resolve("ca.pem"), "CERTIFICATE", caCert.getEncoded());
    serverCert = pem(dir.resolve("server.pem"), "CERTIFICATE", server.getEncoded());
    serverKey = pem(dir.resolve("server.key"), "PRIVATE KEY", serverKeys.getPrivate().getEncoded());
    clientCert = pem(dir.resolve("client.pem"), "CERTIFICATE", client.getEncoded());
    clientKey = pem(dir.resolve("client.key"), "PRIVATE KEY", clientKeys.getPrivate().getEncoded());
    otherCa = pem(dir.resolve("other-ca.pem"), "CERTIFICATE", other.getEncoded());
    memberCert = pem(dir.resolve("member.pem"), "CERTIFICATE", member.getEncoded());
    memberKey = pem(dir.resolve("member.key"), "PRIVATE KEY", memberKeys.getPrivate().getEncoded());
  }

  private static KeyPair keys() throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(256);
    return g.generateKeyPair();
  }

  private static X509Certificate sign(X500Name issuer, PrivateKey issuerKey, X500Name subject, PublicKey key,
      boolean isCa, KeyPurposeId purpose, GeneralNames altNames)
      throws IOException, GeneralSecurityException, OperatorCreationException {
    Instant now = Instant.now();
    X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(now.toEpochMilli()),
        Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)), subject, key);
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
    if (isCa) {
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    } else {
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
      if (purpose != null) { // none: any purpose (a cluster member's, both server and client)
        b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      }
    }
    if (altNames != null) {
      b.addExtension(Extension.subjectAlternativeName, false, altNames);
    }
    return new JcaX509CertificateConverter().getCertificate(
        b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
  }

  private static Path pem(Path file, String type, byte[] der) throws IOException {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
    return file;
  }
}
