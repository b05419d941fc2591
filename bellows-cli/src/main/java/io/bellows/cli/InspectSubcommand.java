package io.bellows.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bellows inspect FILE}: prints the structure of a sorted file. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
    description = "Prints the structure of a sorted file, checking every block it reads.",
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {ToolOutput.EXIT_0, ToolOutput.EXIT_1, ToolOutput.EXIT_2})
final class InspectSubcommand implements Callable<Integer> {
  @Parameters(paramLabel = "FILE", description = "The sorted file.")
  Path file;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    return ToolOutput.run(spec, ps -> {
      io.bellows.sstable.SortedFileInspector.print(file, ps);
      return true;
    });
  }
}
