package io.bellows.remote;

import com.google.protobuf.ByteString;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.engine.CallId;
import io.bellows.engine.Engine;
import io.bellows.engine.RegionInfo;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.engine.SnapshotInfo;
import io.bellows.engine.TableRef;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.BulkLoadFiles;
import io.bellows.protocol.BulkLoadRequest;
import io.bellows.protocol.CloneSnapshotRequest;
import io.bellows.protocol.CompactRequest;
import io.bellows.protocol.CreateTableRequest;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.Empty;
import io.bellows.protocol.GetRequest;
import io.bellows.protocol.MultiGetRequest;
import io.bellows.protocol.MultiGetResponse;
import io.bellows.protocol.GetResponse;
import io.bellows.protocol.ListTablesRequest;
import io.bellows.protocol.ModifyTableRequest;
import io.bellows.protocol.MutateRequest;
import io.bellows.protocol.MutateRowRequest;
import io.bellows.protocol.MutateRowResponse;
import io.bellows.protocol.ScanRequest;
import io.bellows.protocol.SnapshotName;
import io.bellows.protocol.SnapshotRequest;
import io.bellows.protocol.SplitRequest;
import io.bellows.protocol.StoreMetrics;
import io.bellows.protocol.TableId;
import io.bellows.protocol.TableName;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.EngineClosedException;
import io.bellows.wire.RemoteCallException;
import io.bellows.wire.Wire;
import io.bellows.wire.WireAtomic;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NegotiationType;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * An {@link Engine} whose engine lives in a Bellows server: each call is one gRPC call (see
 * docs/PROTOCOL.md), so {@link Bellows} and its {@code Table}s work unchanged over it:
 *
 * <pre>{@code
 * try (Bellows db = RemoteEngine.connect("localhost:7070", RemoteOptions.defaults())) {
 *   Table t = db.getTable("t");
 *   t.put(new Put("row1").addColumn("f", "q", "v"));
 * }
 * }</pre>
 *
 * <p>Errors are the engine's own exception types, raised from the server's status (docs/PROTOCOL.md);
 * errors of the connection itself are {@code RemoteCallException}s. Calls are retried as {@link
 * Retrier} says. Thread-safe: an HTTP/2 connection multiplexes every thread's calls (and {@code
 * RemoteOptions.connections} spreads them over several); share one instance. {@link #close}
 * closes the connections, not the server's engine.
 */
public final class RemoteEngine implements Engine {
  private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  /**
   * The attempt the calling thread makes, when a {@link RemoteCluster} bounds it below the data
   * deadline ({@link #withAttemptDeadline}); else null.
   */
  private static final ThreadLocal<Attempt> ATTEMPT = new ThreadLocal<>();

  /**
   * An attempt at one member: its end ({@link System#nanoTime()}), and whether the admin calls made
   * in it are lookups (a table's descriptor, the list of tables: answered at once by a live member)
   * that the end bounds too; other admin calls (a flush, a compaction) may take long on a live one.
   */
  private record Attempt(long endNanos, boolean boundsAdmin) {}

  private final List<ManagedChannel> managed;
  private final List<Channel> channels;
  private final AtomicInteger next = new AtomicInteger();
  private final RemoteOptions options;
  private final Retrier retrier;
  private volatile boolean closed;
  /** The server answered a call named by ids with {@code deduplicated} ({@link #deduplicatesCalls}). */
  private volatile boolean deduplicates;

  private RemoteEngine(List<ManagedChannel> managed, RemoteOptions options) {
    this.managed = List.copyOf(managed);
    this.options = options;
    this.retrier = new Retrier(options);
    List<Channel> channels = new ArrayList<>();
    for (ManagedChannel m : managed) {
      if (options.token() != null) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + options.token());
        channels.add(ClientInterceptors.intercept(m, MetadataUtils.newAttachHeadersInterceptor(headers)));
      } else {
        channels.add(m);
      }
    }
    this.channels = List.copyOf(channels);
  }

  /**
   * Connects to the server at {@code target} ("host:port") with {@code options.connections()}
   * connections, made at the first calls.
   */
  public static RemoteEngine open(String target, RemoteOptions options) {
    if (options.token() != null && options.trustedCa() == null && !loopback(target)) {
      throw new IllegalArgumentException("refusing to send a bearer token in plain text to " + target
          + ": configure TLS (RemoteOptions.withTls) or connect to a loopback address");
    }
    List<ManagedChannel> channels = new ArrayList<>();
    for (int i = 0; i < options.connections(); i++) {
      channels.add(channel(target, options));
    }
    return new RemoteEngine(channels, options);
  }

  /** Whether "host:port" names this machine's loopback: localhost or a loopback IP literal (no DNS asked). */
  static boolean loopback(String target) {
    String t = target.startsWith("dns:///") ? target.substring("dns:///".length()) : target;
    String host;
    if (t.startsWith("[")) {
      int end = t.indexOf(']');
      host = end < 0 ? t : t.substring(1, end);
    } else {
      int colon = t.lastIndexOf(':');
      host = colon < 0 ? t : t.substring(0, colon);
    }
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (!host.matches("[0-9.]+") && !host.contains(":")) {
      return false; // a name other than localhost could resolve anywhere
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException bad) {
      return false;
    }
  }

  private static ManagedChannel channel(String target, RemoteOptions options) {
    NettyChannelBuilder b = NettyChannelBuilder.forTarget(target)
        .flowControlWindow(options.flowControlWindow())
        .maxInboundMessageSize(64 << 20);
    if (options.trustedCa() != null) {
      try {
        SslContextBuilder ssl = GrpcSslContexts.forClient().trustManager(options.trustedCa().toFile());
        if (options.clientCert() != null) {
          ssl.keyManager(options.clientCert().toFile(), options.clientKey().toFile());
        }
        b.sslContext(ssl.build()).negotiationType(NegotiationType.TLS);
      } catch (IOException | IllegalArgumentException e) {
        throw new IllegalArgumentException("cannot read the TLS files: " + e.getMessage(), e);
      }
    } else {
      b.usePlaintext();
    }
    return b.build();
  }

  /** The API over a server: {@code Bellows.over(open(target, options))}. */
  public static Bellows connect(String target, RemoteOptions options) {
    return Bellows.over(open(target, options));
  }

  /**
   * The API over a replicated cluster, given some of its servers ("host:port" each): calls go to the
   * leader of each table's region, following the servers' NOT_LEADER answers ({@link RemoteCluster}).
   */
  public static Bellows connect(List<String> servers, RemoteOptions options) {
    return Bellows.over(RemoteCluster.open(servers, options));
  }

  /** Over a channel made elsewhere (in-process tests, custom transports); closing closes it. */
  public static RemoteEngine over(ManagedChannel channel, RemoteOptions options) {
    return new RemoteEngine(List.of(channel), options);
  }

  /** The connection for the next call: each in turn. */
  private Channel channel() {
    return channels.get(Math.floorMod(next.getAndIncrement(), channels.size()));
  }

  private AdminGrpc.AdminBlockingStub admin() {
    check();
    long nanos = options.adminDeadline().toNanos();
    Attempt attempt = ATTEMPT.get();
    if (attempt != null && attempt.boundsAdmin()) {
      nanos = Math.min(nanos, attempt.endNanos() - System.nanoTime());
    }
    return AdminGrpc.newBlockingStub(channel()).withDeadlineAfter(nanos, TimeUnit.NANOSECONDS);
  }

  private DataGrpc.DataBlockingStub data() {
    check();
    long nanos = options.dataDeadline().toNanos();
    Attempt attempt = ATTEMPT.get();
    if (attempt != null) {
      nanos = Math.min(nanos, attempt.endNanos() - System.nanoTime());
    }
    return DataGrpc.newBlockingStub(channel()).withDeadlineAfter(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Connects again at once where a connection to the server failed: gRPC otherwise waits out its
   * reconnect backoff (from 1 s growing to 2 minutes while the server was down) and fails every call
   * meanwhile, so a member restarted after a SIGKILL stays unreachable to this client long after it
   * is back. {@link RemoteCluster} calls this before each attempt at a member.
   */
  void reconnectIfFailed() {
    for (ManagedChannel m : managed) {
      if (m.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
        m.resetConnectBackoff();
      }
    }
  }

  /**
   * Runs {@code body} with its data calls (gets, multi-gets, writes, and a scan until its first
   * answer; not the rest of a scan's stream) ending by {@code endNanos} ({@link System#nanoTime()})
   * at the latest, sooner if the data deadline says so: {@link RemoteCluster}'s attempt at one
   * member. Its admin calls too when they are {@code lookups}.
   */
  static <T> T withAttemptDeadline(long endNanos, boolean lookups, Supplier<T> body) {
    Attempt outer = ATTEMPT.get();
    ATTEMPT.set(new Attempt(endNanos, lookups));
    try {
      return body.get();
    } finally {
      if (outer == null) {
        ATTEMPT.remove();
      } else {
        ATTEMPT.set(outer);
      }
    }
  }

  private void check() {
    if (closed) {
      throw new EngineClosedException("the connection to the server is closed");
    }
  }

  private <T> T read(Supplier<T> call) {
    return retrier.call(true, call);
  }

  private <T> T write(Supplier<T> call) {
    return retrier.call(false, call);
  }

  private static TableName name(String table) {
    return TableName.newBuilder().setName(table).build();
  }

  private static TableId id(TableRef t) {
    return TableId.newBuilder().setName(t.name()).setId(t.id()).build();
  }

  // ------------------------------------------------------------------ tables

  @Override
  public void createTable(TableDescriptor descriptor) {
    createTable(descriptor, List.of());
  }

  @Override
  public void createTable(TableDescriptor descriptor, List<byte[]> splitKeys) {
    CreateTableRequest.Builder b = CreateTableRequest.newBuilder().setSchema(Wire.toWire(descriptor));
    for (byte[] k : splitKeys) {
      b.addSplitKeys(k == null ? ByteString.EMPTY : ByteString.copyFrom(k));
    }
    write(() -> admin().createTable(b.build()));
  }

  @Override
  public List<RegionInfo> regions(String table) {
    return read(() -> {
      List<RegionInfo> out = new ArrayList<>();
      admin().regions(name(table)).getRegionsList().forEach(r -> out.add(Wire.fromWire(r)));
      return out;
    });
  }

  @Override
  public TableDescriptor describeTable(String table) {
    return Wire.fromWire(read(() -> admin().describeTable(name(table))));
  }

  @Override
  public List<String> listTables() {
    return List.copyOf(read(() -> admin().listTables(ListTablesRequest.getDefaultInstance()).getNamesList()));
  }

  @Override
  public boolean tableExists(String table) {
    return read(() -> admin().tableExists(name(table)).getValue());
  }

  @Override
  public void disableTable(String table) {
    write(() -> admin().disableTable(name(table)));
  }

  @Override
  public void enableTable(String table) {
    write(() -> admin().enableTable(name(table)));
  }

  @Override
  public boolean isTableEnabled(String table) {
    return read(() -> admin().isTableEnabled(name(table)).getValue());
  }

  @Override
  public void dropTable(String table) {
    write(() -> admin().dropTable(name(table)));
  }

  @Override
  public TableRef table(String table) {
    return Wire.fromWire(read(() -> admin().getTable(name(table))));
  }

  @Override
  public void flush(String table) {
    read(() -> admin().flush(name(table))); // flushing twice does no harm
  }

  @Override
  public void split(String table) {
    write(() -> admin().split(SplitRequest.newBuilder().setTable(table).build()));
  }

  @Override
  public void split(String table, byte[] splitKey) {
    write(() -> admin().split(SplitRequest.newBuilder().setTable(table).setSplitKey(Wire.bytes(splitKey)).build()));
  }

  @Override
  public void compact(String table) {
    read(() -> admin().compact(CompactRequest.newBuilder().setTable(table).build()));
  }

  @Override
  public void majorCompact(String table) {
    read(() -> admin().compact(CompactRequest.newBuilder().setTable(table).setMajor(true).build()));
  }

  /** Sends the whole descriptor; a retry after a lost answer applies the same descriptor again. */
  @Override
  public void modifyTable(TableDescriptor next) {
    write(() -> admin().modifyTable(ModifyTableRequest.newBuilder().setSchema(Wire.toWire(next)).build()));
  }

  /** The paths name files on the server's disk. */
  @Override
  public long bulkLoad(String table, Map<String, List<Path>> files) {
    BulkLoadRequest.Builder b = BulkLoadRequest.newBuilder().setTable(table);
    for (Map.Entry<String, List<Path>> e : files.entrySet()) {
      BulkLoadFiles.Builder f = BulkLoadFiles.newBuilder();
      e.getValue().forEach(p -> f.addPaths(p.toString()));
      b.putFiles(e.getKey(), f.build());
    }
    return write(() -> admin().bulkLoad(b.build())).getCells();
  }

  // ------------------------------------------------------------------ snapshots

  @Override
  public void snapshot(String table, String name, boolean flush) {
    write(() -> admin().snapshot(SnapshotRequest.newBuilder().setTable(table).setName(name).setSkipFlush(!flush).build()));
  }

  @Override
  public List<SnapshotInfo> listSnapshots() {
    List<SnapshotInfo> out = new ArrayList<>();
    read(() -> admin().listSnapshots(Empty.getDefaultInstance())).getSnapshotsList().forEach(s -> out.add(Wire.fromWire(s)));
    return List.copyOf(out);
  }

  @Override
  public void deleteSnapshot(String name) {
    write(() -> admin().deleteSnapshot(snapshotName(name)));
  }

  @Override
  public void cloneSnapshot(String name, String table) {
    write(() -> admin().cloneSnapshot(CloneSnapshotRequest.newBuilder().setName(name).setTable(table).build()));
  }

  @Override
  public void restoreSnapshot(String name) {
    write(() -> admin().restoreSnapshot(snapshotName(name)));
  }

  private static SnapshotName snapshotName(String name) {
    return SnapshotName.newBuilder().setName(name).build();
  }

  // ------------------------------------------------------------------ data

  @Override
  public void mutate(TableRef table, List<RowMutation> rows) {
    MutateRequest.Builder b = MutateRequest.newBuilder().setTable(id(table));
    rows.forEach(m -> b.addRows(Wire.toWire(m)));
    MutateRequest request = b.build();
    write(() -> data().mutate(request));
  }

  /** One {@code MutateRow} call; the engine's checkAndMutate and increment go through it too. */
  @Override
  public Outcome mutateRow(TableRef table, RowOperation op) {
    MutateRowRequest request = WireAtomic.toWire(id(table), op);
    return WireAtomic.fromWire(write(() -> data().mutateRow(request)));
  }

  /** One {@code Mutate} call carrying the call's ids. */
  @Override
  public void mutate(TableRef table, List<RowMutation> rows, CallId call) {
    MutateRequest.Builder b = MutateRequest.newBuilder().setTable(id(table)).setCall(Wire.toWire(call));
    rows.forEach(m -> b.addRows(Wire.toWire(m)));
    MutateRequest request = b.build();
    write(() -> data().mutate(request));
  }

  /** One {@code MutateRow} call carrying the call's ids; learns whether the server deduplicates. */
  @Override
  public Outcome mutateRow(TableRef table, RowOperation op, CallId call) {
    MutateRowRequest request = WireAtomic.toWire(id(table), op).toBuilder().setCall(Wire.toWire(call)).build();
    MutateRowResponse response = write(() -> data().mutateRow(request));
    if (response.getDeduplicated()) {
      deduplicates = true;
    }
    return WireAtomic.fromWire(response);
  }

  /**
   * Whether the server said it deduplicates calls named by ids: true once it answered such a
   * {@code MutateRow} with {@code deduplicated} (a cluster member). False until then.
   */
  @Override
  public boolean deduplicatesCalls() {
    return deduplicates;
  }

  /** A get (a single-row query) is one unary call; any other query a server-streaming scan. */
  @Override
  public RowScanner scan(TableRef table, ScanQuery query) {
    if (query.isSingleRow()) {
      GetRequest request = GetRequest.newBuilder().setTable(id(table)).setQuery(Wire.toWire(query)).build();
      GetResponse response = read(() -> data().get(request));
      return new OneRow(response.hasRow() ? Wire.fromWire(response.getRow()) : List.of(), response.getStale());
    }
    check();
    ScanRequest request = ScanRequest.newBuilder().setTable(id(table)).setQuery(Wire.toWire(query)).build();
    // Opening is retried like a read (each attempt a new call); a stream that fails later is not.
    RemoteScanner.Opener opener = () -> {
      CallOptions callOptions = CallOptions.DEFAULT;
      Duration deadline = options.scanDeadline();
      if (deadline != null) {
        callOptions = callOptions.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
      }
      return channel().newCall(DataGrpc.getScanMethod(), callOptions);
    };
    Attempt attempt = ATTEMPT.get();
    Long firstAnswerBy = attempt == null ? null : attempt.endNanos();
    return read(() -> new RemoteScanner(opener, retrier, request, firstAnswerBy));
  }

  /** One MultiGet call: the server reads the rows in order, each whole. Retried like any read. */
  @Override
  public List<List<Cell>> getAll(TableRef table, List<ScanQuery> singleRowQueries) {
    MultiGetRequest.Builder b = MultiGetRequest.newBuilder().setTable(id(table));
    for (ScanQuery q : singleRowQueries) {
      if (!q.isSingleRow()) {
        throw new IllegalArgumentException("getAll takes single-row queries only");
      }
      b.addQueries(Wire.toWire(q));
    }
    MultiGetRequest request = b.build();
    MultiGetResponse response = read(() -> data().multiGet(request));
    List<List<Cell>> out = new ArrayList<>(response.getRowsCount());
    for (var row : response.getRowsList()) {
      out.add(row.getCellsCount() == 0 ? List.of() : Wire.fromWire(row));
    }
    return out;
  }

  /** A scanner of the one row a get returned (or of none). */
  private static final class OneRow implements RowScanner {
    private List<Cell> row;
    private final boolean stale;

    OneRow(List<Cell> row, boolean stale) {
      this.row = row;
      this.stale = stale;
    }

    @Override
    public boolean mayBeStale() {
      return stale;
    }

    @Override
    public boolean nextRow(List<Cell> out) {
      if (row == null || row.isEmpty()) {
        return false;
      }
      out.addAll(row);
      row = null;
      return true;
    }

    @Override
    public void close() {
      row = null;
    }
  }

  // ------------------------------------------------------------------ state

  /** The server's view of its cluster; empty from a standalone server, or one older than the call. */
  @Override
  public Optional<io.bellows.engine.ClusterStatus> clusterStatus() {
    try {
      return Wire.fromWire(read(() -> admin().clusterStatus(Empty.getDefaultInstance())));
    } catch (RemoteCallException e) {
      if (e.code() == io.grpc.Status.Code.UNIMPLEMENTED) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public Optional<BackgroundError> backgroundError() {
    var r = read(() -> admin().getBackgroundError(Empty.getDefaultInstance()));
    return r.hasError() ? Optional.of(Wire.fromWire(r.getError())) : Optional.empty();
  }

  @Override
  public void resume() {
    read(() -> admin().resume(Empty.getDefaultInstance()));
  }

  @Override
  public int balance() {
    return write(() -> admin().balance(Empty.getDefaultInstance())).getHandedOver();
  }

  @Override
  public io.bellows.engine.LeaderMove moveLeader(String table, byte[] row, String member) {
    io.bellows.protocol.MoveLeaderResponse r = write(() -> admin().moveLeader(io.bellows.protocol.MoveLeaderRequest
        .newBuilder().setTable(table).setRow(ByteString.copyFrom(row)).setMember(member == null ? "" : member).build()));
    return new io.bellows.engine.LeaderMove(r.getFrom(), r.getTo());
  }

  /**
   * Under the admin deadline ({@link RemoteOptions#adminDeadline()}, 30 minutes by default), as a
   * flush or a split: the server answers once the new member is a member of meta, which may take
   * about 70 s (meta's leader waits up to 60 s for it to catch up and join).
   */
  @Override
  public void addServer(String id, String raftAddress, String clientAddress) {
    write(() -> admin().addServer(io.bellows.protocol.AddServerRequest.newBuilder().setId(id)
        .setRaftAddress(raftAddress).setClientAddress(clientAddress).build()));
  }

  @Override
  public void decommission(List<String> members) {
    write(() -> admin().decommission(io.bellows.protocol.MembersMessage.newBuilder().addAllMembers(members).build()));
  }

  @Override
  public void recommission(String member) {
    write(() -> admin().recommission(io.bellows.protocol.MembersMessage.newBuilder().addMembers(member).build()));
  }

  @Override
  public List<String> decommissioned() {
    return List.copyOf(read(() -> admin().listDecommissioned(Empty.getDefaultInstance())).getMembersList());
  }

  @Override
  public io.bellows.engine.VerifyReport verify() {
    return Wire.fromWire(read(() -> admin().verify(Empty.getDefaultInstance())));
  }

  @Override
  public Map<String, Number> metrics() {
    return Wire.metricsFromWire(read(() -> admin().metrics(Empty.getDefaultInstance())).getMetricsMap());
  }

  @Override
  public Map<String, Map<String, Number>> storeMetrics(String table) {
    Map<String, Map<String, Number>> out = new LinkedHashMap<>();
    for (Map.Entry<String, StoreMetrics> e : read(() -> admin().getStoreMetrics(name(table))).getFamiliesMap().entrySet()) {
      out.put(e.getKey(), Wire.metricsFromWire(e.getValue().getMetricsMap()));
    }
    return out;
  }

  /** The server engine's explicitly set knobs (its clock and listeners stay in the server). */
  @Override
  public EngineOptions options() {
    return Wire.engineOptions(read(() -> admin().options(Empty.getDefaultInstance())).getSettingsMap());
  }

  /** Closes the connection (calls in progress are cancelled); the server's engine stays open. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    managed.forEach(ManagedChannel::shutdown);
    try {
      for (ManagedChannel m : managed) {
        if (!m.awaitTermination(5, TimeUnit.SECONDS)) {
          m.shutdownNow();
        }
      }
    } catch (InterruptedException e) {
      managed.forEach(ManagedChannel::shutdownNow);
      Thread.currentThread().interrupt();
    }
  }
}
