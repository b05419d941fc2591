package io.bellows.cluster.server;

import io.bellows.config.Knob;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.util.Map;

/**
 * A table descriptor as lines of text (the catalog's entries and a replica's own record of its
 * region): {@code table NAME}, {@code table-option KNOB VALUE}, {@code family NAME}, {@code
 * family-option FAMILY KNOB VALUE}; fields are tab-separated, a value is the rest of its line.
 */
final class TableText {
  private TableText() {}

  static String encode(TableDescriptor d) {
    StringBuilder sb = new StringBuilder();
    sb.append("table\t").append(d.name()).append('\n');
    for (Map.Entry<Knob<?>, Object> o : d.explicitValues().entrySet()) {
      sb.append("table-option\t").append(o.getKey().name()).append('\t').append(o.getValue()).append('\n');
    }
    for (ColumnFamilyDescriptor f : d.families()) {
      sb.append("family\t").append(f.name()).append('\n');
      for (Map.Entry<Knob<?>, Object> o : f.explicitValues().entrySet()) {
        sb.append("family-option\t").append(f.name()).append('\t').append(o.getKey().name()).append('\t')
            .append(o.getValue()).append('\n');
      }
    }
    return sb.toString();
  }

  static TableDescriptor decode(String text) {
    TableDescriptor.Builder table = null;
    ColumnFamilyDescriptor.Builder family = null;
    for (String line : text.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t", 4);
      switch (f[0]) {
        case "table" -> table = TableDescriptor.builder(f[1]);
        case "table-option" -> table.set(f[1], f[2]);
        case "family" -> {
          if (family != null) {
            table.family(family.build());
          }
          family = ColumnFamilyDescriptor.builder(f[1]);
        }
        case "family-option" -> family.set(f[2], f[3]);
        default -> throw new IllegalArgumentException("unknown table line: " + line);
      }
    }
    if (table == null) {
      throw new IllegalArgumentException("no table line in a table's text");
    }
    if (family != null) {
      table.family(family.build());
    }
    return table.build();
  }
}
