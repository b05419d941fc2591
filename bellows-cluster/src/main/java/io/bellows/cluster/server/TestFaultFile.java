package io.bellows.cluster.server;

import io.bellows.cluster.TransportFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TEST ONLY: the faults a test's nemesis injects into running members, through a file every
 * member polls ({@link #POLL_MILLIS}). Only {@code bellows server --test-faults FILE}, an option
 * hidden from the help and documented as test-only, makes a member read one; without it no fault
 * can be injected. The file, the same for every member, holds lines of:
 *
 * <ul>
 *   <li>{@code cut A B}: Raft messages between members A and B are lost, both ways (each member
 *       refuses the requests of a peer it is cut off from, {@link TransportFaults}); isolating a
 *       member is a cut to each other one;
 *   <li>{@code stale-reads}: every member answers reads from its own replica, leader or not,
 *       without the read barrier: what a checker of histories must reject.
 * </ul>
 *
 * Blank lines and {@code #} comments are ignored; an absent file means no fault. A file that does
 * not parse is refused at the start (the member does not start) and, later, logged and ignored (the
 * faults before it stay).
 */
public final class TestFaultFile implements TransportFaults, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TestFaultFile.class);
  /** How often the file is read: a fault takes effect within this time of being written. */
  public static final long POLL_MILLIS = 20;

  /** What the file says now. */
  record Faults(Set<String> cuts, boolean staleReads) {
    static final Faults NONE = new Faults(Set.of(), false);

    boolean cut(String a, String b) {
      return cuts.contains(pair(a, b));
    }
  }

  private final Path file;
  private final ScheduledExecutorService poller;
  private volatile Faults current;
  private String lastText;

  private TestFaultFile(Path file, Faults initial, String text) {
    this.file = file;
    this.current = initial;
    this.lastText = text;
    this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "bellows-test-faults");
      t.setDaemon(true);
      return t;
    });
    poller.scheduleWithFixedDelay(this::poll, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Reads {@code file} now (it need not exist) and polls it from then on; a file that does not parse is refused. */
  public static TestFaultFile watch(Path file) {
    String text = read(file);
    Faults faults;
    try {
      faults = parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the test fault file " + file + ": " + e.getMessage(), e);
    }
    LOG.warn("TEST ONLY: this member takes injected faults (partitions, stale reads) from {}; never run it so in"
        + " production", file);
    return new TestFaultFile(file, faults, text);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return "";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the test fault file " + file, e);
    }
  }

  static Faults parse(String text) {
    Set<String> cuts = new HashSet<>();
    boolean staleReads = false;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      String[] words = (hash >= 0 ? line.substring(0, hash) : line).trim().split("\\s+");
      if (words.length == 1 && words[0].isEmpty()) {
        continue;
      }
      if (words[0].equals("cut") && words.length == 3 && !words[1].equals(words[2])) {
        cuts.add(pair(words[1], words[2]));
      } else if (words[0].equals("stale-reads") && words.length == 1) {
        staleReads = true;
      } else {
        throw new IllegalArgumentException("line " + (i + 1) + " is neither 'cut A B' (two different members) nor"
            + " 'stale-reads': " + line.trim());
      }
    }
    return cuts.isEmpty() && !staleReads ? Faults.NONE : new Faults(Set.copyOf(cuts), staleReads);
  }

  private static String pair(String a, String b) {
    return a.compareTo(b) < 0 ? a + " " + b : b + " " + a;
  }

  /** Reads the file again (the poller does every {@link #POLL_MILLIS}; a test may call it itself). */
  synchronized void poll() {
    String text;
    try {
      text = read(file);
    } catch (UncheckedIOException e) {
      return; // being replaced: the next poll reads it
    }
    if (text.equals(lastText)) {
      return;
    }
    lastText = text;
    try {
      current = parse(text);
      LOG.info("TEST ONLY: injected faults now: {}", current);
    } catch (IllegalArgumentException e) {
      LOG.warn("TEST ONLY: ignoring the test fault file {}: {}", file, e.getMessage());
    }
  }

  @Override
  public boolean drops(String from, String to) {
    return current.cut(from, to);
  }

  /** Whether reads skip the leader and its read barrier. */
  public boolean staleReads() {
    return current.staleReads();
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
