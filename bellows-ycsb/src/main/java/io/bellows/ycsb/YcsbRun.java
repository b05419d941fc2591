package io.bellows.ycsb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs YCSB's own {@code site.ycsb.Client} on Bellows or RocksDB in a new JVM (the client ends with
 * {@code System.exit}): {@code load} inserts the records, {@code run} runs the workload's
 * operations. The workload is one of the six core ones shipped as resources ({@code a} … {@code f})
 * or a file. The child inherits this process's output, so YCSB's progress and results appear as
 * they come. Used by {@code bellows ycsb}.
 */
public final class YcsbRun {
  /** The stores YCSB can drive here, by the name given on the command line. */
  public static final Map<String, String> BINDINGS = Map.of(
      "bellows", BellowsClient.class.getName(),
      "rocksdb", RocksDbClient.class.getName());

  private YcsbRun() {}

  /**
   * The arguments of {@code site.ycsb.Client} for a phase ({@code load} or {@code run}), a binding,
   * a workload file, thread count and {@code name=value} properties.
   */
  public static List<String> clientArgs(String phase, String binding, Path workloadFile, int threads,
      List<String> properties) {
    String db = BINDINGS.get(binding.toLowerCase(Locale.ROOT));
    if (db == null) {
      throw new IllegalArgumentException("unknown store '" + binding + "': use one of " + BINDINGS.keySet());
    }
    return clientArgsOfClass(phase, db, workloadFile, threads, properties);
  }

  /**
   * As {@link #clientArgs}, for a binding given by its {@code site.ycsb.DB} class name (one of
   * another module, on the class path of the child JVM).
   */
  public static List<String> clientArgsOfClass(String phase, String dbClass, Path workloadFile, int threads,
      List<String> properties) {
    List<String> args = new ArrayList<>();
    args.add(switch (phase) {
      case "load" -> "-load";
      case "run" -> "-t";
      default -> throw new IllegalArgumentException("unknown phase '" + phase + "': use load or run");
    });
    args.addAll(List.of("-db", dbClass, "-P", workloadFile.toString(), "-threads", Integer.toString(threads), "-s"));
    for (String p : properties) {
      if (p.indexOf('=') <= 0) {
        throw new IllegalArgumentException("a property is name=value: '" + p + "'");
      }
      args.add("-p");
      args.add(p);
    }
    return args;
  }

  /**
   * The workload file for {@code name}: a core workload's letter ({@code a} … {@code f}, copied
   * from the resources into {@code tmp}) or the path of an existing file.
   */
  public static Path workloadFile(String name, Path tmp) throws IOException {
    String letter = name.toLowerCase(Locale.ROOT);
    if (letter.matches("[a-f]")) {
      Path out = tmp.resolve("workload" + letter);
      try (InputStream in = YcsbRun.class.getResourceAsStream("/workloads/workload" + letter)) {
        Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
      }
      return out;
    }
    Path file = Path.of(name);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no workload '" + name + "': give a, b, c, d, e, f or a workload file");
    }
    return file;
  }

  /** Runs YCSB's client in a child JVM on this process's class path; returns its exit status. */
  public static int fork(List<String> clientArgs) throws IOException, InterruptedException {
    return fork(clientArgs, ProcessBuilder.Redirect.INHERIT);
  }

  /** The child JVM's flags unless the caller gives its own. */
  public static final List<String> DEFAULT_JVM_FLAGS = List.of("-Xmx2g", "-XX:+UseG1GC");

  /** As {@link #fork(List)}, with the child's output (and errors) sent to {@code out}. */
  public static int fork(List<String> clientArgs, ProcessBuilder.Redirect out) throws IOException, InterruptedException {
    return fork(DEFAULT_JVM_FLAGS, clientArgs, out);
  }

  /** As {@link #fork(List, ProcessBuilder.Redirect)}, with these JVM flags instead of the defaults. */
  public static int fork(List<String> jvmFlags, List<String> clientArgs, ProcessBuilder.Redirect out)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmFlags);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "site.ycsb.Client"));
    cmd.addAll(clientArgs);
    return new ProcessBuilder(cmd).redirectOutput(out).redirectErrorStream(true).start().waitFor();
  }
}
