package io.bellows.remote;

import io.bellows.cell.Cell;
import io.bellows.protocol.Row;
import io.bellows.protocol.ScanRequest;
import io.bellows.protocol.ScanResponse;
import io.bellows.scan.RowScanner;
import io.bellows.wire.Wire;
import io.bellows.wire.WireErrors;
import io.grpc.ClientCall;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.util.Iterator;
import java.util.List;

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
   * StatusRuntimeException} as it is, for the caller's retries.
   */
  RemoteScanner(Opener opener, Retrier retrier, ScanRequest request) {
    this.opener = opener;
    this.retrier = retrier;
    this.request = request;
    this.call = opener.open();
    this.stream = ClientCalls.blockingServerStreamingCall(call, request);
    if (stream.hasNext()) {
      ScanResponse first = stream.next(); // read now: whether the rows may be stale is known at open
      stale = first.getStale();
      batch = first.getRowsList().iterator();
    }
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
