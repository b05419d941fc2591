package io.bellows.bench.lab;

import io.bellows.ycsb.YcsbRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bellows ycsb load|run --workload a --data DIR [--db bellows|rocksdb] [--threads N] [--jvm FLAGS] [-p
 * name=value]...}: YCSB's own client on Bellows or RocksDB, in a child JVM.
 */
@Command(name = "ycsb", mixinStandardHelpOptions = true,
    description = {"Runs YCSB (site.ycsb:core 0.17.0) on Bellows or RocksDB: 'load' inserts the records, 'run' runs"
        + " the workload's operations. YCSB prints its progress and results ([OVERALL], [READ], ...) as it goes."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:YCSB finished", "1:YCSB failed (see its output)", "2:bad arguments"})
final class YcsbSubcommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "load|run", description = "load: insert recordcount records; run: run"
      + " operationcount operations.")
  String phase;

  @Option(names = "--workload", required = true, paramLabel = "a..f|FILE",
      description = "A core workload (a: 50/50 read/update, b: 95/5, c: read only, d: read latest, e: short"
          + " scans, f: read-modify-write) or a workload file.")
  String workload;

  @Option(names = "--data", required = true, paramLabel = "DIR", description = "The store's data directory.")
  Path data;

  @Option(names = "--db", defaultValue = "bellows", paramLabel = "bellows|rocksdb",
      description = "The store to drive (default: ${DEFAULT-VALUE}).")
  String db;

  @Option(names = "--threads", defaultValue = "1", paramLabel = "N", description = "Client threads (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "-p", paramLabel = "name=value", description = "A YCSB or binding property, e.g. -p recordcount=1000000"
      + " -p requestdistribution=uniform -p rocksdb.tuned=true -p bellows.memstore.policy=BASIC.")
  List<String> properties = new ArrayList<>();

  @Option(names = "--jvm", paramLabel = "FLAGS", description = "Flags of YCSB's JVM, one string (default: -Xmx2g"
      + " -XX:+UseG1GC), e.g. --jvm \"-Xmx2g -XX:+UseG1GC -XX:StartFlightRecording=filename=load.jfr\" to profile it or"
      + " to give it a class-data archive.")
  String jvm;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (threads < 1) {
      throw new ParameterException(spec.commandLine(), "--threads must be at least 1: " + threads);
    }
    List<String> props = new ArrayList<>(properties);
    props.add((db.equalsIgnoreCase("rocksdb") ? "rocksdb.dir=" : "bellows.dir=") + data.toAbsolutePath());
    Path tmp = Files.createTempDirectory("bellows-ycsb-");
    try {
      List<String> args;
      try {
        args = YcsbRun.clientArgs(phase, db, YcsbRun.workloadFile(workload, tmp), threads, props);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      List<String> flags = jvm == null ? YcsbRun.DEFAULT_JVM_FLAGS : List.of(jvm.trim().split("\\s+"));
      return YcsbRun.fork(flags, args, ProcessBuilder.Redirect.INHERIT) == 0 ? 0 : 1;
    } finally {
      try (var files = Files.list(tmp)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(tmp);
    }
  }
}
