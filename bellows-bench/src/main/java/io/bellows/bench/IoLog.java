package io.bellows.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The disk writes of one run, event by event: every flush and compaction a store reports, kept in
 * memory while the run goes (a store's callback only appends to a queue) and written as a CSV when
 * it ends. It shows where a run's write volume goes, which the totals of Table 2 cannot: how many
 * files each compaction merged and how large they were.
 *
 * <p>CSV columns: {@code ms} (since the log was created), {@code event} ({@code flush} or {@code
 * compaction}), {@code inputFiles} (0 for a flush), {@code inputBytes} (a flush: the memory
 * snapshot's data bytes for Bellows, the file's raw key and value bytes for RocksDB; a compaction:
 * its input files' size), {@code inputCells}, {@code outputBytes} (the written file's size),
 * {@code outputCells}, {@code durationMs}; −1 where the store does not tell.
 *
 * <p>Thread-safe for {@link #flush} and {@link #compaction}; {@link #write} after the run.
 */
final class IoLog {
  /** A log that keeps nothing, for runs without {@code --io-log}. */
  static final IoLog NONE = new IoLog(null);

  static final String HEADER = "ms,event,inputFiles,inputBytes,inputCells,outputBytes,outputCells,durationMs";

  private record Event(long nanos, String kind, long inputFiles, long inputBytes, long inputCells, long outputBytes,
      long outputCells, long durationMs) {}

  private final Path file;
  private final long start = System.nanoTime();
  private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();

  /** A log to be written to {@code file}, or one that keeps nothing if {@code file} is null. */
  IoLog(Path file) {
    this.file = file;
  }

  boolean enabled() {
    return file != null;
  }

  void flush(long inputBytes, long inputCells, long outputBytes, long outputCells, long durationMs) {
    add("flush", 0, inputBytes, inputCells, outputBytes, outputCells, durationMs);
  }

  void compaction(long inputFiles, long inputBytes, long inputCells, long outputBytes, long outputCells,
      long durationMs) {
    add("compaction", inputFiles, inputBytes, inputCells, outputBytes, outputCells, durationMs);
  }

  private void add(String kind, long inputFiles, long inputBytes, long inputCells, long outputBytes,
      long outputCells, long durationMs) {
    if (file != null) {
      events.add(new Event(System.nanoTime(), kind, inputFiles, inputBytes, inputCells, outputBytes, outputCells,
          durationMs));
    }
  }

  /** The CSV text of the events so far, in the order they were reported. */
  String csv() {
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    for (Event e : events) {
      lines.add(String.format(Locale.ROOT, "%d,%s,%d,%d,%d,%d,%d,%d", (e.nanos() - start) / 1_000_000, e.kind(),
          e.inputFiles(), e.inputBytes(), e.inputCells(), e.outputBytes(), e.outputCells(), e.durationMs()));
    }
    return String.join("\n", lines) + "\n";
  }

  /** Writes the CSV to the log's file (creating its directory); does nothing for {@link #NONE}. */
  void write() {
    if (file == null) {
      return;
    }
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, csv());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the I/O log " + file, e);
    }
  }
}
