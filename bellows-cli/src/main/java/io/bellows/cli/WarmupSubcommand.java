package io.bellows.cli;

import io.bellows.cli.warmup.MixedRun;
import io.bellows.cli.warmup.WarmupSummary;
import io.bellows.client.Bellows;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bellows warmup --data DIR}: how fast a fresh JVM reaches its steady speed. The first run on
 * an empty directory loads it; each later run, in a fresh JVM, runs YCSB A's mix on it and prints
 * the operations of every second, then the first seconds' rate against the steady rate. With {@code
 * --train} it is instead the training run the launcher's {@code warmup-cache} records a class-data
 * (CDS) archive or AOT cache from: the same work on a store in a temporary directory, then a shell
 * session on it, printing nothing on standard output.
 */
@Command(name = "warmup", mixinStandardHelpOptions = true,
    description = {"Measures a fresh JVM's warm-up: YCSB A's mix (50%% gets of whole rows, 50%% puts of one of"
        + " 10 columns of 100 bytes, scrambled Zipf rows) from --threads threads on an embedded store for --seconds"
        + " seconds, printing each second's operations, then the mean rate of the first --first seconds against"
        + " that of seconds --steady-from to the end; then the same per CPU-second of the process, with the windows"
        + " set by the CPU time it had used (--first x cores, from (--steady-from - 1) x cores), which a machine"
        + " shared with other work disturbs far less. Run it once on an empty directory to load it (it then"
        + " exits: the load would warm the JVM), then once per measurement, each a fresh JVM.",
        "With --train: the training run of './bellows warmup-cache' (a smaller load and run in a temporary"
            + " directory, deleted after, with a shell session and a server on a free loopback port; nothing printed"
            + " on standard output)."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:loaded, measured or trained", "1:an operation failed", "2:invalid command line"})
final class WarmupSubcommand implements Callable<Integer> {
  @Option(names = "--data", paramLabel = "DIR", description = "The store: empty or missing to load it, else"
      + " one an earlier load made.")
  Path data;

  @Option(names = "--records", paramLabel = "N",
      description = "Rows loaded into an empty store (default: 300000, ~1 KB each; with --train 20000); a run"
          + " uses the rows its store was loaded with.")
  Long records;

  @Option(names = "--seconds", paramLabel = "S", description = "Length of the run (default: 40; with --train 15).")
  Integer seconds;

  @Option(names = "--first", defaultValue = "10", paramLabel = "S",
      description = "The warm-up seconds whose mean rate is reported (default: ${DEFAULT-VALUE}).")
  int first;

  @Option(names = "--steady-from", defaultValue = "21", paramLabel = "S",
      description = "The first second counted as steady (default: ${DEFAULT-VALUE}).")
  int steadyFrom;

  @Option(names = "--threads", defaultValue = "4", paramLabel = "N", description = "Client threads (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--seed", paramLabel = "N", description = "Seed of rows, values and the mix (default: random, printed).")
  Long seed;

  @Option(names = "--train", description = "Run the training work of './bellows warmup-cache' in a temporary directory.")
  boolean train;

  @Option(names = "--train-dir", paramLabel = "DIR",
      description = "With --train: where its temporary directory goes (default: the JVM's java.io.tmpdir).")
  Path trainDir;

  @Spec
  CommandSpec spec;

  /** Rows and seconds of the training run: every hot path runs long enough to be compiled. */
  static final long TRAIN_RECORDS = 20_000;
  static final int TRAIN_SECONDS = 15;

  @Override
  public Integer call() throws Exception {
    if (records == null) {
      records = train ? TRAIN_RECORDS : 300_000L;
    }
    if (seconds == null) {
      seconds = train ? TRAIN_SECONDS : 40;
    }
    if (threads < 1 || seconds < 1 || records < 1) {
      throw new ParameterException(spec.commandLine(), "--threads, --seconds and --records must be at least 1");
    }
    if (!train && (first < 1 || first > seconds || steadyFrom < 1 || steadyFrom > seconds)) {
      throw new ParameterException(spec.commandLine(), "--first and --steady-from must be seconds of the run (1 to "
          + seconds + ")");
    }
    long s = seed != null ? seed : new java.security.SecureRandom().nextLong();
    if (train) {
      return train(s);
    }
    if (data == null) {
      throw new ParameterException(spec.commandLine(), "give the store with --data DIR (or --train)");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (Bellows db = Bellows.open(data, EngineOptions.defaults())) {
      long loaded = MixedRun.loadedRecords(db);
      if (loaded == 0) {
        long begin = System.nanoTime();
        MixedRun.load(db, records, s);
        db.flush(MixedRun.TABLE);
        out.printf(Locale.ROOT, "loaded %,d records into %s in %.1f s; measure with the same command, once per"
            + " fresh JVM%n", records, data, (System.nanoTime() - begin) / 1e9);
        return 0;
      }
      out.printf(Locale.ROOT, "warmup: %,d records, %d threads, 50%% gets / 50%% puts, %d s, seed %d; JVM %s (%s),"
          + " up %d ms; %s%n", loaded, threads, seconds, s, System.getProperty("java.vm.version"),
          System.getProperty("java.vm.info"), ManagementFactory.getRuntimeMXBean().getUptime(), sharingFlags());
      out.flush();
      MixedRun.Samples run = MixedRun.run(db, loaded, threads, 0.5, seconds, s, LinePrintStream.over(out));
      out.println(WarmupSummary.of(run.perSecond(), first, steadyFrom).describe());
      int cores = Runtime.getRuntime().availableProcessors();
      out.println(WarmupSummary.byCpu(run.perSecond(), run.cpuNanos(), first * cores, (steadyFrom - 1) * cores)
          .describe());
      return 0;
    } catch (IllegalStateException e) {
      spec.commandLine().getErr().println("ERROR: " + e.getMessage());
      return 1;
    }
  }

  /** The class-sharing options this JVM was started with, as the launcher gives them. */
  private static String sharingFlags() {
    String flags = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-XX:SharedArchiveFile") || a.startsWith("-XX:AOTCache") || a.startsWith("-Xshare"))
        .collect(Collectors.joining(" "));
    return flags.isEmpty() ? "no class-data archive given" : flags;
  }

  /**
   * The training run: load, the mixed run, a flush and a scan on a store in a temporary directory,
   * then the shell's commands on it, so that the classes (and, on JDK 25, the profiles) of the engine's
   * read and write paths and of the shell are recorded. Progress goes to standard error only.
   */
  private int train(long s) throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Path dir = trainDir == null ? Files.createTempDirectory("bellows-warmup-")
        : Files.createTempDirectory(Files.createDirectories(trainDir), "bellows-warmup-");
    try {
      err.printf(Locale.ROOT, "bellows: training in %s (%d s) ...%n", dir, seconds);
      err.flush();
      Path store = dir.resolve("db");
      try (Bellows db = Bellows.open(store, EngineOptions.defaults())) {
        MixedRun.load(db, records, s);
        db.flush(MixedRun.TABLE);
        MixedRun.run(db, records, threads, 0.5, seconds, s, null);
        db.flush(MixedRun.TABLE);
        db.compact(MixedRun.TABLE);
        try (ResultScanner scanner = db.getTable(MixedRun.TABLE).getScanner(new Scan().setLimit(100))) {
          for (Result r : scanner) {
            r.cells();
          }
        }
      }
      String session = String.join("\n", "list", "describe '" + MixedRun.TABLE + "'",
          "create 'w', 'f'", "put 'w', 'r1', 'f:a', 'v1'", "get 'w', 'r1'", "scan 'w'",
          "count '" + MixedRun.TABLE + "'", "flush 'w'", "disable 'w'", "drop 'w'", "exit", "");
      PrintStream discard = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
      int shell = BellowsCli.execute(new ByteArrayInputStream(session.getBytes(StandardCharsets.UTF_8)), discard,
          "shell", "--data", store.toString(), "--no-timing");
      if (shell != 0) {
        err.println("ERROR: the training's shell session failed (exit " + shell + ")");
        return 1;
      }
      int served = serve(store, s, discard);
      if (served != 0) {
        err.println("ERROR: the training's shell session over the server failed (exit " + served + ")");
        return 1;
      }
      err.println("bellows: training done");
      return 0;
    } catch (IllegalStateException e) {
      err.println("ERROR: " + e.getMessage());
      return 1;
    } finally {
      deleteTree(dir);
    }
  }

  /**
   * The server's part of the training: a server on a free loopback port over the store, gets and puts
   * of the mix through the client, and the shell's session over it; returns the shell's exit code.
   */
  private static int serve(Path store, long seed, PrintStream discard) {
    try (LocalEngine engine = LocalEngine.open(store, EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1),
            ServerEvents.NONE)) {
      String target = "127.0.0.1:" + server.port();
      try (Bellows remote = RemoteEngine.connect(target, RemoteOptions.defaults())) {
        MixedRun.runOps(remote, TRAIN_SERVED_OPS, seed);
      }
      String session = String.join("\n", "list", "get '" + MixedRun.TABLE + "', 'user6284781860667377211'",
          "scan '" + MixedRun.TABLE + "', {LIMIT => 3}", "exit", "");
      return BellowsCli.execute(new ByteArrayInputStream(session.getBytes(StandardCharsets.UTF_8)), discard,
          "shell", "--connect", target, "--no-timing");
    }
  }

  /** Operations of the mix the training sends through the server. */
  static final int TRAIN_SERVED_OPS = 2_000;

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
