package io.bellows.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bellows wal-dump PATH}: prints the entries of a WAL file or directory. */
@Command(name = "wal-dump", mixinStandardHelpOptions = true, description = "Prints the entries of a WAL file or directory.")
final class WalDumpSubcommand implements Callable<Integer> {
  @Parameters(paramLabel = "PATH", description = "A WAL file or a directory of them.")
  Path path;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    return ToolOutput.run(spec, ps -> io.bellows.wal.WalDump.print(path, ps));
  }
}
