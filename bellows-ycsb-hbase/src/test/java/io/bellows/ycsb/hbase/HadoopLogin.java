package io.bellows.ycsb.hbase;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Whether HBase's own client can start on this JDK. {@code ConnectionFactory} logs in through
 * Hadoop's {@code UserGroupInformation}, which calls {@code Subject.getSubject}; JDK 24 and later
 * throw {@code UnsupportedOperationException} there, and HBase 2.5/2.6 with their Hadoop client do
 * not run on such a JDK at all, with or without Bellows. Tests that open a connection are skipped
 * there, saying why.
 */
final class HadoopLogin {
  private HadoopLogin() {}

  static void assumeWorks() {
    assumeTrue(AdapterCost.hbaseClientCanStart(), "skipped: HBase's client (Hadoop's UserGroupInformation) cannot"
        + " log in on Java " + Runtime.version().feature() + ": Subject.getSubject is unsupported there; run these"
        + " tests on Java 17 or 21");
  }
}
