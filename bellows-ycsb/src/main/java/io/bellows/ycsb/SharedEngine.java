package io.bellows.ycsb;

import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One engine per data directory for all the {@link BellowsClient}s of a JVM: YCSB makes one client
 * per thread, and a directory can be open in one engine only. Reference-counted: the last client's
 * {@code cleanup} closes it. Thread-safe.
 */
final class SharedEngine {
  private static final Map<Path, SharedEngine> OPEN = new HashMap<>();

  private final Path dir;
  private final Bellows db;
  private final PrintStream metricsOut;
  private int users;

  private SharedEngine(Path dir, Bellows db, PrintStream metricsOut) {
    this.dir = dir;
    this.db = db;
    this.metricsOut = metricsOut;
  }

  /**
   * The engine of {@code dir}, opened with {@code options} by the first caller; if that caller gives
   * a {@code metricsOut}, the engine's metrics are printed there, one per line, before it closes.
   */
  static synchronized SharedEngine acquire(Path dir, EngineOptions options, PrintStream metricsOut) {
    Path key = dir.toAbsolutePath().normalize();
    SharedEngine e = OPEN.get(key);
    if (e == null) {
      e = new SharedEngine(key, Bellows.open(key, options), metricsOut);
      OPEN.put(key, e);
    }
    e.users++;
    return e;
  }

  Bellows db() {
    return db;
  }

  /** Drops this caller's reference; the last one closes the engine. */
  void release() {
    synchronized (SharedEngine.class) {
      if (--users == 0) {
        OPEN.remove(dir);
        if (metricsOut != null) {
          new TreeMap<>(db.metrics()).forEach((name, value) -> metricsOut.println("[METRIC] " + name + " " + value));
          metricsOut.flush();
        }
        db.close();
      }
    }
  }
}
