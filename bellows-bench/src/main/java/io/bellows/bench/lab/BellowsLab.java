package io.bellows.bench.lab;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The benchmark lab's command line: {@code bench} and {@code ycsb}. It lives apart from the product's
 * {@code bellows} command because it carries RocksDB (native libraries for every platform), JMH, YCSB
 * and XChart; the {@code bellows} launcher builds it on first use and runs it for those two commands.
 */
@Command(
    name = "bellows",
    mixinStandardHelpOptions = true,
    version = "bellows benchmark lab 0.1.0-SNAPSHOT",
    description = "The Bellows benchmark lab: the papers' benchmarks and YCSB, with RocksDB alongside.",
    subcommands = {BenchSubcommand.class, YcsbSubcommand.class})
public final class BellowsLab implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Runs the lab's command line with everything printed to {@code out}; returns the exit code. */
  public static int execute(PrintStream out, String... args) {
    PrintWriter writer = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    return new CommandLine(new BellowsLab()).setOut(writer).setErr(writer).execute(args);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new BellowsLab()).execute(args));
  }
}
