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
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
    int status = 0;
    try (java.io.PrintStream ps = new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8)) {
      io.bellows.wal.WalDump.print(path, ps);
    } catch (RuntimeException e) {
      status = 1;
      buf.writeBytes(("ERROR: " + e.getMessage() + System.lineSeparator()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    spec.commandLine().getOut().print(buf.toString(java.nio.charset.StandardCharsets.UTF_8));
    spec.commandLine().getOut().flush();
    return status;
  }
}
