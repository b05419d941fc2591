package io.bellows.cli;

import io.bellows.cli.shell.ErrorMessages;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;

/** Runs an offline tool that prints to a stream, sending its text (or a clear error) to picocli's out. */
final class ToolOutput {
  private ToolOutput() {}

  /** Returns 0 on success, 1 if the tool failed (the message is printed as {@code ERROR: ...}). */
  static int run(CommandSpec spec, Consumer<PrintStream> tool) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int status = 0;
    try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      try {
        tool.accept(ps);
      } catch (RuntimeException e) {
        status = 1;
        ps.println("ERROR: " + ErrorMessages.describe(e));
      }
    }
    spec.commandLine().getOut().print(buf.toString(StandardCharsets.UTF_8));
    spec.commandLine().getOut().flush();
    return status;
  }
}
