package io.bellows.cli;

import io.bellows.config.KnobAssignments;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bellows server}: serves the engine on a data directory over gRPC until SIGTERM or SIGINT,
 * then flushes, closes and exits 0 (docs/SERVER.md).
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = "Serves the engine over gRPC (and /metrics over HTTP) until SIGTERM or Ctrl-C; then flushes,"
        + " closes and exits 0. Without TLS and tokens it listens on loopback only.")
final class ServerSubcommand implements Callable<Integer> {
  @Option(names = "--data", paramLabel = "DIR", defaultValue = "bellows-data",
      description = "Data directory (default: ${DEFAULT-VALUE}).")
  Path data;

  @Option(names = "--port", paramLabel = "PORT", description = "gRPC port (default: the config's port, 7070; 0: any free one).")
  Integer port;

  @Option(names = "--http-port", paramLabel = "PORT",
      description = "HTTP port of /metrics (default: the config's http.port, 7080; 0: any free one; -1: none).")
  Integer httpPort;

  @Option(names = "--config", paramLabel = "FILE", description = "Server settings (properties file; see docs/SERVER.md).")
  Path config;

  @Option(names = "--set", paramLabel = "name=value",
      description = "An engine knob (the README's configuration table), over the config file's, e.g."
          + " --set bellows.wal.max.files=64. Repeatable.")
  List<String> knobs = new ArrayList<>();

  @Option(names = "--cluster", paramLabel = "FILE",
      description = "Run as a member of a replicated cluster: FILE lists the members, one line 'id host:raftPort"
          + " host:clientPort' each (3 to 5). See docs/SERVER.md.")
  Path cluster;

  @Option(names = "--id", paramLabel = "ID",
      description = "With --cluster: this server's member id (default: the member whose client port is --port).")
  String id;

  /** TEST ONLY, hidden from the help: see docs/SERVER.md ("Test-only fault injection"). */
  @Option(names = "--test-faults", paramLabel = "FILE", hidden = true,
      description = "TEST ONLY, never in production: with --cluster, take injected faults (partitions, stale reads)"
          + " from FILE.")
  Path testFaults;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    ServerConfig settings;
    try {
      settings = config == null ? ServerConfig.defaults() : ServerConfig.read(config);
    } catch (NoSuchFileException e) {
      err.println("ERROR: cannot read " + config + ": no such file");
      return 2;
    } catch (IOException | IllegalArgumentException e) {
      err.println("ERROR: cannot read " + config + ": " + e.getMessage());
      return 2;
    }
    try {
      settings = settings.withEngineSettings(KnobAssignments.parse(knobs));
    } catch (IllegalArgumentException e) {
      err.println("ERROR: --set " + e.getMessage());
      return 2;
    }
    if ((port != null && (port < 0 || port > 65535)) || (httpPort != null && (httpPort < -1 || httpPort > 65535))) {
      err.println("ERROR: a port is a number from 0 to 65535 (--http-port also -1)");
      return 2;
    }
    if (id != null && cluster == null) {
      err.println("ERROR: --id names a member of a cluster: give the member file with --cluster");
      return 2;
    }
    if (testFaults != null && cluster == null) {
      err.println("ERROR: --test-faults is a test-only option of a cluster member: give the member file with --cluster");
      return 2;
    }
    if (cluster == null) {
      return new ServerProcess(data, settings.withPorts(port, httpPort), err).run();
    }
    return new ServerProcess(data, settings.withPorts(port, httpPort), err, cluster, id, testFaults).run();
  }
}
