package io.bellows.hbase;

import io.bellows.config.EngineOptions;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One embedded engine per data directory for the whole JVM, shared by every connection to it and
 * closed when the last one is (a directory can be opened by one engine at a time).
 */
final class SharedEngines {
  private static final Map<Path, Entry> OPEN = new HashMap<>();

  private static final class Entry {
    final Engine engine;
    int users;

    Entry(Engine engine) {
      this.engine = engine;
    }
  }

  private SharedEngines() {}

  static synchronized Engine acquire(Path dir) {
    Path key = dir.toAbsolutePath().normalize();
    Entry e = OPEN.get(key);
    if (e == null) {
      e = new Entry(LocalEngine.open(key, EngineOptions.defaults()));
      OPEN.put(key, e);
    }
    e.users++;
    return e.engine;
  }

  static synchronized void release(Path dir) {
    Path key = dir.toAbsolutePath().normalize();
    Entry e = OPEN.get(key);
    if (e != null && --e.users == 0) {
      OPEN.remove(key);
      e.engine.close();
    }
  }

  /** How many connections share the directory's engine (0 when it is closed); for tests. */
  static synchronized int users(Path dir) {
    Entry e = OPEN.get(dir.toAbsolutePath().normalize());
    return e == null ? 0 : e.users;
  }
}
