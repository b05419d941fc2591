package io.bellows.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code bellows} command line: {@code shell}, {@code inspect} and {@code wal-dump}. Without a
 * subcommand it prints its usage.
 */
@Command(
    name = "bellows",
    mixinStandardHelpOptions = true,
    version = "bellows 0.1.0-SNAPSHOT",
    description = "Bellows, an embeddable LSM wide-column store: shell and tools.",
    subcommands = {ShellSubcommand.class, InspectSubcommand.class, WalDumpSubcommand.class})
public final class BellowsCli implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** Runs the command line and returns its exit code (for tests and {@link #main}). */
  public static int execute(String... args) {
    return new CommandLine(new BellowsCli()).execute(args);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }
}
