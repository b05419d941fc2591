package io.bellows.cli;

import io.bellows.cli.shell.ErrorMessages;
import io.bellows.engine.SnapshotTransfer;
import io.bellows.fs.LocalFileSystem;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bellows snapshot export|import}: copies a snapshot out of a data directory, for a backup,
 * or into one, for a restore elsewhere, while an engine may be running on it (SnapshotTransfer).
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
    description = {"Copies snapshots between data directories and backups (take one with the shell's"
        + " `snapshot 't', 'name'` or Bellows.snapshot). Works while a server or shell has the directory open."},
    subcommands = {SnapshotSubcommand.Export.class, SnapshotSubcommand.Import.class})
final class SnapshotSubcommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "export", mixinStandardHelpOptions = true,
      description = {"Copies snapshot NAME of data directory DIR to TO/NAME, reading every block of every sorted"
          + " file back after copying it. An interrupted export resumes when run again (files already copied"
          + " whole are kept); the copy is complete once TO/NAME/SNAPSHOT exists."},
      exitCodeListHeading = "Exit codes:%n",
      exitCodeList = {"0:the snapshot was copied whole", "1:a file is damaged or cannot be copied; nothing is"
          + " complete", "2:invalid command line, or no such snapshot"})
  static final class Export implements Callable<Integer> {
    @Option(names = "--data", required = true, paramLabel = "DIR", description = "The data directory.")
    Path data;

    @Option(names = "--snapshot", required = true, paramLabel = "NAME", description = "The snapshot.")
    String name;

    @Option(names = "--to", required = true, paramLabel = "TO", description = "Where to put the copy (TO/NAME).")
    Path to;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      return transfer(spec, out -> SnapshotTransfer.export(LocalFileSystem.INSTANCE, data, name, to, out));
    }
  }

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = {"Copies the exported snapshot FROM (a directory TO/NAME written by `snapshot export`) into the"
          + " snapshots of data directory DIR, under its name, reading every block of every sorted file back;"
          + " `clone_snapshot 'NAME', 'table'` then makes a table of it. A damaged file refuses the import, named,"
          + " and nothing of it is left."},
      exitCodeListHeading = "Exit codes:%n",
      exitCodeList = {"0:the snapshot was imported", "1:a file is damaged or cannot be copied; nothing was imported",
          "2:invalid command line, an incomplete export, or a snapshot of that name exists"})
  static final class Import implements Callable<Integer> {
    @Option(names = "--from", required = true, paramLabel = "FROM", description = "The exported snapshot directory.")
    Path from;

    @Option(names = "--data", required = true, paramLabel = "DIR", description = "The data directory.")
    Path data;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      return transfer(spec, out -> SnapshotTransfer.importSnapshot(LocalFileSystem.INSTANCE, from, data, out));
    }
  }

  private interface Transfer {
    SnapshotTransfer.Result run(PrintStream out);
  }

  private static int transfer(CommandSpec spec, Transfer t) {
    PrintStream out = LinePrintStream.over(spec.commandLine().getOut());
    try {
      t.run(out);
      return ToolOutput.OK;
    } catch (IllegalArgumentException e) {
      out.println("ERROR: " + ErrorMessages.describe(e));
      return 2;
    } catch (RuntimeException e) {
      out.println("ERROR: " + ErrorMessages.describe(e));
      return ToolOutput.DAMAGE_OR_ERROR;
    }
  }
}
