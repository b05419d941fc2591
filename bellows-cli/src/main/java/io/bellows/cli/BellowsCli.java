package io.bellows.cli;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code bellows} command line: {@code shell}, {@code server}, {@code inspect}, {@code stress}, {@code
 * wal-dump}, {@code repair}, {@code snapshot} and {@code warmup}. Without a subcommand it prints its usage. {@code bench} and
 * {@code ycsb} belong to the benchmark lab ({@code io.bellows.bench.lab.BellowsLab}); here they say so.
 */
@Command(
    name = "bellows",
    mixinStandardHelpOptions = true,
    version = "bellows 0.1.0-SNAPSHOT",
    description = "Bellows, an embeddable LSM wide-column store: shell and tools.",
    subcommands = {ShellSubcommand.class, ServerSubcommand.class, InspectSubcommand.class,
        WalDumpSubcommand.class, RepairSubcommand.class, StressSubcommand.class, SnapshotSubcommand.class,
        BulkLoadSubcommand.class, WarmupSubcommand.class, LabSubcommand.Bench.class, LabSubcommand.Ycsb.class, ClusterSubcommand.class})
public final class BellowsCli implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Runs the command line on the process's standard streams and returns its exit code. */
  public static int execute(String... args) {
    return new CommandLine(new BellowsCli()).execute(args);
  }

  /**
   * Runs the command line with the shell reading {@code in} (never interactive) and everything
   * printed to {@code out}; returns the exit code. For tests and embedding.
   */
  public static int execute(InputStream in, PrintStream out, String... args) {
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine.IFactory factory = new CommandLine.IFactory() {
      @Override
      @SuppressWarnings("unchecked")
      public <K> K create(Class<K> cls) throws Exception {
        return cls == ShellSubcommand.class ? (K) new ShellSubcommand(in, out, false) : defaults.create(cls);
      }
    };
    PrintWriter writer = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    return new CommandLine(new BellowsCli(), factory).setOut(writer).setErr(writer).execute(args);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }
}
