package io.bellows.remote;

import io.bellows.cell.Cell;
import io.bellows.protocol.Row;
import io.bellows.protocol.ScanRequest;
import io.bellows.protocol.ScanResponse;
import io.bellows.scan.RowScanner;
import io.bellows.wire.Wire;
import io.bellows.wire.WireErrors;
import io.grpc.ClientCall;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The rows of a server-streaming scan. The stream asks the server for one message at a time, as
 * rows are read, so the client holds at most one message beyond what the transport's flow-control
 * window lets the server send ahead. Closing it before the end cancels the call, and the server
 * closes its scanner. Not thread-safe.
 *
 * <p>A stream that fails after it started with an error a read may retry (the server unreachable,
 * or throttled) is resumed as HBase's client resumes a scan: a new call from just after the last
 * row returned, with the limit less the rows returned — so no row is returned twice or skipped.
 * As across regions, the resumed part is read at a later point in time.
 */
final class RemoteScanner implements RowScanner {
  /**
   * Cancels scans whose first answer is late ({@code firstAnswerBy}): one daemon thread for every
   * scanner of the process, idle unless a scan is opening within an attempt deadline.
   */
  private static final ScheduledThreadPoolExecutor TIMER = timer();

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "bellows-scan-open-deadline");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true); // a scan answered in time leaves nothing queued
    return timer;
  }

  /** Opens a scan call. */
  interface Opener {
    ClientCall<ScanRequest, ScanResponse> open();
  }

  private final Opener opener;
  private final Retrier retrier;
  private final ScanRequest request;
  private ClientCall<ScanRequest, ScanResponse> call;
  private Iterator<ScanResponse> stream;
  private Iterator<Row> batch = List.<Row>of().iterator();
  private boolean done;
  private byte[] lastRow;
  private long rowsReturned;
  private int failures;
  private boolean stale;

  /**
   * Starts the scan and waits for its first message (or its end, or its error), so that an error
   * of the scan itself — an unknown table, a bad query — is thrown here, as the embedded engine
   * throws it when a scanner is opened, not at the first row. Throws the call's {@link
   * StatusRuntimeException} as it is, for the caller's retries. With {@code firstAnswerBy} ({@link
   * System#nanoTime()}; null: no bound), a first message that has not come by then cancels the call
   * and fails it {@code DEADLINE_EXCEEDED}, as a unary call's deadline would: a cluster's attempt at
   * a member that stopped answering (SIGSTOPped) ends there, while the stream itself, once it
   * started, has no deadline but the scan's own.
   */
  RemoteScanner(Opener opener, Retrier retrier, ScanRequest request, Long firstAnswerBy) {
    this.opener = opener;
    this.retrier = retrier;
    this.request = request;
    ClientCall<ScanRequest, ScanResponse> opened = opener.open();
    this.call = opened;
    AtomicBoolean decided = new AtomicBoolean(); // set once: by the first answer, or by the timer
    ScheduledFuture<?> late = firstAnswerBy == null ? null : TIMER.schedule(() -> {
      if (decided.compareAndSet(false, true)) {
        opened.cancel("no first answer within the attempt deadline", null);
      }
    }, firstAnswerBy - System.nanoTime(), TimeUnit.NANOSECONDS);
    try {
      this.stream = ClientCalls.blockingServerStreamingCall(opened, request);
      if (stream.hasNext()) {
        ScanResponse first = stream.next(); // read now: whether the rows may be stale is known at open
        stale = first.getStale();
        batch = first.getRowsList().iterator();
      }
    } catch (StatusRuntimeException e) {
      throw late != null && !decided.compareAndSet(false, true) ? timedOut() : e;
    } finally {
      if (late != null) {
        late.cancel(false);
      }
    }
    if (late != null && !decided.compareAndSet(false, true)) {
      opened.cancel("no first answer within the attempt deadline", null); // the timer's cancel may be under way
      throw timedOut();
    }
  }

  private static StatusRuntimeException timedOut() {
    return Status.DEADLINE_EXCEEDED.withDescription("the scan's first answer did not come within the attempt deadline")
        .asRuntimeException();
  }

  @Override
  public boolean mayBeStale() {
    return stale;
  }

  @Override
  public boolean nextRow(List<Cell> out) {
    if (done) {
      return false;
    }
    while (!batch.hasNext()) {
      try {
        if (!stream.hasNext()) {
          done = true;
          return false;
        }
        ScanResponse next = stream.next();
        stale |= next.getStale();
        batch = next.getRowsList().iterator();
      } catch (StatusRuntimeException e) {
        if (!resume(e)) {
          done = true;
          throw WireErrors.toException(e);
        }
      }
    }
    Row row = batch.next();
    lastRow = row.getRow().toByteArray();
    rowsReturned++;
    out.addAll(Wire.fromWire(row));
    return true;
  }

  /** After a failure mid-stream: opens the rest of the scan if the error allows; false if not. */
  private boolean resume(StatusRuntimeException e) {
    if (!retrier.pauseBeforeRetry(e, ++failures)) {
      return false;
    }
    var query = request.getQuery().toBuilder();
    if (lastRow != null) {
      query.setStartRow(com.google.protobuf.ByteString.copyFrom(lastRow)).setStartInclusive(false);
    }
    if (request.getQuery().getLimit() > 0) {
      long left = request.getQuery().getLimit() - rowsReturned;
      if (left <= 0) {
        batch = List.<Row>of().iterator();
        stream = java.util.Collections.emptyIterator();
        return true;
      }
      query.setLimit(left);
    }
    call = opener.open();
    stream = ClientCalls.blockingServerStreamingCall(call, request.toBuilder().setQuery(query).build());
    batch = List.<Row>of().iterator();
    return true;
  }

  @Override
  public void close() {
    if (!done) {
      done = true;
      call.cancel("scanner closed by the client", null);
    }
  }
}
