package io.bellows.cli.shell;

import java.util.Map;
import java.util.TreeMap;

/** {@code stats}: prints the engine's metrics, or with a table name each of its stores' metrics. */
public record StatsCommand(String table) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    TablePrinter p = ctx.printer();
    if (table == null) {
      Map<String, Number> m = new TreeMap<>(ctx.engine().metrics());
      p.header("METRIC", "VALUE");
      m.forEach((k, v) -> p.row(k, String.valueOf(v)));
      p.footer(m.size());
      return;
    }
    ctx.requireTable(table);
    Map<String, Map<String, Number>> stores = new TreeMap<>(ctx.engine().storeMetrics(table));
    p.header("FAMILY", "METRIC=VALUE");
    long lines = 0;
    for (Map.Entry<String, Map<String, Number>> s : stores.entrySet()) {
      for (Map.Entry<String, Number> m : new TreeMap<>(s.getValue()).entrySet()) {
        p.row(s.getKey(), m.getKey() + "=" + m.getValue());
        lines++;
      }
    }
    p.footer(lines);
  }
}
