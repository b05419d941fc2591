package io.bellows.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bellows inspect FILE}: prints the structure of a sorted file. */
@Command(name = "inspect", mixinStandardHelpOptions = true, description = "Prints the structure of a sorted file.")
final class InspectSubcommand implements Callable<Integer> {
  @Parameters(paramLabel = "FILE", description = "The sorted file.")
  Path file;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
    int status = 0;
    try (java.io.PrintStream ps = new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8)) {
      io.bellows.sstable.SortedFileInspector.print(file, ps);
    } catch (RuntimeException e) {
      status = 1;
      buf.writeBytes(("ERROR: " + e.getMessage() + System.lineSeparator()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    spec.commandLine().getOut().print(buf.toString(java.nio.charset.StandardCharsets.UTF_8));
    spec.commandLine().getOut().flush();
    return status;
  }
}
