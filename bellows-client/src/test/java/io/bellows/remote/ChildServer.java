package io.bellows.remote;

import io.bellows.engine.LocalEngine;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Bellows server in a child JVM of its own, with a small heap and a low open-file limit (as an
 * operator would run it, and so that what it runs out of is its own): started with a config file,
 * it prints its ports on its first line and stops when its standard input closes. Its log goes to a
 * file the test can read.
 */
final class ChildServer implements AutoCloseable {
  final Process process;
  final int port;
  final int httpPort;
  final Path log;

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
    this.process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String first = out.readLine();
    if (first == null || !first.startsWith("READY ")) {
      process.destroyForcibly();
      throw new IllegalStateException("the server did not start: " + first + "\n" + Files.readString(log));
    }
    String[] parts = first.split(" ");
    this.port = Integer.parseInt(parts[1]);
    this.httpPort = Integer.parseInt(parts[2]);
  }

  String target() {
    return "127.0.0.1:" + port;
  }

  String log() throws IOException {
    return Files.readString(log);
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
