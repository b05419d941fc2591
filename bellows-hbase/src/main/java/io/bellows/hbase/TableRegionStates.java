package io.bellows.hbase;

import io.bellows.engine.Engine;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionStatesCount;

/**
 * The one part of HBase's {@link ClusterMetrics} Bellows has: each table's region count, every
 * region open and none in transition (a Bellows alter or split is done when its call returns).
 * HBase's shell reads it after {@code alter} to wait for the regions to reopen; every other
 * ClusterMetrics method throws ({@link Unsupported}).
 */
public final class TableRegionStates {
  private final Engine engine;

  TableRegionStates(Engine engine) {
    this.engine = engine;
  }

  static ClusterMetrics metrics(Engine engine) {
    return Unsupported.proxy(ClusterMetrics.class, new TableRegionStates(engine));
  }

  public Map<TableName, RegionStatesCount> getTableRegionStatesCount() {
    Map<TableName, RegionStatesCount> out = new LinkedHashMap<>();
    for (String t : engine.listTables()) {
      int regions = engine.isTableEnabled(t) ? engine.regions(t).size() : 0;
      out.put(TableName.valueOf(t), new RegionStatesCount.RegionStatesCountBuilder()
          .setTotalRegions(regions).setOpenRegions(regions).build());
    }
    return out;
  }

  @Override
  public String toString() {
    return "Bellows table region states";
  }
}
