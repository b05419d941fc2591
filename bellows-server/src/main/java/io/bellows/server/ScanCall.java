package io.bellows.server;

import io.bellows.cell.Cell;
import io.bellows.protocol.ScanResponse;
import io.bellows.scan.RowScanner;
import io.bellows.wire.Wire;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayList;
import java.util.List;

/**
 * One server-streaming scan, paced by the client: rows are read from the engine and sent only
 * while the call {@linkplain ServerCallStreamObserver#isReady() is ready} (the transport has room
 * under its flow-control window); when it is not, the scan returns and resumes from the call's
 * on-ready callback. So a slow client holds at most about one flow-control window plus one
 * message of rows in the server, never the rest of the scan.
 *
 * <p>Thread-safety: gRPC runs the start, the on-ready and the on-cancel callbacks of one call one at
 * a time, but on any of the server's threads; they also synchronize on this object so that the
 * scanner (not thread-safe) is always used under one lock and closed exactly once.
 */
final class ScanCall implements Runnable {
  /** How much one response message carries at most. */
  record Limits(int maxRows, long maxBytes) {
    static final Limits DEFAULT = new Limits(1000, 1 << 20);

    Limits forRequest(int batchRows) {
      return batchRows > 0 && batchRows < maxRows ? new Limits(batchRows, maxBytes) : this;
    }
  }

  private final ServerCallStreamObserver<ScanResponse> call;
  private final RowScanner scanner;
  private final Limits limits;
  private final ServerEvents events;
  private long rowsSent;
  private boolean closed;

  ScanCall(ServerCallStreamObserver<ScanResponse> call, RowScanner scanner, Limits limits, ServerEvents events) {
    this.call = call;
    this.scanner = scanner;
    this.limits = limits;
    this.events = events;
  }

  void start() {
    call.setOnCancelHandler(this::cancelled);
    call.setOnReadyHandler(this);
    run();
  }

  /** Sends while the transport has room; on-ready calls it again. */
  @Override
  public synchronized void run() {
    if (closed) {
      return;
    }
    try {
      while (call.isReady()) {
        if (call.isCancelled()) {
          close(true);
          return;
        }
        ScanResponse.Builder batch = ScanResponse.newBuilder();
        boolean more = fill(batch);
        if (batch.getRowsCount() > 0) {
          call.onNext(batch.build());
          rowsSent += batch.getRowsCount();
        }
        if (!more) {
          close(false);
          call.onCompleted();
          return;
        }
      }
      events.scanPaused(rowsSent);
    } catch (RuntimeException e) {
      close(false);
      call.onError(Calls.toStatus(e));
    }
  }

  /** Adds rows up to the limits; false when the scan has no more rows. */
  private boolean fill(ScanResponse.Builder batch) {
    long bytes = 0;
    List<Cell> cells = new ArrayList<>();
    while (batch.getRowsCount() < limits.maxRows() && bytes < limits.maxBytes()) {
      cells.clear();
      if (!scanner.nextRow(cells)) {
        return false;
      }
      for (Cell c : cells) {
        bytes += c.length();
      }
      batch.addRows(Wire.toWireRow(cells));
    }
    return true;
  }

  private synchronized void cancelled() {
    close(true);
  }

  private void close(boolean cancelled) {
    if (!closed) {
      closed = true;
      scanner.close();
      events.scanClosed(rowsSent, cancelled);
    }
  }
}
