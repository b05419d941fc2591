package io.bellows.cli;

import io.bellows.client.Bellows;
import io.bellows.cluster.server.Members;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bellows cluster start|add|stop}: a cluster of server processes on this machine, for trying
 * a cluster out and for tests (docs/SERVER.md). {@code start} writes the member file {@code
 * DIR/members.txt}, starts one {@code bellows server --cluster} process per member (data in {@code
 * DIR/ID/data}, log in {@code DIR/ID/server.log}), waits until each takes connections and writes
 * {@code DIR/servers.txt}: one line {@code address pid} per server. {@code add} adds a member to
 * the running cluster: its line (marked {@code added}) to the member file, its process, its line
 * in {@code servers.txt}, and the cluster's {@code add_server} call. {@code stop} sends each of
 * those processes SIGTERM (each flushes and exits) and waits for them.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = "Starts, grows or stops a cluster of server processes on this machine (127.0.0.1).",
    subcommands = {ClusterSubcommand.Start.class, ClusterSubcommand.Add.class, ClusterSubcommand.Stop.class})
final class ClusterSubcommand implements Runnable {
  static final String SERVERS = "servers.txt";
  static final String MEMBERS = "members.txt";
  /** How long start waits for a server to take connections, and stop for one to exit. */
  static final long WAIT_SECONDS = 60;

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "start", mixinStandardHelpOptions = true,
      description = "Starts N server processes on 127.0.0.1 with free ports; writes DIR/members.txt and"
          + " DIR/servers.txt (one line 'address pid' per server).")
  static final class Start implements Callable<Integer> {
    @Option(names = "--dir", paramLabel = "DIR", required = true, description = "The cluster's directory.")
    Path dir;

    @Option(names = "--servers", paramLabel = "N", defaultValue = "3", description = "How many servers, 3 to 5"
        + " (default: ${DEFAULT-VALUE}).")
    int servers;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      if (servers < 3 || servers > 5) {
        err.println("ERROR: --servers is 3 to 5, not " + servers);
        return 2;
      }
      if (Files.exists(dir.resolve(SERVERS))) {
        err.println("ERROR: " + dir.resolve(SERVERS) + " exists: the cluster runs (bellows cluster stop --dir " + dir
            + ") or did not stop cleanly (remove the file)");
        return 2;
      }
      Files.createDirectories(dir);
      Path members = dir.resolve(MEMBERS);
      if (!Files.exists(members)) { // a restart keeps the members and their ports
        StringBuilder text = new StringBuilder();
        // Distinct ports: the system may hand out a port again once the socket that found it closed.
        java.util.Set<Integer> ports = new java.util.LinkedHashSet<>();
        while (ports.size() < 2 * servers) {
          ports.add(freePort());
        }
        java.util.Iterator<Integer> next = ports.iterator();
        for (int i = 1; i <= servers; i++) {
          text.append('n').append(i).append(" 127.0.0.1:").append(next.next()).append(" 127.0.0.1:").append(next.next())
              .append('\n');
        }
        Files.writeString(members, text);
      }
      List<String[]> list = new ArrayList<>();
      for (String line : Files.readAllLines(members)) {
        if (!line.isBlank() && !line.startsWith("#")) {
          list.add(line.trim().split("\\s+"));
        }
      }
      StringBuilder pids = new StringBuilder();
      List<Process> started = new ArrayList<>();
      for (String[] m : list) {
        Process p = startServer(dir, m[0]);
        started.add(p);
        pids.append(m[2]).append(' ').append(p.pid()).append('\n');
      }
      for (int i = 0; i < list.size(); i++) {
        String address = list.get(i)[2];
        if (!awaitListening(address, started.get(i))) {
          started.forEach(Process::destroy);
          err.println("ERROR: server " + list.get(i)[0] + " did not start: see " + dir.resolve(list.get(i)[0])
              .resolve("server.log"));
          return 1;
        }
      }
      Files.writeString(dir.resolve(SERVERS), pids);
      out.print(pids);
      out.println("connect: bellows shell --connect " + String.join(",", list.stream().map(m -> m[2]).toList()));
      return 0;
    }

  }

  /** Starts member {@code id}'s server process on {@code dir}'s member file (data in DIR/ID/data, log in DIR/ID/server.log). */
  static Process startServer(Path dir, String id) throws IOException {
    Path home = dir.resolve(id);
    Files.createDirectories(home);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
        BellowsCli.class.getName(), "server", "--data", home.resolve("data").toString(), "--cluster",
        dir.resolve(MEMBERS).toString(), "--id", id, "--http-port", "-1")
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("server.log").toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(nullFile()))
        .start();
  }

  private static java.io.File nullFile() {
    return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  /** Waits until the server takes connections, or its process ends, or WAIT_SECONDS pass. */
  static boolean awaitListening(String address, Process p) throws InterruptedException {
    int colon = address.lastIndexOf(':');
    InetSocketAddress a = new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (System.nanoTime() < end && p.isAlive()) {
      try (Socket s = new Socket()) {
        s.connect(a, 1000);
        return true;
      } catch (IOException notYet) {
        p.waitFor(100, TimeUnit.MILLISECONDS); // returns early if the process ends
      }
    }
    return false;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Command(name = "add", mixinStandardHelpOptions = true,
      description = "Adds a server to the cluster running from DIR: its line (marked 'added') to DIR/members.txt,"
          + " its process, its line in DIR/servers.txt, and the cluster's add_server; at most 5 servers.")
  static final class Add implements Callable<Integer> {
    @Option(names = "--dir", paramLabel = "DIR", required = true, description = "The cluster's directory.")
    Path dir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      Path servers = dir.resolve(SERVERS);
      if (!Files.exists(servers)) {
        err.println("ERROR: no cluster started there runs (" + servers + " is missing): bellows cluster start --dir "
            + dir + " first");
        return 2;
      }
      Path membersFile = dir.resolve(MEMBERS);
      Members members;
      try {
        members = Members.read(membersFile);
      } catch (IllegalArgumentException e) {
        err.println("ERROR: " + e.getMessage());
        return 2;
      }
      if (members.list().size() >= Members.MAX) {
        err.println("ERROR: the cluster has " + members.list().size() + " servers, the most a cluster has ("
            + Members.MAX + ")");
        return 2;
      }
      Set<String> ids = new HashSet<>(members.list().stream()
          .map(Members.Member::id).toList());
      int n = members.list().size() + 1;
      while (ids.contains("n" + n)) {
        n++;
      }
      String id = "n" + n;
      int raftPort = freePort();
      int clientPort = freePort();
      while (clientPort == raftPort) {
        clientPort = freePort();
      }
      var m = new Members.Member(id, "127.0.0.1:" + raftPort, "127.0.0.1:" + clientPort, true);
      Files.writeString(membersFile, members.with(m).text()); // the member file lists it before it starts
      Process p = startServer(dir, id);
      if (!awaitListening(m.clientAddress(), p)) {
        p.destroy();
        err.println("ERROR: server " + id + " did not start: see " + dir.resolve(id).resolve("server.log"));
        return 1;
      }
      Files.writeString(servers, m.clientAddress() + " " + p.pid() + "\n", StandardOpenOption.APPEND);
      out.println(m.clientAddress() + " " + p.pid());
      out.flush();
      List<String> running = new ArrayList<>();
      for (String line : Files.readAllLines(servers)) {
        if (!line.isBlank() && !line.startsWith(m.clientAddress() + " ")) {
          running.add(line.trim().split("\\s+")[0]);
        }
      }
      try (Bellows db = RemoteEngine.connect(running,
          RemoteOptions.defaults())) {
        db.addServer(id, m.raftAddress(), m.clientAddress());
      } catch (RuntimeException e) {
        err.println("ERROR: server " + id + " runs, but the cluster did not take it in: " + e.getMessage()
            + " (in the shell: add_server '" + id + "', '" + m.raftAddress() + "', '" + m.clientAddress() + "')");
        return 1;
      }
      out.println("added " + id + " (Raft " + m.raftAddress() + ", clients " + m.clientAddress()
          + "): move puts replicas on it");
      return 0;
    }
  }

  @Command(name = "stop", mixinStandardHelpOptions = true,
      description = "Stops the servers DIR/servers.txt lists (SIGTERM: each flushes and exits) and waits for them.")
  static final class Stop implements Callable<Integer> {
    @Option(names = "--dir", paramLabel = "DIR", required = true, description = "The cluster's directory.")
    Path dir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      Path file = dir.resolve(SERVERS);
      if (!Files.exists(file)) {
        err.println("ERROR: " + file + " does not exist: no cluster started there runs");
        return 2;
      }
      int status = 0;
      List<ProcessHandle> stopping = new ArrayList<>();
      for (String line : Files.readAllLines(file)) {
        if (line.isBlank()) {
          continue;
        }
        String[] f = line.trim().split("\\s+");
        Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(f[1]));
        if (h.isEmpty() || !h.get().isAlive()) {
          out.println(f[0] + " (pid " + f[1] + ") was not running");
          continue;
        }
        h.get().destroy();
        stopping.add(h.get());
      }
      for (ProcessHandle h : stopping) {
        try {
          h.onExit().get(WAIT_SECONDS, TimeUnit.SECONDS);
          out.println("stopped pid " + h.pid());
        } catch (Exception e) {
          err.println("ERROR: pid " + h.pid() + " did not stop within " + WAIT_SECONDS + " s");
          status = 1;
        }
      }
      if (status == 0) {
        Files.delete(file);
      }
      return status;
    }
  }
}
