package io.bellows.cli.shell;

import io.bellows.client.Bellows;
import io.bellows.client.Table;
import io.bellows.engine.Engine;
import io.bellows.schema.TableDescriptor;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a running command sees: the engine (embedded or remote: the same API, so an admin operation
 * is written once, in the engine), who uses it, the output, and checks that turn a missing table or
 * family into the shell's error text before anything is applied. Single-threaded, like the shell.
 */
public final class ShellContext {
  private final Engine engine;
  /** The public API over the same engine, for the data commands' Put, Get, Scan and Delete. */
  private final Bellows api;
  private final Session session;
  private final TablePrinter printer;
  private boolean exitRequested;

  public ShellContext(Engine engine, Session session, PrintStream out) {
    this.engine = engine;
    this.api = Bellows.over(engine); // never closed here: the engine belongs to whoever gave it
    this.session = session;
    this.printer = new TablePrinter(out);
  }

  public Engine engine() {
    return engine;
  }

  /** Who runs the shell and on which engine (for {@code whoami}). */
  public Session session() {
    return session;
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
    return api.getTable(name);
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
