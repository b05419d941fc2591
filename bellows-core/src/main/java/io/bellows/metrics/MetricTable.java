package io.bellows.metrics;

import java.util.Locale;

/**
 * Renders {@link MetricCatalog} as the Markdown table of docs/METRICS.md ({@code
 * MetricCatalogTest} fails if the file drifts).
 */
public final class MetricTable {
  private MetricTable() {}

  public static String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("| Name | Prometheus name (after `bellows_engine_` or `bellows_store_`) | Kind | Unit | Meaning |\n");
    sb.append("|---|---|---|---|---|\n");
    for (MetricCatalog.Entry e : MetricCatalog.entries()) {
      String export = e.kind() == MetricCatalog.Kind.INFO ? "(not exported)"
          : "`" + MetricCatalog.exportName(e.name(), e) + "`";
      sb.append("| `").append(e.name()).append("` | ").append(export).append(" | ")
          .append(e.kind().name().toLowerCase(Locale.ROOT)).append(" | ")
          .append(e.unit() == MetricCatalog.Unit.NONE ? "" : e.unit().name().toLowerCase(Locale.ROOT))
          .append(" | ").append(e.meaning()).append(" |\n");
    }
    return sb.toString();
  }

  public static void main(String[] args) {
    System.out.print(markdown());
  }
}
