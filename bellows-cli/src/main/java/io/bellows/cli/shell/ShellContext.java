package io.bellows.cli.shell;

import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a running command sees: the engine, the output, and checks that turn a missing table or
 * family into the shell's error text before anything is applied. Single-threaded, like the shell.
 */
public final class ShellContext {
  private final Engine engine;
  private final TablePrinter printer;
  private boolean exitRequested;

  public ShellContext(Engine engine, PrintStream out) {
    this.engine = engine;
    this.printer = new TablePrinter(out);
  }

  public Engine engine() {
    return engine;
  }

  public TablePrinter printer() {
    return printer;
  }

  /** Asks the shell to stop after this command. */
  public void requestExit() {
    exitRequested = true;
  }

  public boolean exitRequested() {
    return exitRequested;
  }

  /** The table's descriptor; refuses an unknown table in the HBase shell's words. */
  public TableDescriptor requireTable(String name) {
    if (!engine.tableExists(name)) {
      throw new ShellException("Unknown table " + name + "!");
    }
    return engine.describeTable(name);
  }

  /** A handle to an existing, enabled table whose families include all of {@code families}. */
  public Table requireEnabledTable(String name, Collection<String> families) {
    TableDescriptor d = requireTable(name);
    if (!engine.isTableEnabled(name)) {
      throw new ShellException("Table " + name + " is disabled!");
    }
    for (String f : families) {
      if (d.family(f) == null) {
        List<String> known = new ArrayList<>();
        d.families().forEach(cf -> known.add(cf.name()));
        throw new ShellException("Unknown column family '" + f + "' of table " + name
            + "; its families are: " + String.join(", ", known));
      }
    }
    return engine.getTable(name);
  }

  /** The snapshot of this name; refuses an unknown one in the words of {@link #requireTable}. */
  public io.bellows.engine.SnapshotInfo requireSnapshot(String name) {
    for (io.bellows.engine.SnapshotInfo s : engine.listSnapshots()) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    throw new ShellException("Unknown snapshot " + name + "!");
  }
}
