package io.bellows.remote;

import io.bellows.engine.LocalEngine;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Bellows server in a child JVM of its own, with a small heap and a low open-file limit (as an
 * operator would run it, and so that what it runs out of is its own): started with a config file,
 * it prints its ports on its first line and stops when its standard input closes. Its log (standard
 * error) goes to a file and to memory, where a test can wait for a line.
 */
final class ChildServer implements AutoCloseable {
  final Process process;
  final int port;
  final int httpPort;
  final Path log;
  /** The child's standard error as read so far; its monitor guards it and {@link #logEnded}. */
  private final StringBuilder logText = new StringBuilder();
  private boolean logEnded;

  /** The child's entry point: DATA CONFIG. */
  public static void main(String[] args) throws Exception {
    ServerConfig config = ServerConfig.read(Path.of(args[1]));
    try (LocalEngine engine = LocalEngine.open(Path.of(args[0]), config.engine());
        BellowsServer server = BellowsServer.start(engine, config, ServerEvents.NONE)) {
      System.out.println("READY " + server.port() + " " + server.httpPort());
      System.out.flush();
      while (System.in.read() >= 0) {
        // runs until the test closes our input
      }
    }
  }

  ChildServer(Path dir, String config, int openFiles, String heap) throws IOException {
    Files.createDirectories(dir);
    Path configFile = dir.resolve("server.properties");
    Files.writeString(configFile, config + "\nport = 0\n");
    this.log = dir.resolve("server.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -n " + openFiles + " && exec \"$@\"", "child",
        java, "-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
        ChildServer.class.getName(), dir.resolve("data").toString(), configFile.toString()));
    this.process = new ProcessBuilder(command).start();
    Thread pump = new Thread(this::pumpLog, "child-server-log");
    pump.setDaemon(true);
    pump.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String first = out.readLine();
    if (first == null || !first.startsWith("READY ")) {
      process.destroyForcibly();
      throw new IllegalStateException("the server did not start: " + first + "\n" + log());
    }
    String[] parts = first.split(" ");
    this.port = Integer.parseInt(parts[1]);
    this.httpPort = Integer.parseInt(parts[2]);
  }

  String target() {
    return "127.0.0.1:" + port;
  }

  /** Copies the child's standard error to the log file and to memory, waking {@link #awaitLog} callers. */
  private void pumpLog() {
    try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
        Writer file = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      for (String line = err.readLine(); line != null; line = err.readLine()) {
        file.write(line);
        file.write('\n');
        file.flush();
        synchronized (logText) {
          logText.append(line).append('\n');
          logText.notifyAll();
        }
      }
    } catch (IOException e) {
      synchronized (logText) {
        logText.append("(the test could not read the child's log: ").append(e).append(")\n");
      }
    } finally {
      synchronized (logText) {
        logEnded = true;
        logText.notifyAll();
      }
    }
  }

  /** What the child logged so far. */
  String log() {
    synchronized (logText) {
      return logText.toString();
    }
  }

  /**
   * Waits until the child's log holds {@code text} (or the child ended its log, or 30 s passed: a
   * bound against a hang) and returns the log.
   */
  String awaitLog(String text) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    synchronized (logText) {
      for (long left = end - System.nanoTime(); logText.indexOf(text) < 0 && !logEnded && left > 0;
          left = end - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(logText, left);
      }
      return logText.toString();
    }
  }

  @Override
  public void close() throws Exception {
    process.getOutputStream().close();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
