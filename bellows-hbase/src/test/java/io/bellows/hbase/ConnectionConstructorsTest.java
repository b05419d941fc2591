package io.bellows.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.util.VersionInfo;
import org.junit.jupiter.api.Test;

/**
 * HBase's ConnectionFactory finds the connection class's constructor by its parameter types, which
 * changed in 2.6 (connection attributes were added). Both must exist; the scenario tests then run
 * against whichever HBase client is on the class path (2.6 by default, 2.5 with
 * {@code -Phbase-2.5}).
 */
class ConnectionConstructorsTest {
  @Test
  void bothHBaseConstructorShapesArePublic() throws NoSuchMethodException {
    assertThat(BellowsConnection.class.getConstructor(Configuration.class, ExecutorService.class, User.class)).isNotNull();
    assertThat(BellowsConnection.class.getConstructor(Configuration.class, ExecutorService.class, User.class, Map.class))
        .isNotNull();
    System.out.println("HBase client on the class path: " + VersionInfo.getVersion());
    assertThat(VersionInfo.getVersion()).startsWith(System.getProperty("bellows.hbase.expected", "2."));
  }
}
