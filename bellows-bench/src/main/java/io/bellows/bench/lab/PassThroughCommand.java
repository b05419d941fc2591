package io.bellows.bench.lab;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A lab command whose benchmark parses and checks its own options: picocli hands every argument
 * through to {@link #run}, and prints the command's help text (written in its annotation).
 */
abstract class PassThroughCommand implements Callable<Integer> {
  @CommandLine.Unmatched
  List<String> args = new ArrayList<>();

  @Spec
  CommandSpec spec;

  /** Runs the benchmark on {@code args}; returns the exit code. */
  abstract int run(String[] args, PrintWriter out);

  @Override
  public final Integer call() {
    return run(args.toArray(new String[0]), spec.commandLine().getOut());
  }
}
