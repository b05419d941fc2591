package io.bellows.ycsb.hbase;

import io.bellows.config.Knobs;
import io.bellows.hbase.BellowsConnection;
import io.bellows.ycsb.YcsbRun;
import java.nio.file.Path;
import java.util.List;

/**
 * The two ways {@link AdapterCost} drives the same embedded engine: Bellows' own YCSB binding, and
 * {@link HBaseApiClient} through HBase's {@code ConnectionFactory} with Bellows plugged in. Both
 * get the same family name; each creates the table the same way (one family, Bellows' default
 * settings, {@code ASYNC_WAL}, no pre-split).
 */
enum Binding {
  NATIVE("native", YcsbRun.BINDINGS.get("bellows")) {
    @Override
    List<String> properties(Path dataDir, String family) {
      // ASYNC_WAL as HBaseApiClient's default (YCSB's HBase binding's): Bellows' binding takes the engine's.
      return List.of("bellows.dir=" + dataDir, "bellows.family=" + family, "bellows.durability=ASYNC_WAL");
    }
  },
  HBASE_API("hbase-api", HBaseApiClient.class.getName()) {
    @Override
    List<String> properties(Path dataDir, String family) {
      return List.of("hbase.client.connection.impl=" + BellowsConnection.class.getName(),
          BellowsConnection.DATA_DIR + "=" + dataDir, "columnfamily=" + family,
          "compression=" + Knobs.COMPRESSION.defaultValue().name()); // HBase's own default is NONE
    }
  };

  final String label;
  final String dbClass;

  Binding(String label, String dbClass) {
    this.label = label;
    this.dbClass = dbClass;
  }

  /** The YCSB properties that point this binding at {@code dataDir} and name its family. */
  abstract List<String> properties(Path dataDir, String family);
}
