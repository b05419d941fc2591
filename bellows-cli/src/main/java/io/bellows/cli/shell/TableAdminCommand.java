package io.bellows.cli.shell;

import io.bellows.engine.Engine;
import io.bellows.schema.TableDescriptor;

/**
 * The commands that take only a table name and act on the table as a whole: enable/disable and
 * their queries, drop, truncate, flush and compactions.
 */
public record TableAdminCommand(Action action, String table) implements Command {
  /** What to do with the table; {@link #command()} is the shell command's name. */
  public enum Action {
    DISABLE("disable"),
    ENABLE("enable"),
    IS_ENABLED("is_enabled"),
    IS_DISABLED("is_disabled"),
    DROP("drop"),
    TRUNCATE("truncate"),
    FLUSH("flush"),
    COMPACT("compact"),
    MAJOR_COMPACT("major_compact");

    private final String command;

    Action(String command) {
      this.command = command;
    }

    public String command() {
      return command;
    }

    /** The action of a shell command name, or null. */
    public static Action forCommand(String name) {
      for (Action a : values()) {
        if (a.command.equals(name)) {
          return a;
        }
      }
      return null;
    }
  }

  @Override
  public void execute(ShellContext ctx) {
    TableDescriptor d = ctx.requireTable(table);
    Engine e = ctx.engine();
    boolean enabled = e.isTableEnabled(table);
    switch (action) {
      case DISABLE:
        if (!enabled) {
          throw new ShellException("Table " + table + " is already disabled!");
        }
        e.disableTable(table);
        break;
      case ENABLE:
        if (enabled) {
          throw new ShellException("Table " + table + " is already enabled!");
        }
        e.enableTable(table);
        break;
      case IS_ENABLED:
        ctx.printer().line(String.valueOf(enabled));
        break;
      case IS_DISABLED:
        ctx.printer().line(String.valueOf(!enabled));
        break;
      case DROP:
        if (enabled) {
          throw new ShellException("Table " + table + " is enabled. Disable it first.");
        }
        e.dropTable(table);
        break;
      case TRUNCATE:
        // As in HBase: disable, drop and re-create with the same descriptor.
        ctx.printer().line("Truncating '" + table + "' table (it may take a while):");
        if (enabled) {
          ctx.printer().line(" - Disabling table...");
          e.disableTable(table);
        }
        ctx.printer().line(" - Truncating table...");
        e.dropTable(table);
        e.createTable(d);
        break;
      case FLUSH:
        e.flush(table);
        break;
      case COMPACT:
        e.compact(table);
        break;
      case MAJOR_COMPACT:
        e.majorCompact(table);
        break;
      default:
        throw new AssertionError(action);
    }
  }
}
