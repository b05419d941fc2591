package io.bellows.cli.shell;

import io.bellows.config.Knob;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.engine.RegionInfo;
import io.bellows.util.Bytes;
import java.util.List;
import java.util.Map;

/**
 * {@code describe}: prints the table's state, its table settings, each family's settings and its
 * regions (id and key range; sizes are {@code list_regions}'s).
 */
public record DescribeCommand(String table) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    TableDescriptor d = ctx.requireTable(table);
    boolean enabled = ctx.engine().isTableEnabled(table);
    TablePrinter p = ctx.printer();
    p.line("Table " + table + " is " + (enabled ? "ENABLED" : "DISABLED"));
    p.line(tableLine(d));
    p.line("COLUMN FAMILIES DESCRIPTION");
    for (ColumnFamilyDescriptor f : d.families()) {
      p.line(f.toString());
    }
    p.footer(d.families().size());
    p.line("REGIONS");
    List<RegionInfo> regions = ctx.engine().regions(table);
    for (RegionInfo r : regions) {
      p.line("{ID => '" + r.id() + "', STARTKEY => '" + Bytes.toStringBinary(r.startKey()) + "', ENDKEY => '"
          + Bytes.toStringBinary(r.endKey()) + "'}");
    }
    p.line(regions.size() + " region(s)");
  }

  /** The name, plus {@code {TABLE_ATTRIBUTES => {K => 'v', ...}}} when table settings were given. */
  static String tableLine(TableDescriptor d) {
    Map<Knob<?>, Object> set = d.explicitValues();
    if (set.isEmpty()) {
      return d.name();
    }
    StringBuilder sb = new StringBuilder(d.name()).append(", {TABLE_ATTRIBUTES => {");
    boolean first = true;
    for (Map.Entry<Knob<?>, Object> e : set.entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(e.getKey().name()).append(" => '").append(e.getValue()).append('\'');
    }
    return sb.append("}}").toString();
  }
}
