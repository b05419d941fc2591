package io.bellows.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code bench} and {@code ycsb} in the product jar: they belong to the benchmark lab (module
 * bellows-bench, which carries RocksDB, JMH, YCSB and XChart), so here they only say where to find it.
 */
final class LabSubcommand {
  private LabSubcommand() {}

  static final String LAB_JAR = "bellows-bench/target/benchmarks.jar";

  /** A lab command run from the product jar: takes any arguments, and answers with where the lab is (exit 2). */
  abstract static class Refused implements Callable<Integer> {
    @CommandLine.Unmatched
    List<String> args = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() {
      String command = spec.name();
      spec.commandLine().getErr().println("ERROR: 'bellows " + command + "' is part of the benchmark lab, which this"
          + " jar (the product) does not carry: the lab needs RocksDB, JMH, YCSB and XChart. From a source checkout run"
          + " './bellows " + command + " ...': the launcher builds the lab (" + LAB_JAR + ") on first use. Or run"
          + " 'java -cp " + LAB_JAR + " io.bellows.bench.lab.BellowsLab " + command + " ...'.");
      return 2;
    }
  }

  @Command(name = "bench", description = "Benchmarks: in the benchmark lab ('./bellows bench' builds it on first use).",
      exitCodeListHeading = "Exit codes:%n", exitCodeList = {"2:not in the product jar (see the message)"})
  static final class Bench extends Refused {}

  @Command(name = "ycsb", description = "YCSB on Bellows or RocksDB: in the benchmark lab ('./bellows ycsb' builds it"
      + " on first use).",
      exitCodeListHeading = "Exit codes:%n", exitCodeList = {"2:not in the product jar (see the message)"})
  static final class Ycsb extends Refused {}
}
