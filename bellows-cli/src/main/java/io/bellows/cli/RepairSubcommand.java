package io.bellows.cli;

import io.bellows.cli.shell.ErrorMessages;
import io.bellows.engine.Repair;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bellows repair [--fix] DIR}: checks every file of a closed data directory, and repairs it. */
@Command(name = "repair", mixinStandardHelpOptions = true,
    description = {"Checks every file of a data directory no engine has open — CATALOG, OPTIONS, each store's"
        + " MANIFEST and every block of the sorted files it lists, every WAL file — and prints each damage with"
        + " the file and what is wrong. Changes nothing unless --fix is given."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:no damage found (or, with --fix, every damage repaired)",
        "1:damage found and not repaired, or the directory cannot be read",
        "2:invalid command line"})
final class RepairSubcommand implements Callable<Integer> {
  @Parameters(paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Option(names = "--fix", description = {"Repair what can be, losing only what is printed: a damaged sorted"
      + " file is moved to DIR/damaged/ and dropped from its store's manifest (its cells are lost); a damaged or"
      + " missing manifest is rebuilt from the store's sorted files that check out; a damaged OPTIONS file is"
      + " moved to DIR/damaged/; a WAL file is cut at its first damaged byte (that record and the rest of the"
      + " file are lost). A damaged CATALOG is only reported: restore it from a backup. Nothing is deleted."})
  boolean fix;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    PrintStream out = LinePrintStream.over(spec.commandLine().getOut());
    Repair.Report r;
    try {
      r = Repair.run(dir, fix, out);
    } catch (RuntimeException e) {
      out.println("ERROR: " + ErrorMessages.describe(e));
      return ToolOutput.DAMAGE_OR_ERROR;
    }
    long repaired = r.findings().stream().filter(Repair.Finding::repaired).count();
    out.printf("checked %d stores, %d sorted files (%,d cells), %d WAL files: %s%n", r.stores(), r.sortedFiles(),
        r.cells(), r.walFiles(), r.clean() ? "no damage"
            : r.findings().size() + " damaged" + (fix ? ", " + repaired + " repaired" : "; run again with --fix to repair"));
    return (fix ? r.allRepaired() : r.clean()) ? ToolOutput.OK : ToolOutput.DAMAGE_OR_ERROR;
  }
}
