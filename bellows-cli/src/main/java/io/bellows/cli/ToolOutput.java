package io.bellows.cli;

import io.bellows.cli.shell.ErrorMessages;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs an offline tool that prints to a stream, sending its text (or a clear error) to picocli's
 * out. The tools share one exit code convention, listed in their help: {@link #OK}, {@link
 * #DAMAGE_OR_ERROR}, and picocli's own 2 for usage errors.
 */
final class ToolOutput {
  private ToolOutput() {}

  /** The tool ran and found nothing wrong. */
  static final int OK = 0;
  /** The file is damaged or not of the expected kind, or could not be read. */
  static final int DAMAGE_OR_ERROR = 1;

  /** The exit code lines for {@code @Command(exitCodeList = ...)}. */
  static final String EXIT_0 = "0:the file is well-formed (or the requested change was made)";
  static final String EXIT_1 = "1:damage or corruption found, not a file of the expected kind, or it cannot be read";
  static final String EXIT_2 = "2:invalid command line (usage error)";

  /** A tool: prints to the stream and returns whether everything it looked at was sound. */
  interface Tool {
    boolean run(PrintStream out);
  }

  /** Returns {@link #OK} if the tool found everything sound, else {@link #DAMAGE_OR_ERROR}. */
  static int run(CommandSpec spec, Tool tool) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int status;
    try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      try {
        status = tool.run(ps) ? OK : DAMAGE_OR_ERROR;
      } catch (RuntimeException e) {
        status = DAMAGE_OR_ERROR;
        ps.println("ERROR: " + ErrorMessages.describe(e));
      }
    }
    spec.commandLine().getOut().print(buf.toString(StandardCharsets.UTF_8));
    spec.commandLine().getOut().flush();
    return status;
  }
}
