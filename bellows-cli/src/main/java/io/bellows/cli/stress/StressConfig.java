package io.bellows.cli.stress;

import io.bellows.config.Durability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One stress run's settings, as given on the command line.
 *
 * @param dir the stress directory: the store in {@code db/}, the expected state in {@code expected.state}
 * @param killEvery mean time between SIGKILLs of the process doing the work, or null for none
 * @param settings engine, table and family knobs by name, as {@code --set name=value}
 * @param fs where the store lives and how it fails
 * @param faultRate with {@link FsMode#FAULTY} or {@link FsMode#CRASHABLE}: the share of file reads, writes, syncs, renames and creations that fail in a fault window
 */
public record StressConfig(Path dir, int threads, int keys, int columns, int valueSize,
    Duration duration, Duration killEvery, Duration reportEvery, long seed, Durability durability,
    Map<String, String> settings, FsMode fs, double faultRate) {

  /** Where the store lives, and how it fails. */
  public enum FsMode {
    /** The local disk; --kill-every kills processes with SIGKILL. */
    LOCAL,
    /** In memory, in this process; --kill-every simulates power losses (unsynced data lost, tails torn or garbled), every other one ending a fault window. */
    CRASHABLE,
    /** The local disk with injected I/O errors (EIO, ENOSPC, failed fsync) in windows of --kill-every. */
    FAULTY
  }

  /** The arguments that give a child process this configuration, for {@code duration} and {@code seed}. */
  List<String> childArgs(Duration childDuration, long childSeed) {
    List<String> a = new java.util.ArrayList<>(List.of("stress", "--child",
        "--dir", dir.toString(), "--threads", Integer.toString(threads), "--keys", Integer.toString(keys),
        "--columns", Integer.toString(columns), "--value-size", Integer.toString(valueSize),
        "--duration", childDuration.toMillis() + "ms", "--seed", Long.toString(childSeed),
        "--durability", durability.name()));
    // Children run only for LOCAL (SIGKILL) runs.
    settings.forEach((k, v) -> {
      a.add("--set");
      a.add(k + "=" + v);
    });
    return a;
  }
}
