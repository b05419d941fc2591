package io.bellows.cli;

import io.bellows.engine.OfflineLock;
import io.bellows.wal.WalDump;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bellows wal-dump [--truncate] PATH}: prints the entries of a WAL file or directory. */
@Command(name = "wal-dump", mixinStandardHelpOptions = true,
    description = {"Prints the entries of a WAL file or directory, and every damaged region with its offset"
        + " (the dump goes on with the next valid record after it). Never modifies a file unless --truncate"
        + " is given."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {ToolOutput.EXIT_0, ToolOutput.EXIT_1, ToolOutput.EXIT_2})
final class WalDumpSubcommand implements Callable<Integer> {
  @Parameters(paramLabel = "PATH", description = "A WAL file or a directory of them.")
  Path path;

  @Option(names = "--truncate",
      description = "Cut the WAL file PATH at its first damaged byte instead of printing it: that record and"
          + " every record after it in this file are lost. For a log the engine refuses to open, once you accept"
          + " that loss; only while no engine has the data directory open.")
  boolean truncate;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    if (!truncate) {
      return ToolOutput.run(spec, ps -> WalDump.print(path, ps));
    }
    if (Files.isDirectory(path)) {
      throw new ParameterException(spec.commandLine(), "--truncate takes one WAL file, not a directory: " + path);
    }
    return ToolOutput.run(spec, ps -> {
      long at;
      try (OfflineLock lock = OfflineLock.forWalFile(path)) {
        at = WalDump.truncateAtDamage(path);
      } catch (java.io.IOException e) {
        throw new io.bellows.util.StorageException("cannot lock the data directory of " + path + ": "
            + io.bellows.util.StorageException.reason(e), e);
      }
      ps.println(at < 0 ? path + ": no damage found; not modified"
          : path + ": cut at byte offset " + at + "; the records from there on in this file are gone");
      return true;
    });
  }
}
