package io.bellows.cli;

import io.bellows.cli.stress.StressConfig;
import io.bellows.cli.stress.StressDriver;
import io.bellows.config.Durability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bellows stress --dir DIR [--duration 60s] [--kill-every 10s] ...}: mixed operations from
 * several threads against an embedded engine, every read checked against an expected state kept
 * beside the store, optionally SIGKILLing the process at random moments and verifying every key
 * after each reopen.
 */
@Command(name = "stress", mixinStandardHelpOptions = true,
    description = {"Runs mixed puts, deletes, batches, gets and scans from several threads against an embedded"
        + " store, with flushes, compactions and region splits, checking every read against the expected state"
        + " kept beside the store. With --kill-every the work runs in child processes killed with SIGKILL at"
        + " random moments; after each kill the store is reopened and every key verified: every acknowledged"
        + " write must be there, and no row half-written. Prints progress, then a summary; the violations"
        + " must be 0."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:no violation and no failed operation", "1:violations or failed operations (printed)",
        "2:invalid command line"})
final class StressSubcommand implements Callable<Integer> {
  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "The stress directory: new or empty, or one an earlier stress run made (it goes on from"
          + " there, verifying first). The store is in DIR/db, the expected state in DIR/expected.state.")
  Path dir;

  @Option(names = "--duration", defaultValue = "60s", paramLabel = "TIME", converter = DurationConverter.class,
      description = "How long to run: 90 (seconds), 30s, 5m, 1h, 500ms (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(names = "--kill-every", paramLabel = "TIME", converter = DurationConverter.class,
      description = "Run the work in child processes and SIGKILL each after a random time, on average this"
          + " (0.5x to 1.5x), then verify the store in the next. Default: no kills; the store is closed,"
          + " reopened and verified at the end.")
  Duration killEvery;

  @Option(names = "--threads", defaultValue = "4", paramLabel = "N", description = "Worker threads (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--keys", defaultValue = "10000", paramLabel = "N", description = "Rows in the key space (default: ${DEFAULT-VALUE}).")
  int keys;

  @Option(names = "--columns", defaultValue = "3", paramLabel = "N",
      description = "Columns written together in each row (default: ${DEFAULT-VALUE}).")
  int columns;

  @Option(names = "--value-size", defaultValue = "100", paramLabel = "BYTES",
      description = "Bytes per value, at least 16 (default: ${DEFAULT-VALUE}).")
  int valueSize;

  @Option(names = "--durability", defaultValue = "FSYNC_WAL", paramLabel = "SYNC_WAL|FSYNC_WAL",
      description = "The table's durability; every acknowledged write must survive a kill (default: ${DEFAULT-VALUE}).")
  Durability durability;

  @Option(names = "--seed", paramLabel = "N", description = "Seed of the operation mix and kill times (default: random, printed).")
  Long seed;

  @Option(names = "--set", paramLabel = "name=value",
      description = "An engine, table or family setting by name (the README's configuration table), e.g."
          + " --set IN_MEMORY_COMPACTION=EAGER --set MEMSTORE_FLUSHSIZE=1M. Repeatable.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--report-every", defaultValue = "10s", paramLabel = "TIME", converter = DurationConverter.class,
      description = "Progress line interval (default: ${DEFAULT-VALUE}).")
  Duration reportEvery;

  @Option(names = "--fs", defaultValue = "local", paramLabel = "local|crashable|faulty",
      converter = FsModeConverter.class,
      description = {"local (default): the store on disk; --kill-every kills processes with SIGKILL.",
          "crashable: the store in a crashable in-memory file system, in this process; --kill-every simulates"
              + " power losses while the writers run (unsynced data lost, unsynced tails torn at a random byte"
              + " or torn and followed by garbage, unsynced directory changes undone), then reopens and verifies"
              + " every key; every other power loss ends a window of injected faults as with faulty.",
          "faulty: the store on disk behind a fault-injecting file system; for windows of --kill-every,"
              + " --fault-rate of file reads, writes, syncs, renames and creations fail with EIO, ENOSPC or a failed"
              + " fsync; after each window the store is reopened and every key verified."})
  io.bellows.cli.stress.StressConfig.FsMode fs;

  @Option(names = "--fault-rate", defaultValue = "0.002", paramLabel = "P",
      description = "With --fs faulty or crashable: the share of selected file operations that fail in a fault"
          + " window (default: ${DEFAULT-VALUE}).")
  double faultRate;

  @Option(names = "--child", hidden = true, description = "Internal: one child process of a --kill-every run.")
  boolean child;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (threads < 1 || keys < 2 || columns < 1) {
      throw new ParameterException(spec.commandLine(), "--threads must be at least 1, --keys at least 2 and"
          + " --columns at least 1");
    }
    if (valueSize < 16) {
      throw new ParameterException(spec.commandLine(), "--value-size must be at least 16: " + valueSize);
    }
    if (durability != Durability.SYNC_WAL && durability != Durability.FSYNC_WAL) {
      throw new ParameterException(spec.commandLine(), "--durability must be SYNC_WAL or FSYNC_WAL: with "
          + durability + " an acknowledged write may be lost in a kill by design, so loss could not be told"
          + " from a bug");
    }
    if (fs != io.bellows.cli.stress.StressConfig.FsMode.LOCAL && killEvery == null) {
      throw new ParameterException(spec.commandLine(), "--fs " + fs.name().toLowerCase(java.util.Locale.ROOT)
          + " needs --kill-every: how often the file system fails");
    }
    if (faultRate <= 0 || faultRate >= 1) {
      throw new ParameterException(spec.commandLine(), "--fault-rate must be between 0 and 1: " + faultRate);
    }
    if (killEvery != null && killEvery.toMillis() < 100) {
      throw new ParameterException(spec.commandLine(), "--kill-every must be at least 100ms: " + killEvery);
    }
    try { // read by the knob registry's parser now, so that a wrong one fails before the directory is touched
      io.bellows.config.KnobAssignments.of(settings);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--set " + e.getMessage());
    }
    long s = seed != null ? seed : new java.security.SecureRandom().nextLong();
    StressConfig config = new StressConfig(dir.toAbsolutePath(), threads, keys, columns, valueSize, duration,
        killEvery, reportEvery, s, durability, settings, fs, faultRate);
    java.io.PrintStream out = child ? System.out
        : LinePrintStream.over(spec.commandLine().getOut());
    StressDriver driver = new StressDriver(config, out);
    if (child) {
      driver.child();
      return 0;
    }
    StressDriver.Summary summary;
    try {
      summary = driver.run();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    summary.print(out);
    out.println("replay with --seed " + s);
    out.flush();
    return summary.violations() == 0 && summary.errors() == 0 ? 0 : 1;
  }

  /** Reads local, crashable or faulty in any case. */
  static final class FsModeConverter implements CommandLine.ITypeConverter<io.bellows.cli.stress.StressConfig.FsMode> {
    @Override
    public io.bellows.cli.stress.StressConfig.FsMode convert(String value) {
      try {
        return io.bellows.cli.stress.StressConfig.FsMode.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException("not a file system: '" + value + "' (local, crashable or faulty)");
      }
    }
  }

  /** Reads 90, 90s, 5m, 1h or 500ms. */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern P = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
      Matcher m = P.matcher(value.trim().toLowerCase(java.util.Locale.ROOT));
      if (!m.matches()) {
        throw new CommandLine.TypeConversionException("not a time: '" + value + "' (e.g. 90, 30s, 5m, 1h, 500ms)");
      }
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      return switch (unit) {
        case "ms" -> Duration.ofMillis(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofSeconds(n);
      };
    }
  }
}
