package io.bellows.cli.shell;

import io.bellows.config.EngineOptions;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import io.bellows.engine.VerifyReport;
import io.bellows.fs.MemFileSystem;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shell's tests run against the real embedded engine: a {@link LocalEngine} on a {@link
 * MemFileSystem}, its clock stopped at 1000 ms so printed timestamps are fixed. The shell sees it
 * through a proxy that records the admin calls whose effect output does not show (flush,
 * compactions, splits, resume, verify, close), and that lets a test stand in for what the engine
 * says only under faults or varies from run to run: a background error (cleared by resume), a
 * verify report, a flush that fails once, the metrics. Not thread-safe, as the shell.
 */
final class TestEngine implements InvocationHandler {
  /** The engine's clock, in milliseconds: the timestamp of a put without one. */
  static final long NOW = 1000;

  private final Engine real = LocalEngine.open(Path.of("/shell-test/data"),
      EngineOptions.builder().clock(new Clock.Manual(NOW)).build(), new MemFileSystem());
  private final Engine proxy = (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(),
      new Class<?>[] {Engine.class}, this);

  final List<String> calls = new ArrayList<>();
  /** What backgroundError() answers instead of the engine (null: the engine's answer); resume() clears it. */
  BackgroundError backgroundError;
  /** What verify() answers instead of the engine (null: the engine's report). */
  VerifyReport verifyReport;
  /** What {@code balance()} answers (a cluster's hand-overs). */
  int balanced;
  /** Thrown by the next flush instead of flushing. */
  RuntimeException flushFailure;
  /** What metrics() and storeMetrics() answer instead of the engine's (null: the engine's). */
  Map<String, Number> metrics;
  Map<String, Map<String, Number>> storeMetrics;
  /** The member leading every region, for moveLeader() once clusterStatus is set (a move hands it over). */
  String regionLeader = "m1";
  /** What clusterStatus() answers instead of the engine (null: the engine's, none). */
  io.bellows.engine.ClusterStatus clusterStatus;

  /** The engine as the shell sees it. */
  Engine engine() {
    return proxy;
  }

  TableDescriptor describeTable(String table) {
    return real.describeTable(table);
  }

  /**
   * Writes and flushes, past the shell's view (nothing recorded), rows r0000..r0999 of 200 bytes into
   * family {@code f} of {@code table}: a sorted file of several blocks, with a middle key to split at.
   */
  void writeBlocks(String table, String family) {
    io.bellows.client.Table t = io.bellows.client.Bellows.over(real).getTable(table);
    for (int i = 0; i < 1000; i++) {
      t.put(new io.bellows.client.Put(String.format("r%04d", i)).addColumn(family, "q", "v".repeat(200)));
    }
    real.flush(table);
  }

  boolean closed() {
    return calls.contains("close");
  }

  /** Closes the engine at the end of a test. */
  void closeEngine() {
    real.close();
  }

  @Override
  public Object invoke(Object self, Method m, Object[] args) throws Throwable {
    String name = m.getName();
    switch (name) {
      case "backgroundError":
        if (backgroundError != null) {
          return Optional.of(backgroundError);
        }
        break;
      case "resume":
        calls.add("resume");
        backgroundError = null;
        break;
      case "balance":
        calls.add("balance");
        return balanced;
      case "verify":
        calls.add("verify");
        if (verifyReport != null) {
          return verifyReport;
        }
        break;
      case "flush":
        real.describeTable((String) args[0]); // an unknown table fails first, as it would
        if (flushFailure != null) {
          RuntimeException e = flushFailure;
          flushFailure = null;
          throw e;
        }
        calls.add("flush " + args[0]);
        break;
      case "compact", "majorCompact":
        calls.add(("compact".equals(name) ? "compact " : "major_compact ") + args[0]);
        break;
      case "split":
        calls.add("split " + args[0] + (args.length == 2 ? " " + Bytes.toStringBinary((byte[]) args[1]) : ""));
        break;
      case "metrics":
        if (metrics != null) {
          return metrics;
        }
        break;
      case "storeMetrics":
        if (storeMetrics != null) {
          real.describeTable((String) args[0]);
          return storeMetrics;
        }
        break;
      case "clusterStatus":
        if (clusterStatus != null) {
          return Optional.of(clusterStatus);
        }
        break;
      case "moveLeader":
        if (clusterStatus != null) {
          real.describeTable((String) args[0]); // an unknown table fails first, as it would
          String to = args[2] == null ? "m2" : (String) args[2];
          calls.add("moveLeader " + args[0] + " " + Bytes.toStringBinary((byte[]) args[1]) + " " + args[2]);
          io.bellows.engine.LeaderMove move = new io.bellows.engine.LeaderMove(regionLeader, to);
          regionLeader = to;
          return move;
        }
        break;
      case "addServer":
        if (clusterStatus != null) {
          calls.add("addServer " + args[0] + " " + args[1] + " " + args[2]);
          return null;
        }
        break;
      case "close":
        calls.add("close");
        return null; // the test closes the engine
      default:
        break;
    }
    try {
      return m.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
