package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import io.bellows.scan.RowScanner;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.util.Bytes;
import io.bellows.util.WritesStoppedException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan whose stream fails mid-way with an error a read may retry goes on from just after the last
 * row it returned, with what is left of its limit: every row exactly once, in order. The failures
 * are made by the served engine: its scanners throw after a given number of rows, a given number of
 * times; an error that may not be retried, or too many, still reaches the caller.
 */
class RemoteScanResumeTest {
  private static final int ROWS = 100;
  @TempDir Path dir;

  /** The engine, with scanners that fail after {@code failAfter} rows, the first {@code failures} times. */
  private static Engine failingScans(LocalEngine engine, int failAfter, AtomicInteger failures, AtomicInteger scans) {
    return (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(), new Class<?>[] {Engine.class},
        (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(engine, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("scan") && result instanceof RowScanner s) {
            scans.incrementAndGet();
            boolean fail = failures.getAndDecrement() > 0;
            return new RowScanner() {
              int rows;

              @Override
              public boolean nextRow(List<Cell> out) {
                if (fail && rows == failAfter) {
                  throw new WritesStoppedException("the engine stopped serving for a moment", null, null);
                }
                rows++;
                return s.nextRow(out);
              }

              @Override
              public void close() {
                s.close();
              }
            };
          }
          return result;
        });
  }

  private List<String> scanRows(int failAfter, int failures, Scan scan, AtomicInteger scans) {
    try (LocalEngine engine = LocalEngine.open(dir.resolve("d" + System.nanoTime()), EngineOptions.defaults())) {
      Bellows local = Bellows.over(engine); // not closed: closing it would close the engine
      local.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = local.getTable("t");
      for (int i = 0; i < ROWS; i++) {
        t.put(new Put(Bytes.of(String.format("row%03d", i))).addColumn("f", "q", "v" + i));
      }
      AtomicInteger left = new AtomicInteger(failures);
      try (BellowsServer server = BellowsServer.start(failingScans(engine, failAfter, left, scans),
              ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE);
          Bellows remote = RemoteEngine.connect("127.0.0.1:" + server.port(),
              RemoteOptions.defaults().withRetries(3, Duration.ofMillis(1), Duration.ofMillis(5)))) {
        List<String> rows = new ArrayList<>();
        try (ResultScanner s = remote.getTable("t").getScanner(scan)) {
          for (Result r : s) {
            rows.add(Bytes.str(r.row()));
          }
        }
        return rows;
      }
    }
  }

  private static List<String> expected(int from, int to) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(String.format("row%03d", i));
    }
    return out;
  }

  @Test
  void aStreamFailingMidWayResumesAfterTheLastRowReturned() {
    AtomicInteger scans = new AtomicInteger();
    assertThat(scanRows(30, 2, new Scan(), scans)).isEqualTo(expected(0, ROWS));
    assertThat(scans.get()).as("the first call and two resumptions").isEqualTo(3);
  }

  @Test
  void aResumedScanKeepsItsStartStopAndWhatIsLeftOfItsLimit() {
    AtomicInteger scans = new AtomicInteger();
    Scan scan = new Scan().withStartRow(Bytes.of("row010")).withStopRow(Bytes.of("row090")).setLimit(50);
    assertThat(scanRows(20, 1, scan, scans)).isEqualTo(expected(10, 60));
    assertThat(scans.get()).isEqualTo(2);
  }

  @Test
  void tooManyFailuresReachTheCaller() {
    AtomicInteger scans = new AtomicInteger();
    assertThatThrownBy(() -> scanRows(10, 5, new Scan(), scans)).isInstanceOf(WritesStoppedException.class);
    assertThat(scans.get()).as("three attempts").isEqualTo(3);
  }
}
