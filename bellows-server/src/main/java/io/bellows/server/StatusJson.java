package io.bellows.server;

import io.bellows.engine.Engine;
import io.bellows.engine.RegionInfo;
import io.bellows.engine.StoreSegments;
import io.bellows.engine.WalFileInfo;
import io.bellows.memstore.SegmentInfo;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The server's state as JSON for {@code /status.json} (and the page {@code /status} that shows it):
 * the engine's metrics, background error and WAL files, and for each table its regions (key
 * ranges, sizes), each store's metrics — the accordion's in-memory and disk work — and each store's
 * memory segments per region (active, pipeline newest first, snapshot: index form, cells, bytes). Read from the engine's public interface at each request. Stateless.
 */
final class StatusJson {
  private StatusJson() {}

  static String render(Engine engine, Instant now) {
    StringBuilder sb = new StringBuilder(4096);
    sb.append("{\"time\":");
    string(sb, now.toString());
    sb.append(",\"backgroundError\":");
    Optional<BackgroundError> error = engine.backgroundError();
    if (error.isPresent()) {
      string(sb, error.get().describe());
    } else {
      sb.append("null");
    }
    sb.append(",\"engine\":");
    metrics(sb, engine.metrics());
    sb.append(",\"wal\":[");
    List<WalFileInfo> wal = engine.walFiles();
    for (int i = 0; i < wal.size(); i++) {
      sb.append(i == 0 ? "" : ",").append("{\"name\":");
      string(sb, wal.get(i).name());
      sb.append(",\"bytes\":").append(wal.get(i).bytes()).append('}');
    }
    sb.append(']');
    sb.append(",\"tables\":[");
    boolean firstTable = true;
    for (String table : engine.listTables()) {
      List<RegionInfo> regions;
      boolean enabled;
      Map<String, Map<String, Number>> stores;
      List<StoreSegments> segments;
      try {
        enabled = engine.isTableEnabled(table);
        regions = engine.regions(table);
        stores = enabled ? engine.storeMetrics(table) : Map.of();
        segments = enabled ? engine.memStoreSegments(table) : List.of();
      } catch (RuntimeException droppedMeanwhile) {
        continue;
      }
      sb.append(firstTable ? "" : ",").append("{\"name\":");
      firstTable = false;
      string(sb, table);
      sb.append(",\"enabled\":").append(enabled).append(",\"regions\":[");
      for (int i = 0; i < regions.size(); i++) {
        RegionInfo r = regions.get(i);
        sb.append(i == 0 ? "" : ",").append("{\"id\":").append(r.id()).append(",\"start\":");
        string(sb, Bytes.toStringBinary(r.startKey()));
        sb.append(",\"end\":");
        string(sb, Bytes.toStringBinary(r.endKey()));
        sb.append(",\"storeFileBytes\":").append(r.storeFileBytes())
            .append(",\"storeFiles\":").append(r.storeFiles())
            .append(",\"memStoreBytes\":").append(r.memStoreBytes()).append('}');
      }
      sb.append("],\"stores\":{");
      boolean firstStore = true;
      for (Map.Entry<String, Map<String, Number>> e : new TreeMap<>(stores).entrySet()) {
        sb.append(firstStore ? "" : ",");
        firstStore = false;
        string(sb, e.getKey());
        sb.append(':');
        metrics(sb, e.getValue());
      }
      sb.append("},\"segments\":[");
      for (int i = 0; i < segments.size(); i++) {
        StoreSegments st = segments.get(i);
        sb.append(i == 0 ? "" : ",").append("{\"region\":").append(st.regionId()).append(",\"family\":");
        string(sb, st.family());
        sb.append(",\"segments\":[");
        for (int j = 0; j < st.segments().size(); j++) {
          SegmentInfo seg = st.segments().get(j);
          sb.append(j == 0 ? "" : ",").append("{\"place\":\"").append(seg.place().name().toLowerCase(Locale.ROOT))
              .append("\",\"id\":").append(seg.id())
              .append(",\"kind\":\"").append(seg.kind().name().toLowerCase(Locale.ROOT))
              .append("\",\"cells\":").append(seg.cells()).append(",\"bytes\":").append(seg.bytes()).append('}');
        }
        sb.append("]}");
      }
      sb.append("]}");
    }
    return sb.append("]}").toString();
  }

  private static void metrics(StringBuilder sb, Map<String, Number> metrics) {
    sb.append('{');
    boolean first = true;
    for (Map.Entry<String, Number> e : new TreeMap<>(metrics).entrySet()) {
      sb.append(first ? "" : ",");
      first = false;
      string(sb, e.getKey());
      sb.append(':');
      double d = e.getValue().doubleValue();
      if (e.getValue() instanceof Double || e.getValue() instanceof Float) {
        sb.append(Double.isFinite(d) ? Double.toString(d) : "null");
      } else {
        sb.append(e.getValue().longValue());
      }
    }
    sb.append('}');
  }

  static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
