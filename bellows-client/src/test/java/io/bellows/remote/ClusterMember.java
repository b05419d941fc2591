package io.bellows.remote;

import io.bellows.server.ServerConfig;
import io.bellows.server.ServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One member of a test's cluster in a child JVM of its own, run as {@code bellows server --cluster}
 * runs it ({@link ServerProcess}): killed with SIGKILL ({@link #kill}), paused with SIGSTOP and
 * resumed with SIGCONT ({@link #pause}, {@link #resume}), or restarted on the same directory; with
 * a test fault file, it takes the partitions and switches written there (the server's test-only
 * {@code --test-faults}). Its log (standard error) goes to a file and to memory, where a test waits for a line.
 */
final class ClusterMember implements AutoCloseable {
  final String id;
  final String clientAddress;
  private final Path dir;
  private final Path members;
  /** The test fault file every member polls, or null. */
  private final Path faults;
  private boolean paused;
  private Process process;
  private Path log;
  private final StringBuilder logText = new StringBuilder();
  private boolean logEnded;
  private int starts;
  /** The thread copying the current (or last) process's log. */
  private Thread pump;

  /**
   * Election timeouts of the members, {@code MIN-MAX} in milliseconds ({@code
   * -Dbellows.test.election.ms=600-1200}), or the server's defaults: a measuring run's setting.
   */
  private static final String ELECTION = System.getProperty("bellows.test.election.ms", "");

  /** The child's entry point: DATA MEMBER_FILE ID [TEST_FAULT_FILE]. */
  public static void main(String[] args) {
    ServerConfig config = ServerConfig.defaults().withPorts(null, -1);
    if (!ELECTION.isEmpty()) {
      String[] ms = ELECTION.split("-");
      config = config.withClusterAccess(config.cluster().withElectionTimeouts(Duration.ofMillis(Long.parseLong(ms[0])),
          Duration.ofMillis(Long.parseLong(ms[1]))));
    }
    int status = new ServerProcess(Path.of(args[0]), config, new PrintWriter(System.err, true), Path.of(args[1]), args[2],
        args.length > 3 ? Path.of(args[3]) : null).run();
    System.exit(status);
  }

  ClusterMember(Path dir, Path members, String id, String clientAddress, Path faults) {
    this.dir = dir;
    this.members = members;
    this.faults = faults;
    this.id = id;
    this.clientAddress = clientAddress;
  }

  /** Starts the member's process and waits until it serves clients. */
  void start() throws IOException, InterruptedException {
    launch();
    awaitStarted();
  }

  /**
   * Starts every one of {@code members}' processes before waiting for any: their JVMs start side by
   * side, and meta's first election does not wait for the last member to be launched.
   */
  static void startAll(List<ClusterMember> members) throws IOException, InterruptedException {
    for (ClusterMember m : members) {
      m.launch();
    }
    for (ClusterMember m : members) {
      m.awaitStarted();
    }
  }

  /** Starts the member's process, without waiting for it. */
  private void launch() throws IOException, InterruptedException {
    Files.createDirectories(dir);
    if (pump != null) {
      // The last process's pump ends its log when it reads that process's end, which may come after
      // the process was seen dead: left running, it would mark the new process's log ended (a start
      // that "did not start", with an empty log) or add the old process's last lines to it.
      pump.join(TimeUnit.SECONDS.toMillis(30));
      if (pump.isAlive()) {
        throw new IllegalStateException("member " + id + ": the log of its last process did not end");
      }
    }
    synchronized (logText) {
      logText.setLength(0);
      logEnded = false;
    }
    log = dir.resolve("server-" + (++starts) + ".log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // Wall-clock stamps on every log line, so that a failover's steps line up across the members' logs and the test's.
    List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
        "-Dbellows.test.election.ms=" + ELECTION,
        "-Dorg.slf4j.simpleLogger.showDateTime=true", "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS", "-cp",
        System.getProperty("java.class.path"), ClusterMember.class.getName(), dir.resolve("data").toString(),
        members.toString(), id));
    if (faults != null) {
      command.add(faults.toString());
    }
    process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    Process p = process;
    Path file = log;
    pump = new Thread(() -> pumpLog(p, file), "member-" + id + "-log");
    pump.setDaemon(true);
    pump.start();
  }

  /** Waits until the process {@link #launch} started serves clients. */
  private void awaitStarted() throws InterruptedException {
    Process p = process;
    // The client port's line ("listening on HOST:PORT (gRPC)"), not the Raft port's, which comes first.
    String listening = "listening on " + clientAddress + " ";
    String text = awaitLog(listening);
    if (!text.contains(listening)) {
      p.destroyForcibly();
      throw new IllegalStateException("member " + id + " did not start:\n" + text);
    }
  }

  private void pumpLog(Process p, Path file) {
    try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (String line = err.readLine(); line != null; line = err.readLine()) {
        out.write(line);
        out.write('\n');
        out.flush();
        synchronized (logText) {
          logText.append(line).append('\n');
          logText.notifyAll();
        }
      }
    } catch (IOException e) {
      synchronized (logText) {
        logText.append("(the test could not read the member's log: ").append(e).append(")\n");
      }
    } finally {
      synchronized (logText) {
        logEnded = true;
        logText.notifyAll();
      }
    }
  }

  /** Waits until the log holds {@code text} (or the process ended its log, or 60 s passed) and returns the log. */
  String awaitLog(String text) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    synchronized (logText) {
      for (long left = end - System.nanoTime(); logText.indexOf(text) < 0 && !logEnded && left > 0;
          left = end - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(logText, left);
      }
      return logText.toString();
    }
  }

  /**
   * For a test that failed while members ran: a thread dump of each live member ({@code jcmd
   * Thread.print}) written beside its log, and the last lines of each log on standard error, so
   * that a stall is seen where it happened (the test's temporary directory is kept on failure).
   */
  static void diagnose(List<ClusterMember> members, Throwable failure) {
    StringBuilder out = new StringBuilder("[cluster] the test failed (" + failure + "); the members:\n");
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    for (ClusterMember m : members) {
      out.append("--- member ").append(m.id).append(m.alive() ? " (running" : " (not running")
          .append(m.paused ? ", paused)" : ")").append(", log ").append(m.log).append('\n');
      if (m.alive() && !m.paused) {
        Path dump = m.dir.resolve("threads-" + System.currentTimeMillis() + ".txt");
        try {
          Process p = new ProcessBuilder(jcmd, Long.toString(m.process.pid()), "Thread.print")
              .redirectErrorStream(true).redirectOutput(dump.toFile()).start();
          boolean ended = p.waitFor(60, TimeUnit.SECONDS);
          out.append("threads: ").append(dump).append(ended ? "" : " (jcmd did not end)").append('\n');
        } catch (IOException | InterruptedException e) {
          out.append("no thread dump: ").append(e).append('\n');
        }
      }
      String text;
      synchronized (m.logText) {
        text = m.logText.toString();
      }
      String[] lines = text.split("\n");
      for (int i = Math.max(0, lines.length - 40); i < lines.length; i++) {
        out.append(lines[i]).append('\n');
      }
    }
    System.err.print(out);
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL: no flush, no goodbye; waits for the process to end. */
  synchronized void kill() throws InterruptedException {
    process.destroyForcibly(); // a stopped process dies too
    paused = false;
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("member " + id + " did not die within 30 s of SIGKILL");
    }
  }

  /**
   * SIGKILL to every one of {@code members} before waiting for any (a crash of them all at one
   * moment: none acknowledges anything after the first dies, unlike {@link #kill} in turn).
   */
  static void killAll(List<ClusterMember> members) throws InterruptedException {
    for (ClusterMember m : members) {
      synchronized (m) {
        m.process.destroyForcibly();
        m.paused = false;
      }
    }
    for (ClusterMember m : members) {
      if (!m.process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("member " + m.id + " did not die within 30 s of SIGKILL");
      }
    }
  }

  /** SIGSTOP: the process stops where it is, its connections open, until {@link #resume}. */
  synchronized void pause() throws IOException, InterruptedException {
    signal("STOP");
    paused = true;
  }

  /** SIGCONT after {@link #pause}. */
  synchronized void resume() throws IOException, InterruptedException {
    if (paused) {
      signal("CONT");
      paused = false;
    }
  }

  private void signal(String name) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
    if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("could not send SIG" + name + " to member " + id);
    }
  }

  @Override
  public void close() throws InterruptedException, IOException {
    stopAll(List.of(this));
  }

  /**
   * SIGTERM to every live one of {@code members} (resumed first if paused) before waiting for any,
   * so that their graceful stops overlap; one still running after 30 s gets SIGKILL.
   */
  static void stopAll(List<ClusterMember> members) throws InterruptedException, IOException {
    List<ClusterMember> stopping = new ArrayList<>();
    IOException first = null;
    for (ClusterMember m : members) {
      if (m.alive()) {
        try {
          m.resume();
        } catch (IOException e) { // still stop it, and the others
          first = first == null ? e : first;
        }
        m.process.destroy(); // SIGTERM: the server stops as it does for an operator
        stopping.add(m);
      }
    }
    for (ClusterMember m : stopping) {
      if (!m.process.waitFor(30, TimeUnit.SECONDS)) {
        m.process.destroyForcibly();
        m.process.waitFor(10, TimeUnit.SECONDS);
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
