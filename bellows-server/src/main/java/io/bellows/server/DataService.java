package io.bellows.server;

import io.bellows.cell.Cell;
import io.bellows.engine.Engine;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.protocol.BoolResponse;
import io.bellows.protocol.CheckAndMutateRequest;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.Empty;
import io.bellows.protocol.GetRequest;
import io.bellows.protocol.GetResponse;
import io.bellows.protocol.IncrementRequest;
import io.bellows.protocol.IncrementResponse;
import io.bellows.protocol.MultiGetRequest;
import io.bellows.protocol.MultiGetResponse;
import io.bellows.protocol.MutateRequest;
import io.bellows.protocol.MutateRowRequest;
import io.bellows.protocol.MutateRowResponse;
import io.bellows.protocol.Query;
import io.bellows.protocol.Row;
import io.bellows.protocol.ScanRequest;
import io.bellows.protocol.ScanResponse;
import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.wire.Wire;
import io.bellows.wire.WireAtomic;
import io.grpc.Context;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;

/** The Data service: reads and writes of one table per call. Thread-safe as the engine is. */
final class DataService extends DataGrpc.DataImplBase {
  private final Engine engine;
  private final Tables tables;
  private final ServerEvents events;
  private final ScanCall.Limits scanLimits;
  private final ServerLimits limits;
  private final ScanLeases leases;

  DataService(Engine engine, Tables tables, ServerEvents events, ScanCall.Limits scanLimits, ServerLimits limits,
      ScanLeases leases) {
    this.engine = engine;
    this.tables = tables;
    this.events = events;
    this.scanLimits = scanLimits.withMaxRowBytes(limits.maxResponseBytes());
    this.limits = limits;
    this.leases = leases;
  }

  @Override
  public void mutate(MutateRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      Requests.checkBatch("rows", request.getRowsCount(), limits);
      TableRef table = tables.resolve(request.getTable());
      List<RowMutation> rows = new ArrayList<>(request.getRowsCount());
      for (io.bellows.protocol.RowMutation m : request.getRowsList()) {
        Requests.check(m);
        rows.add(Wire.fromWire(m));
      }
      if (request.hasCall()) {
        engine.mutate(table, rows, Wire.fromWire(request.getCall()));
      } else {
        engine.mutate(table, rows);
      }
      return Empty.getDefaultInstance();
    });
  }

  @Override
  public void checkAndMutate(CheckAndMutateRequest request, StreamObserver<BoolResponse> response) {
    Calls.unary(response, () -> {
      Requests.check(request.getMutation());
      TableRef table = tables.resolve(request.getTable());
      byte[] expected = request.hasExpected() ? request.getExpected().toByteArray() : null;
      boolean applied = engine.checkAndMutate(table, request.getFamily().toByteArray(),
          request.getQualifier().toByteArray(), expected, Wire.fromWire(request.getMutation()));
      return BoolResponse.newBuilder().setValue(applied).build();
    });
  }

  @Override
  public void increment(IncrementRequest request, StreamObserver<IncrementResponse> response) {
    Calls.unary(response, () -> {
      TableRef table = tables.resolve(request.getTable());
      if (request.getRow().isEmpty()) {
        throw new IllegalArgumentException("row key must not be null or empty");
      }
      long v = engine.increment(table, request.getRow().toByteArray(), request.getFamily().toByteArray(),
          request.getQualifier().toByteArray(), request.getAmount(), Wire.fromWire(request.getDurability()));
      return IncrementResponse.newBuilder().setValue(v).build();
    });
  }

  @Override
  public void mutateRow(MutateRowRequest request, StreamObserver<MutateRowResponse> response) {
    Calls.unary(response, () -> {
      Requests.check(request);
      TableRef table = tables.resolve(request.getTable());
      if (!request.hasCall()) {
        return WireAtomic.toWire(engine.mutateRow(table, WireAtomic.fromWire(request)));
      }
      MutateRowResponse answer = WireAtomic.toWire(engine.mutateRow(table, WireAtomic.fromWire(request),
          Wire.fromWire(request.getCall())));
      return engine.deduplicatesCalls() ? answer.toBuilder().setDeduplicated(true).build() : answer;
    });
  }

  @Override
  public void get(GetRequest request, StreamObserver<GetResponse> response) {
    Calls.unary(response, () -> {
      TableRef table = tables.resolve(request.getTable());
      List<Cell> cells = new ArrayList<>();
      boolean stale = getRow(table, query(request.getQuery().toBuilder().setSingleRow(true).build()), cells);
      new Requests.ResponseBudget(limits.maxResponseBytes()).add(cells);
      GetResponse.Builder b = GetResponse.newBuilder().setStale(stale);
      if (!cells.isEmpty()) {
        b.setRow(Wire.toWireRow(cells));
      }
      return b.build();
    });
  }

  @Override
  public void multiGet(MultiGetRequest request, StreamObserver<MultiGetResponse> response) {
    Calls.unary(response, () -> {
      Requests.checkBatch("queries", request.getQueriesCount(), limits);
      TableRef table = tables.resolve(request.getTable());
      MultiGetResponse.Builder b = MultiGetResponse.newBuilder();
      Requests.ResponseBudget budget = new Requests.ResponseBudget(limits.maxResponseBytes());
      List<ScanQuery> queries = new ArrayList<>(request.getQueriesCount());
      for (Query q : request.getQueriesList()) {
        queries.add(query(q.toBuilder().setSingleRow(true).build()));
      }
      if (queries.stream().noneMatch(q -> q.consistency() == Consistency.TIMELINE)) {
        // One call for them all: the engine sees the gets together (a cluster's member answers
        // only for regions it leads every one of, and says when the client's regions are stale).
        List<List<Cell>> rows = engine.getAll(table, queries);
        for (int i = 0; i < rows.size(); i++) {
          addRow(b, budget, request.getQueries(i), rows.get(i));
        }
        return b.build();
      }
      for (int i = 0; i < queries.size(); i++) {
        if (Context.current().isCancelled()) {
          throw Calls.cancelled(Context.current());
        }
        List<Cell> cells = new ArrayList<>();
        if (getRow(table, queries.get(i), cells)) {
          b.setStale(true);
        }
        addRow(b, budget, request.getQueries(i), cells);
      }
      return b.build();
    });
  }

  /** The row a get of {@code q} read, counted against the answer's budget; a row with no cells as its key alone. */
  private static void addRow(MultiGetResponse.Builder b, Requests.ResponseBudget budget, Query q, List<Cell> cells) {
    budget.add(cells);
    b.addRows(cells.isEmpty() ? Row.newBuilder().setRow(q.getStartRow()).build() : Wire.toWireRow(cells));
  }

  /** Reads the single-row query's row into {@code cells}; returns whether it may be stale ({@link RowScanner#mayBeStale}). */
  private boolean getRow(TableRef table, ScanQuery query, List<Cell> cells) {
    try (RowScanner s = engine.scan(table, query)) {
      s.nextRow(cells);
      return s.mayBeStale();
    }
  }

  @Override
  public void scan(ScanRequest request, StreamObserver<ScanResponse> response) {
    ServerCallStreamObserver<ScanResponse> call = (ServerCallStreamObserver<ScanResponse>) response;
    RowScanner scanner;
    try {
      TableRef table = tables.resolve(request.getTable());
      scanner = engine.scan(table, query(request.getQuery()));
    } catch (RuntimeException e) {
      response.onError(Calls.toStatus(e));
      return;
    }
    new ScanCall(call, scanner, scanLimits.forRequest(request.getBatchRows()), events, leases).start();
  }

  /**
   * The engine's query for a wire one, checked, that ends (DEADLINE_EXCEEDED or CANCELLED) within
   * {@code scan.check.rows} rows of the call's deadline passing or its client going away, even
   * while its filter drops every row.
   */
  ScanQuery query(Query q) {
    if (q.hasFilter()) {
      Requests.check(q.getFilter());
    }
    Context context = Context.current();
    return Wire.fromWire(q).toBuilder().check(() -> {
      if (context.isCancelled()) {
        throw Calls.ended(context);
      }
    }, limits.scanCheckRows()).build();
  }
}
