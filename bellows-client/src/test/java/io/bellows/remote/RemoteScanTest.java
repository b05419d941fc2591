package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.util.Bytes;
import io.bellows.wire.RemoteCallException;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Server-streaming scans: flow control against a slow reader, early close, deadlines. */
class RemoteScanTest {
  private static final int ROWS = 20_000;

  @TempDir
  Path dir;

  /** Records the first pause of a scan and the end of every scan. */
  private static final class Events implements ServerEvents {
    final AtomicLong rowsAtFirstPause = new AtomicLong(-1);
    final CountDownLatch paused = new CountDownLatch(1);
    final CountDownLatch closed = new CountDownLatch(1);
    final AtomicBoolean closedByCancel = new AtomicBoolean();

    @Override
    public void scanPaused(long rowsSent) {
      if (rowsAtFirstPause.compareAndSet(-1, rowsSent)) {
        paused.countDown();
      }
    }

    @Override
    public void scanClosed(long rowsSent, boolean cancelled) {
      closedByCancel.set(cancelled);
      closed.countDown();
    }
  }

  private static void fill(Bellows db) {
    db.createTable(TableDescriptor.builder("t").family("f").build());
    Table t = db.getTable("t");
    byte[] value = new byte[512];
    Arrays.fill(value, (byte) 'x');
    List<Put> batch = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      batch.add(new Put(Bytes.of(String.format("row%06d", i))).addColumn(Bytes.of("f"), Bytes.of("q"), value));
      if (batch.size() == 1000) {
        t.put(batch);
        batch = new ArrayList<>();
      }
    }
  }

  @Test
  void aSlowReaderHoldsTheServerToAboutOneWindowOfRows() throws Exception {
    Events events = new Events();
    try (ServerFixture f = new ServerFixture(dir, ServerConfig.defaults(), events);
        Bellows db = f.connect(RemoteOptions.defaults().withFlowControlWindow(65_535))) {
      fill(db);
      try (ResultScanner s = db.getTable("t").getScanner(new Scan())) {
        assertThat(Bytes.str(s.next().row())).isEqualTo("row000000");
        // The reader stops here: the server must stop reading ahead rather than buffer the table.
        assertThat(events.paused.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(events.rowsAtFirstPause.get()).as("rows sent before the first pause").isLessThan(ROWS / 4);
        int n = 1;
        for (Result r = s.next(); r != null; r = s.next()) {
          assertThat(Bytes.str(r.row())).isEqualTo(String.format("row%06d", n));
          n++;
        }
        assertThat(n).isEqualTo(ROWS);
      }
      assertThat(events.closed.await(60, TimeUnit.SECONDS)).isTrue();
      assertThat(events.closedByCancel).isFalse();
    }
  }

  @Test
  void closingAScannerEarlyClosesTheServersScanner() throws Exception {
    Events events = new Events();
    try (ServerFixture f = new ServerFixture(dir, ServerConfig.defaults(), events);
        Bellows db = f.connect(RemoteOptions.defaults().withFlowControlWindow(65_535))) {
      fill(db);
      ResultScanner s = db.getTable("t").getScanner(new Scan());
      assertThat(s.next()).isNotNull();
      s.close();
      assertThat(events.closed.await(60, TimeUnit.SECONDS)).isTrue();
      assertThat(events.closedByCancel).isTrue();
      assertThat(s.next()).isNull();
    }
  }

  @Test
  void aScanPastItsDeadlineEndsOnBothSides() throws Exception {
    Events events = new Events();
    try (ServerFixture f = new ServerFixture(dir, ServerConfig.defaults(), events);
        Bellows db = f.connect(RemoteOptions.defaults().withFlowControlWindow(65_535))) {
      fill(db);
      try (Bellows late = f.connect(RemoteOptions.defaults().withFlowControlWindow(65_535)
          .withScanDeadline(Duration.ofMillis(200)))) {
        ResultScanner s = late.getTable("t").getScanner(new Scan());
        assertThat(s.next()).isNotNull();
        // The reader stalls past the deadline: the server cancels the call and closes its scanner.
        assertThat(events.closed.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(events.closedByCancel).isTrue();
        assertThatThrownBy(() -> {
          while (s.next() != null) {
            // drain what arrived before the deadline
          }
        }).isInstanceOfSatisfying(RemoteCallException.class,
            e -> assertThat(e.code()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        s.close();
      }
    }
  }
}
