package io.bellows.cli;

import io.bellows.cli.shell.Session;
import io.bellows.cli.shell.ErrorMessages;
import io.bellows.cli.shell.Shell;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
import io.bellows.config.KnobAssignments;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import io.bellows.remote.RemoteCluster;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import java.io.BufferedReader;
import java.io.Console;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bellows shell}: opens the engine on a data directory, or connects to a server ({@code
 * --connect}), and runs the interactive shell over standard input and output, closing the engine or
 * the connection at exit, end of input or interrupt.
 */
@Command(
    name = "shell",
    mixinStandardHelpOptions = true,
    description = "Interactive shell speaking HBase shell syntax. Reads commands from standard input;"
        + " prompts only when standard input is a terminal.")
final class ShellSubcommand implements Callable<Integer> {
  @Option(names = "--data", paramLabel = "DIR", defaultValue = "bellows-data",
      description = "Data directory (default: ${DEFAULT-VALUE}, relative to the current directory).")
  Path data;

  @Option(names = "--connect", paramLabel = "HOST:PORT",
      description = "Use the server at HOST:PORT instead of a data directory; or a cluster, given some of its"
          + " servers: HOST:PORT,HOST:PORT,... (calls go to each table's leader). A bearer token is read from the"
          + " environment variable BELLOWS_TOKEN.")
  String connect;

  @Option(names = "--tls-ca", paramLabel = "FILE",
      description = "With --connect: speak TLS, trusting the CA certificates (PEM) in FILE.")
  Path tlsCa;

  @Option(names = "--no-timing", description = "Do not print the 'Took N seconds' line after each command.")
  boolean noTiming;

  @Option(names = "--set", paramLabel = "name=value",
      description = "An engine knob of the opened data directory (the README's configuration table), e.g."
          + " --set bellows.blockcache.l1.size=256M. Repeatable. Table and family knobs are set with create and alter.")
  List<String> settings = new ArrayList<>();

  private final InputStream in;
  private final PrintStream out;
  private final boolean interactive;

  /** The shell on the process's standard streams, interactive when they are a terminal. */
  ShellSubcommand() {
    this(System.in, System.out, stdinIsTerminal());
  }

  /**
   * Whether a person is at a terminal. Before JDK 22 that is {@code System.console() != null}; from
   * JDK 22 a console exists even when the streams are redirected, and {@code Console.isTerminal()}
   * (looked up reflectively, as the code targets Java 17) tells.
   */
  static boolean stdinIsTerminal() {
    Console c = System.console();
    if (c == null) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(c);
    } catch (NoSuchMethodException beforeJdk22) {
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return true;
    }
  }

  /** The shell on the given streams (tests, embedding). */
  ShellSubcommand(InputStream in, PrintStream out, boolean interactive) {
    this.in = in;
    this.out = out;
    this.interactive = interactive;
  }

  @Override
  public Integer call() {
    PrintStream out = new PrintStream(this.out, true, StandardCharsets.UTF_8);
    EngineOptions engineOptions;
    try {
      engineOptions = KnobAssignments.parse(settings)
          .requireScopes("set table and family knobs with create and alter", Knob.Scope.ENGINE)
          .applyTo(EngineOptions.builder()).build();
    } catch (IllegalArgumentException e) {
      out.println("ERROR: --set " + e.getMessage());
      return 2;
    }
    if (connect != null && !settings.isEmpty()) {
      out.println("ERROR: --set configures an engine this shell opens; the server's engine takes its knobs from"
          + " 'bellows server --set' or its config file");
      return 2;
    }
    if (connect != null) {
      Engine db;
      try {
        RemoteOptions options = RemoteOptions.defaults().withToken(System.getenv("BELLOWS_TOKEN"));
        if (tlsCa != null) {
          options = options.withTls(tlsCa, null, null);
        }
        List<String> servers = List.of(connect.split(","));
        db = servers.size() == 1 ? RemoteEngine.open(connect, options) : RemoteCluster.open(servers, options);
      } catch (RuntimeException e) {
        out.println("ERROR: cannot connect to " + connect + ": " + ErrorMessages.describe(e));
        return 2;
      }
      try {
        db.listTables(); // fail now, not at the first command, if the server cannot be reached
      } catch (RuntimeException e) {
        db.close();
        out.println("ERROR: cannot connect to " + connect + ": " + ErrorMessages.describe(e));
        return 2;
      }
      return runShell(db, Session.remote(connect, System.getenv("BELLOWS_TOKEN") != null, tlsCa != null), out);
    }
    String cannotOpen = "ERROR: cannot open " + data.toAbsolutePath() + ": ";
    if (Files.exists(data) && !Files.isDirectory(data)) {
      // The engine would only say it cannot create the directory.
      out.println(cannotOpen + "not a directory");
      return 2;
    }
    Engine db;
    try {
      db = LocalEngine.open(data, engineOptions);
    } catch (RuntimeException e) {
      // LocalEngine.open wraps I/O failures as "cannot open DIR" around the reason; say that once.
      boolean wrapped = e.getCause() != null && String.valueOf(e.getMessage()).startsWith("cannot open ");
      out.println(cannotOpen + ErrorMessages.describe(wrapped ? e.getCause() : e));
      return 2;
    }
    return runShell(db, Session.embedded(data), out);
  }

  private int runShell(Engine engine, Session session, PrintStream out) {
    AtomicBoolean closed = new AtomicBoolean();
    // Ctrl-C ends the JVM: still release the WAL and directory lock cleanly.
    Thread hook = new Thread(() -> closeOnce(engine, closed), "bellows-shell-close");
    Runtime.getRuntime().addShutdownHook(hook);
    int status;
    try {
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      status = new Shell(engine, session, reader, out, interactive, !noTiming).run();
    } finally {
      closeOnce(engine, closed);
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // already shutting down: the hook runs and finds the engine closed
      }
    }
    return interactive ? 0 : status;
  }

  private static void closeOnce(Engine engine, AtomicBoolean closed) {
    if (closed.compareAndSet(false, true)) {
      engine.close();
    }
  }
}
