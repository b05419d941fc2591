package io.bellows.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member whose TLS settings are half there refuses to start, naming what is missing, before it
 * opens anything: its Raft traffic is never plain text while its clients' port speaks TLS, nor does
 * it fetch checkpoints over TLS while speaking Raft in plain text. (Before, both started a member
 * whose Raft port was plain text; the timeout ends such a run.)
 */
@Timeout(60)
class MemberTlsSettingsTest {
  @TempDir Path dir;

  private String refusal(ServerConfig config) throws Exception {
    Path members = Files.writeString(dir.resolve("members.txt"),
        "n1 127.0.0.1:1 127.0.0.1:2\nn2 127.0.0.1:3 127.0.0.1:4\nn3 127.0.0.1:5 127.0.0.1:6\n");
    StringWriter err = new StringWriter();
    int status = new ServerProcess(dir.resolve("data"), config, new PrintWriter(err), members, "n1").run();
    assertThat(status).as(err.toString()).isEqualTo(2);
    assertThat(dir.resolve("data/raft")).doesNotExist();
    return err.toString();
  }

  @Test
  void aMemberWithTlsButNoClusterCaRefusesToStart() throws Exception {
    Path cert = Files.writeString(dir.resolve("member.pem"), "");
    Path key = Files.writeString(dir.resolve("member.key"), "");
    assertThat(refusal(ServerConfig.defaults().withTls(cert, key, null)))
        .startsWith("ERROR: ").contains("needs cluster.tls.ca");
  }

  @Test
  void aMemberWithAClusterCaButNoCertificateRefusesToStart() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "");
    assertThat(refusal(ServerConfig.defaults().withClusterAccess(new ServerConfig.ClusterAccess(null, ca))))
        .startsWith("ERROR: ").contains("cluster.tls.ca needs tls.cert and tls.key");
  }
}
