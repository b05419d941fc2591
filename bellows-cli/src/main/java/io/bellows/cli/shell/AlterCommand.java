package io.bellows.cli.shell;

import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code alter}: changes a table's families and settings online, all of the command's changes in
 * one engine call (so a power loss or a refusal leaves all or none of them). The changes are made
 * against the table's descriptor when the command runs: a family's unnamed settings stay as they
 * are. Prints HBase's progress lines.
 */
public record AlterCommand(String table, List<Change> changes) implements Command {
  public AlterCommand {
    changes = List.copyOf(changes);
  }

  /** One change of an {@code alter}, in the order given. */
  public sealed interface Change {}

  /** {@code 'g'}: adds family g with default settings; refused if it exists. */
  public record AddFamily(String family) implements Change {}

  /** {@code {NAME => 'f', KNOB => value, ...}}: changes those settings of f, or adds f with them. */
  public record SetFamily(String family, Map<String, Object> knobs) implements Change {
    public SetFamily {
      knobs = new LinkedHashMap<>(knobs);
    }
  }

  /** {@code 'delete' => 'f'} or {@code {NAME => 'f', METHOD => 'delete'}}: deletes f and its data. */
  public record DeleteFamily(String family) implements Change {}

  /** {@code KNOB => value, ...} without NAME: table settings. */
  public record SetTable(Map<String, Object> knobs) implements Change {
    public SetTable {
      knobs = new LinkedHashMap<>(knobs);
    }
  }

  @Override
  public void execute(ShellContext ctx) {
    TableDescriptor d = ctx.requireTable(table);
    Map<String, ColumnFamilyDescriptor> families = new LinkedHashMap<>();
    d.families().forEach(f -> families.put(f.name(), f));
    TableDescriptor.Builder next = d.toBuilder();
    for (Change c : changes) {
      if (c instanceof AddFamily add) {
        if (families.containsKey(add.family())) {
          throw new ShellException("Column family '" + add.family() + "' of table " + table + " exists already; change"
              + " its settings with {NAME => '" + add.family() + "', KNOB => value}");
        }
        put(next, families, ColumnFamilyDescriptor.of(add.family()));
      } else if (c instanceof SetFamily set) {
        ColumnFamilyDescriptor old = families.get(set.family());
        ColumnFamilyDescriptor.Builder f = old == null ? ColumnFamilyDescriptor.builder(set.family()) : old.toBuilder();
        CommandTranslator.applyKnobs(f, set.knobs(), "family '" + set.family() + "'");
        put(next, families, f.build());
      } else if (c instanceof DeleteFamily delete) {
        if (!families.containsKey(delete.family())) {
          throw new ShellException("Unknown column family '" + delete.family() + "' of table " + table
              + "; its families are: " + String.join(", ", families.keySet()));
        }
        if (families.size() == 1) {
          throw new ShellException("Cannot delete column family '" + delete.family() + "' of table " + table
              + ": it is the table's only family (drop the table instead)");
        }
        families.remove(delete.family());
        next.removeFamily(delete.family());
      } else if (c instanceof SetTable set) {
        CommandTranslator.applyKnobs(next, set.knobs(), "table");
      }
    }
    TablePrinter p = ctx.printer();
    p.line("Updating all regions with the new schema...");
    ctx.engine().modifyTable(next.build());
    int regions = ctx.engine().regions(table).size();
    p.line(regions + "/" + regions + " regions updated.");
    p.line("Done.");
  }

  private static void put(TableDescriptor.Builder next, Map<String, ColumnFamilyDescriptor> families,
      ColumnFamilyDescriptor f) {
    families.put(f.name(), f);
    next.modifyFamily(f);
  }
}
