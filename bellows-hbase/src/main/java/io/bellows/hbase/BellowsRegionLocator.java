package io.bellows.hbase;

import io.bellows.engine.Engine;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;

/**
 * HBase's {@code RegionLocator} over a Bellows table's regions, read afresh on every call (there is
 * no cache to clear). Every region is at one "server": the Bellows server of {@code bellows.server},
 * or {@code localhost} port 0 for an embedded engine. There are no replicas: replica 0 only. HBase's
 * shell uses it for {@code get_splits} and {@code locate_region}.
 */
public final class BellowsRegionLocator {
  private final Engine engine;
  private final TableName table;
  private final ServerName server;

  private BellowsRegionLocator(Engine engine, TableName table, ServerName server) {
    this.engine = engine;
    this.table = table;
    this.server = server;
  }

  /** A locator of {@code table}'s regions; a missing table fails at the first lookup, as in HBase. */
  static RegionLocator open(Engine engine, TableName table, Configuration conf) {
    return Unsupported.proxy(RegionLocator.class, new BellowsRegionLocator(engine, table, server(conf)));
  }

  private static ServerName server(Configuration conf) {
    String hostPort = conf.get(BellowsConnection.SERVER);
    if (hostPort == null) {
      return ServerName.valueOf("localhost", 0, 0);
    }
    String target = hostPort.split(",")[0].trim(); // a cluster's servers: named by the first
    int scheme = target.indexOf(":///"); // a gRPC target such as dns:///host:port
    if (scheme >= 0) {
      target = target.substring(scheme + 4);
    }
    int colon = target.lastIndexOf(':');
    if (colon > 0) {
      try {
        return ServerName.valueOf(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)), 0);
      } catch (NumberFormatException e) {
        // not host:port; named as given, without a port
      }
    }
    return ServerName.valueOf(target, 0, 0);
  }

  public TableName getName() {
    return table;
  }

  public List<HRegionLocation> getAllRegionLocations() {
    List<HRegionLocation> out = new ArrayList<>();
    for (RegionInfo r : Convert.regions(table, engine.regions(Convert.name(table)))) {
      out.add(new HRegionLocation(r, server));
    }
    return out;
  }

  public HRegionLocation getRegionLocation(byte[] row) {
    return getRegionLocation(row, 0, false);
  }

  public HRegionLocation getRegionLocation(byte[] row, boolean reload) {
    return getRegionLocation(row, 0, reload);
  }

  public HRegionLocation getRegionLocation(byte[] row, int replicaId) {
    return getRegionLocation(row, replicaId, false);
  }

  /** The region whose range holds {@code row}. */
  public HRegionLocation getRegionLocation(byte[] row, int replicaId, boolean reload) {
    if (replicaId != 0) {
      throw new UnsupportedOperationException("region replicas are not supported by Bellows: replica " + replicaId);
    }
    for (HRegionLocation l : getAllRegionLocations()) {
      byte[] end = l.getRegion().getEndKey();
      if (Bytes.compareTo(l.getRegion().getStartKey(), row) <= 0 && (end.length == 0 || Bytes.compareTo(row, end) < 0)) {
        return l;
      }
    }
    throw new IllegalStateException("no region of " + table + " holds row " + Bytes.toStringBinary(row));
  }

  public List<HRegionLocation> getRegionLocations(byte[] row) {
    return List.of(getRegionLocation(row));
  }

  public List<HRegionLocation> getRegionLocations(byte[] row, boolean reload) {
    return List.of(getRegionLocation(row));
  }

  public byte[][] getStartKeys() {
    return getStartEndKeys().getFirst();
  }

  public byte[][] getEndKeys() {
    return getStartEndKeys().getSecond();
  }

  public Pair<byte[][], byte[][]> getStartEndKeys() {
    List<HRegionLocation> all = getAllRegionLocations();
    byte[][] starts = new byte[all.size()][];
    byte[][] ends = new byte[all.size()][];
    for (int i = 0; i < all.size(); i++) {
      starts[i] = all.get(i).getRegion().getStartKey();
      ends[i] = all.get(i).getRegion().getEndKey();
    }
    return new Pair<>(starts, ends);
  }

  public void clearRegionLocationCache() {}

  public void close() {}

  @Override
  public String toString() {
    return "BellowsRegionLocator(" + table + ")";
  }
}
