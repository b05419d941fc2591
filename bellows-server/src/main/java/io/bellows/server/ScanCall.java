package io.bellows.server;

import io.bellows.cell.Cell;
import io.bellows.protocol.ScanResponse;
import io.bellows.scan.RowScanner;
import io.bellows.wire.Wire;
import io.grpc.Status;
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
 * scanner (not thread-safe) is always used under one lock and closed exactly once. A scan that waits
 * for its client longer than its lease ({@link ScanLeases}) is ended with ABORTED.
 */
final class ScanCall implements Runnable {
  /**
   * How much one response message carries at most: rows, and bytes (one more row may pass them);
   * a single row larger than {@code maxRowBytes} ends the scan with RESOURCE_EXHAUSTED.
   */
  record Limits(int maxRows, long maxBytes, long maxRowBytes) {
    static final Limits DEFAULT = new Limits(1000, 1 << 20, 16 << 20);

    Limits forRequest(int batchRows) {
      return batchRows > 0 && batchRows < maxRows ? new Limits(batchRows, maxBytes, maxRowBytes) : this;
    }

    Limits withMaxRowBytes(long bytes) {
      return new Limits(maxRows, maxBytes, bytes);
    }
  }

  private final ServerCallStreamObserver<ScanResponse> call;
  private final RowScanner scanner;
  private final Limits limits;
  private final ServerEvents events;
  private final ScanLeases.Lease lease;
  private final long leaseMillis;
  /** Gives the call's admission slot back (see ThrottleInterceptor.RELEASE). */
  private final Runnable releaseSlot;
  private long rowsSent;
  private boolean closed;

  ScanCall(ServerCallStreamObserver<ScanResponse> call, RowScanner scanner, Limits limits, ServerEvents events,
      ScanLeases leases) {
    this.call = call;
    this.scanner = scanner;
    this.limits = limits;
    this.events = events;
    this.lease = leases.lease(this::leaseExpired);
    this.leaseMillis = leases.leaseMillis();
    Runnable release = ThrottleInterceptor.RELEASE.get();
    this.releaseSlot = release == null ? () -> {} : release;
  }

  void start() {
    call.setOnCancelHandler(this::cancelled);
    call.setOnReadyHandler(this);
    events.scanStarted();
    run();
  }

  /** Sends while the transport has room; on-ready calls it again. */
  @Override
  public synchronized void run() {
    if (closed) {
      return;
    }
    lease.reading();
    try {
      while (call.isReady()) {
        if (call.isCancelled()) {
          close(true);
          return;
        }
        ScanResponse.Builder batch = ScanResponse.newBuilder().setStale(scanner.mayBeStale());
        boolean more = fill(batch);
        // A stale read of no rows still says it was stale, in one empty message.
        if (batch.getRowsCount() > 0 || (!more && rowsSent == 0 && batch.getStale())) {
          call.onNext(batch.build());
          rowsSent += batch.getRowsCount();
        }
        if (!more) {
          close(false);
          call.onCompleted();
          return;
        }
      }
      lease.waiting();
      events.scanPaused(rowsSent);
    } catch (RuntimeException e) {
      // A cancelled call's scan may end here rather than in the cancel handler: the scan's own
      // check of the call (every few rows) met the cancellation first.
      boolean cancelled = call.isCancelled();
      close(cancelled);
      if (!cancelled) {
        call.onError(Calls.toStatus(e));
      }
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
      long rowBytes = 0;
      for (Cell c : cells) {
        rowBytes += c.length();
      }
      if (rowBytes > limits.maxRowBytes()) {
        throw Requests.exceeded("a row of " + rowBytes + " bytes is more than max.response.bytes (" + limits.maxRowBytes()
            + "); ask for fewer columns or versions");
      }
      bytes += rowBytes;
      batch.addRows(Wire.toWireRow(cells));
    }
    return true;
  }

  private synchronized void cancelled() {
    close(true);
  }

  /**
   * The client did not read for the lease's time: end the scan, free its files and its admission
   * slot. The end of the stream reaches the client once it reads what is on the way (at most about
   * one flow-control window and one message).
   */
  private synchronized void leaseExpired() {
    if (!closed) {
      close(true);
      releaseSlot.run();
      call.onError(Status.ABORTED.withDescription("scan ended by the server: its client read nothing for "
          + leaseMillis + " ms (scanner.lease.ms); resume it from the last row received").asRuntimeException());
      events.scanLeaseExpired(rowsSent);
    }
  }

  private void close(boolean cancelled) {
    if (!closed) {
      closed = true;
      lease.end();
      scanner.close();
      events.scanClosed(rowsSent, cancelled);
    }
  }
}
