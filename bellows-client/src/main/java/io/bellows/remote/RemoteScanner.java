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
 */
final class RemoteScanner implements RowScanner {
  private final ClientCall<ScanRequest, ScanResponse> call;
  private final Iterator<ScanResponse> stream;
  private Iterator<Row> batch = List.<Row>of().iterator();
  private boolean done;

  /**
   * Starts the scan and waits for its first message (or its end, or its error), so that an error
   * of the scan itself — an unknown table, a bad query — is thrown here, as the embedded engine
   * throws it when a scanner is opened, not at the first row. Throws the call's {@link
   * StatusRuntimeException} as it is, for the caller's retries.
   */
  RemoteScanner(ClientCall<ScanRequest, ScanResponse> call, ScanRequest request) {
    this.call = call;
    this.stream = ClientCalls.blockingServerStreamingCall(call, request);
    stream.hasNext();
  }

  @Override
  public boolean nextRow(List<Cell> out) {
    if (done) {
      return false;
    }
    try {
      while (!batch.hasNext()) {
        if (!stream.hasNext()) {
          done = true;
          return false;
        }
        batch = stream.next().getRowsList().iterator();
      }
    } catch (StatusRuntimeException e) {
      done = true;
      throw WireErrors.toException(e);
    }
    out.addAll(Wire.fromWire(batch.next()));
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
