package io.bellows.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Server processes on 127.0.0.1 for the cluster benchmarks, run from the product jar exactly as
 * {@code bellows server} (and {@code bellows cluster start}) runs them: either one standalone
 * server or the members of a cluster sharing a member file. Each server's data lives in {@code
 * DIR/ID/data} and its log, with wall-clock stamps, in {@code DIR/ID/server.log}; a member stopped
 * and started again keeps its directory and ports. Reads what the operating system says of each
 * process (CPU time, threads by name) from {@code /proc}. Not thread-safe: one driver thread.
 */
final class LocalServers implements AutoCloseable {
  /** How long a server has to take connections after it starts, and to exit after SIGTERM. */
  private static final long WAIT_SECONDS = 120;
  /** The log's time stamps: parsed back by {@link #logTime}. */
  static final String LOG_TIME_FORMAT = "yyyy-MM-dd HH:mm:ss.SSS";

  /** One server: its id, client address, Raft address (null for a standalone server), home. */
  record Server(String id, String clientAddress, String raftAddress, Path home) {
    Path log() {
      return home.resolve("server.log");
    }

    Path data() {
      return home.resolve("data");
    }
  }

  private final Path product;
  private final List<String> jvmFlags;
  private final Path jfrDir;
  private final List<Server> servers;
  private final Path members;
  private final Process[] processes;

  private LocalServers(Path product, List<String> jvmFlags, Path jfrDir, List<Server> servers, Path members) {
    this.product = product;
    this.jvmFlags = jvmFlags;
    this.jfrDir = jfrDir;
    this.servers = servers;
    this.members = members;
    this.processes = new Process[servers.size()];
  }

  /** A cluster of {@code n} members n1..nN with free ports, its member file in {@code dir}; nothing started yet. */
  static LocalServers cluster(Path product, List<String> jvmFlags, Path jfrDir, Path dir, int n) throws IOException {
    Files.createDirectories(dir);
    List<Server> list = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= n; i++) {
      String raft = "127.0.0.1:" + freePort();
      String client = "127.0.0.1:" + freePort();
      list.add(new Server("n" + i, client, raft, dir.resolve("n" + i)));
      text.append('n').append(i).append(' ').append(raft).append(' ').append(client).append('\n');
    }
    Path file = dir.resolve("members.txt");
    Files.writeString(file, text);
    return new LocalServers(product, jvmFlags, jfrDir, list, file);
  }

  /** One standalone server with a free port in {@code dir}; not started yet. */
  static LocalServers single(Path product, List<String> jvmFlags, Path jfrDir, Path dir) throws IOException {
    Files.createDirectories(dir);
    return new LocalServers(product, jvmFlags, jfrDir,
        List.of(new Server("single", "127.0.0.1:" + freePort(), null, dir.resolve("single"))), null);
  }

  List<Server> servers() {
    return servers;
  }

  List<String> clientAddresses() {
    return servers.stream().map(Server::clientAddress).toList();
  }

  Server server(String id) {
    return servers.stream().filter(s -> s.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no server " + id));
  }

  /** Starts every server and waits until each takes connections. */
  void startAll() throws IOException, InterruptedException {
    for (int i = 0; i < servers.size(); i++) {
      launch(i);
    }
    for (int i = 0; i < servers.size(); i++) {
      awaitListening(i);
    }
  }

  /** Starts (again) the server {@code id} and waits until it takes connections. */
  void start(String id) throws IOException, InterruptedException {
    int i = servers.indexOf(server(id));
    launch(i);
    awaitListening(i);
  }

  private void launch(int i) throws IOException {
    Server s = servers.get(i);
    Files.createDirectories(s.home());
    List<String> cmd = new ArrayList<>();
    cmd.add(ChildJvm.javaExecutable());
    cmd.add("-XX:+ExitOnOutOfMemoryError");
    cmd.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
    cmd.add("-Dorg.slf4j.simpleLogger.dateTimeFormat=" + LOG_TIME_FORMAT);
    cmd.addAll(jvmFlags);
    if (jfrDir != null) {
      Files.createDirectories(jfrDir);
      cmd.add("-XX:StartFlightRecording=filename=" + jfrDir.resolve(s.id() + "-" + System.nanoTime() + ".jfr")
          + ",settings=profile,dumponexit=true");
    }
    cmd.addAll(List.of("-jar", product.toString(), "server", "--data", s.data().toString(), "--http-port", "-1"));
    if (members != null) {
      cmd.addAll(List.of("--cluster", members.toString(), "--id", s.id()));
    } else {
      cmd.addAll(List.of("--port", port(s.clientAddress())));
    }
    processes[i] = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(s.log().toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
  }

  private void awaitListening(int i) throws InterruptedException {
    Server s = servers.get(i);
    Process p = processes[i];
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (System.nanoTime() < end && p.isAlive()) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(port(s.clientAddress()))), 1000);
        return;
      } catch (IOException notYet) {
        p.waitFor(100, TimeUnit.MILLISECONDS);
      }
    }
    throw new IllegalStateException("server " + s.id() + " did not start: see " + s.log());
  }

  /** SIGTERM to the server {@code id} (it flushes and exits); waits for it to end. */
  void stop(String id) throws InterruptedException {
    int i = servers.indexOf(server(id));
    Process p = processes[i];
    if (p != null && p.isAlive()) {
      p.destroy();
      if (!p.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  long pid(String id) {
    return processes[servers.indexOf(server(id))].pid();
  }

  /** CPU time (user and system) the server's process has used so far, in nanoseconds. */
  long cpuNanos(String id) {
    return ProcessHandle.of(pid(id)).flatMap(h -> h.info().totalCpuDuration())
        .orElseThrow(() -> new IllegalStateException("no CPU time of server " + id + " (not Linux, or it ended)"))
        .toNanos();
  }

  /** The server's threads now, as the operating system counts them ({@code /proc/PID/task}). */
  int threads(String id) {
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid(id)), "task"))) {
      return (int) tasks.count();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the threads of server " + id, e);
    }
  }

  /**
   * The server's threads by kind ({@link #threadKind}), from a thread dump ({@code jcmd PID
   * Thread.print}: whole names, where {@code /proc} keeps 15 bytes of each).
   */
  Map<String, Integer> threadKinds(String id) throws IOException, InterruptedException {
    Map<String, Integer> out = new TreeMap<>();
    for (DumpedThread t : threadDump(id)) {
      out.merge(threadKind(t.name()), 1, Integer::sum);
    }
    return out;
  }

  /** A thread of a dump: its name, native id and the CPU time it had used (-1 if the dump did not say). */
  record DumpedThread(String name, String nid, long cpuNanos) {}

  private static final java.util.regex.Pattern CPU = java.util.regex.Pattern.compile(" cpu=([0-9.]+)ms");
  private static final java.util.regex.Pattern NID = java.util.regex.Pattern.compile(" nid=(\\S+)");

  /** The server's threads from {@code jcmd PID Thread.print}, with the CPU time the JVM reports for each. */
  List<DumpedThread> threadDump(String id) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid(id)), "Thread.print").redirectErrorStream(true)
        .start();
    String dump = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("jcmd Thread.print of server " + id + " failed: " + dump);
    }
    return parseDump(dump);
  }

  static List<DumpedThread> parseDump(String dump) {
    List<DumpedThread> out = new ArrayList<>();
    for (String line : dump.split("\n")) {
      if (line.startsWith("\"")) {
        int end = line.indexOf('"', 1);
        if (end > 0) {
          String rest = line.substring(end + 1);
          java.util.regex.Matcher c = CPU.matcher(rest);
          java.util.regex.Matcher n = NID.matcher(rest);
          out.add(new DumpedThread(line.substring(1, end), n.find() ? n.group(1) : "",
              c.find() ? (long) (Double.parseDouble(c.group(1)) * 1_000_000) : -1));
        }
      }
    }
    return out;
  }

  /**
   * CPU nanoseconds by thread kind between two dumps of one server: each thread of the second less
   * what it had in the first (a thread new since then counts whole).
   */
  static Map<String, Long> cpuByKind(List<DumpedThread> before, List<DumpedThread> after) {
    Map<String, Long> was = new java.util.HashMap<>();
    for (DumpedThread t : before) {
      was.put(t.nid() + " " + t.name(), Math.max(0, t.cpuNanos()));
    }
    Map<String, Long> out = new TreeMap<>();
    for (DumpedThread t : after) {
      if (t.cpuNanos() >= 0) {
        out.merge(threadKind(t.name()), Math.max(0, t.cpuNanos() - was.getOrDefault(t.nid() + " " + t.name(), 0L)),
            Long::sum);
      }
    }
    return out;
  }

  /** A thread's name with its numbers (and the group ids Ratis puts in names) made one kind. */
  static String threadKind(String comm) {
    return comm.replaceAll("[0-9A-Fa-f]{8,}", "#").replaceAll("[0-9]+", "#");
  }

  /** The product jar: {@code bellows-cli/target/bellows.jar} beside this lab's jar or build folder. */
  static Path defaultProduct() {
    try {
      Path here = Path.of(LocalServers.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      // .../bellows-bench/target/benchmarks.jar or .../bellows-bench/target/classes
      Path root = here.getParent().getParent().getParent();
      return root.resolve("bellows-cli").resolve("target").resolve("bellows.jar");
    } catch (URISyntaxException | RuntimeException e) {
      return Path.of("bellows-cli", "target", "bellows.jar");
    }
  }

  /** A log line's time stamp in epoch milliseconds, or -1 if the line has none. */
  static long logTime(String line) {
    if (line.length() < LOG_TIME_FORMAT.length()) {
      return -1;
    }
    try {
      return java.time.LocalDateTime.parse(line.substring(0, LOG_TIME_FORMAT.length()),
              java.time.format.DateTimeFormatter.ofPattern(LOG_TIME_FORMAT))
          .atZone(java.time.ZoneId.systemDefault()).toInstant().toEpochMilli();
    } catch (java.time.format.DateTimeParseException e) {
      return -1;
    }
  }

  private static String port(String address) {
    return address.substring(address.lastIndexOf(':') + 1);
  }

  /** Ports handed out to this process's servers: the system may hand out a port again once its socket closed. */
  private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** A free port no server of this process was given before. */
  private static int freePort() throws IOException {
    while (true) {
      try (ServerSocket s = new ServerSocket(0)) {
        if (HANDED_OUT.add(s.getLocalPort())) {
          return s.getLocalPort();
        }
      }
    }
  }

  /** Stops every server still running (SIGTERM, then SIGKILL past the wait). */
  @Override
  public void close() throws InterruptedException {
    for (Server s : servers) {
      if (processes[servers.indexOf(s)] != null) {
        stop(s.id());
      }
    }
  }
}
