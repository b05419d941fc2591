package io.bellows.server;

import com.google.protobuf.ByteString;
import io.bellows.engine.Engine;
import io.bellows.engine.RegionInfo;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.BackgroundErrorResponse;
import io.bellows.protocol.BoolResponse;
import io.bellows.protocol.BulkLoadFiles;
import io.bellows.protocol.BulkLoadRequest;
import io.bellows.protocol.BulkLoadResponse;
import io.bellows.protocol.CloneSnapshotRequest;
import io.bellows.protocol.CompactRequest;
import io.bellows.protocol.CreateTableRequest;
import io.bellows.protocol.Empty;
import io.bellows.protocol.ListTablesRequest;
import io.bellows.protocol.ListSnapshotsResponse;
import io.bellows.protocol.ListTablesResponse;
import io.bellows.protocol.MetricsResponse;
import io.bellows.protocol.ModifyTableRequest;
import io.bellows.protocol.OptionsResponse;
import io.bellows.protocol.RegionsResponse;
import io.bellows.protocol.SnapshotName;
import io.bellows.protocol.SnapshotRequest;
import io.bellows.protocol.SplitRequest;
import io.bellows.protocol.StoreMetrics;
import io.bellows.protocol.StoreMetricsResponse;
import io.bellows.protocol.TableDescriptor;
import io.bellows.protocol.TableName;
import io.bellows.protocol.TableRef;
import io.bellows.wire.Wire;
import io.grpc.stub.StreamObserver;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Admin service: each call is one {@link Engine} call. Thread-safe as the engine is. */
final class AdminService extends AdminGrpc.AdminImplBase {
  private static final Empty EMPTY = Empty.getDefaultInstance();

  private final Engine engine;
  private final Tables tables;

  AdminService(Engine engine, Tables tables) {
    this.engine = engine;
    this.tables = tables;
  }

  @Override
  public void createTable(CreateTableRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      List<byte[]> splits = new ArrayList<>(request.getSplitKeysCount());
      for (ByteString k : request.getSplitKeysList()) {
        splits.add(k.toByteArray());
      }
      engine.createTable(Wire.fromWire(request.getSchema()), splits);
      return EMPTY;
    });
  }

  @Override
  public void describeTable(TableName request, StreamObserver<TableDescriptor> response) {
    Calls.unary(response, () -> Wire.toWire(engine.describeTable(request.getName())));
  }

  @Override
  public void listTables(ListTablesRequest request, StreamObserver<ListTablesResponse> response) {
    Calls.unary(response, () -> ListTablesResponse.newBuilder().addAllNames(engine.listTables()).build());
  }

  @Override
  public void tableExists(TableName request, StreamObserver<BoolResponse> response) {
    Calls.unary(response, () -> bool(engine.tableExists(request.getName())));
  }

  @Override
  public void isTableEnabled(TableName request, StreamObserver<BoolResponse> response) {
    Calls.unary(response, () -> bool(engine.isTableEnabled(request.getName())));
  }

  @Override
  public void disableTable(TableName request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.disableTable(request.getName());
      return EMPTY;
    });
  }

  @Override
  public void enableTable(TableName request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.enableTable(request.getName());
      return EMPTY;
    });
  }

  @Override
  public void dropTable(TableName request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.dropTable(request.getName());
      return EMPTY;
    });
  }

  @Override
  public void getTable(TableName request, StreamObserver<TableRef> response) {
    Calls.unary(response, () -> Wire.toWire(tables.open(request.getName())));
  }

  @Override
  public void regions(TableName request, StreamObserver<RegionsResponse> response) {
    Calls.unary(response, () -> {
      RegionsResponse.Builder b = RegionsResponse.newBuilder();
      for (RegionInfo r : engine.regions(request.getName())) {
        b.addRegions(Wire.toWire(r));
      }
      return b.build();
    });
  }

  @Override
  public void flush(TableName request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.flush(request.getName());
      return EMPTY;
    });
  }

  @Override
  public void compact(CompactRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      if (request.getMajor()) {
        engine.majorCompact(request.getTable());
      } else {
        engine.compact(request.getTable());
      }
      return EMPTY;
    });
  }

  @Override
  public void split(SplitRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      if (request.hasSplitKey()) {
        engine.split(request.getTable(), request.getSplitKey().toByteArray());
      } else {
        engine.split(request.getTable());
      }
      return EMPTY;
    });
  }

  @Override
  public void getBackgroundError(Empty request, StreamObserver<BackgroundErrorResponse> response) {
    Calls.unary(response, () -> {
      BackgroundErrorResponse.Builder b = BackgroundErrorResponse.newBuilder();
      engine.backgroundError().ifPresent(e -> b.setError(Wire.toWire(e)));
      return b.build();
    });
  }

  @Override
  public void resume(Empty request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.resume();
      return EMPTY;
    });
  }

  @Override
  public void verify(Empty request, StreamObserver<io.bellows.protocol.VerifyResponse> response) {
    Calls.unary(response, () -> Wire.toWire(engine.verify()));
  }

  @Override
  public void metrics(Empty request, StreamObserver<MetricsResponse> response) {
    Calls.unary(response, () -> MetricsResponse.newBuilder().putAllMetrics(Wire.toWire(engine.metrics())).build());
  }

  @Override
  public void getStoreMetrics(TableName request, StreamObserver<StoreMetricsResponse> response) {
    Calls.unary(response, () -> {
      StoreMetricsResponse.Builder b = StoreMetricsResponse.newBuilder();
      for (Map.Entry<String, Map<String, Number>> e : engine.storeMetrics(request.getName()).entrySet()) {
        b.putFamilies(e.getKey(), StoreMetrics.newBuilder().putAllMetrics(Wire.toWire(e.getValue())).build());
      }
      return b.build();
    });
  }

  /** A leader-balancing pass of the cluster, on meta's leader; 0 hand-overs from a standalone server. */
  @Override
  public void balance(Empty request, StreamObserver<io.bellows.protocol.BalanceResponse> response) {
    Calls.unary(response, () -> io.bellows.protocol.BalanceResponse.newBuilder().setHandedOver(engine.balance()).build());
  }

  /** A region's leadership handed to a member of a cluster; refused by a standalone server. */
  @Override
  public void moveLeader(io.bellows.protocol.MoveLeaderRequest request,
      StreamObserver<io.bellows.protocol.MoveLeaderResponse> response) {
    Calls.unary(response, () -> {
      io.bellows.engine.LeaderMove m = engine.moveLeader(request.getTable(), request.getRow().toByteArray(),
          request.getMember().isEmpty() ? null : request.getMember());
      return io.bellows.protocol.MoveLeaderResponse.newBuilder().setFrom(m.from()).setTo(m.to()).build();
    });
  }

  /** A member added to a cluster, on meta's leader; refused by a standalone server. */
  @Override
  public void addServer(io.bellows.protocol.AddServerRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.addServer(request.getId(), request.getRaftAddress(), request.getClientAddress());
      return Empty.getDefaultInstance();
    });
  }

  @Override
  public void decommission(io.bellows.protocol.MembersMessage request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.decommission(request.getMembersList());
      return Empty.getDefaultInstance();
    });
  }

  @Override
  public void recommission(io.bellows.protocol.MembersMessage request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      if (request.getMembersCount() != 1) {
        throw new IllegalArgumentException("recommission takes one member, not " + request.getMembersCount());
      }
      engine.recommission(request.getMembers(0));
      return Empty.getDefaultInstance();
    });
  }

  @Override
  public void listDecommissioned(Empty request, StreamObserver<io.bellows.protocol.MembersMessage> response) {
    Calls.unary(response, () -> io.bellows.protocol.MembersMessage.newBuilder()
        .addAllMembers(engine.decommissioned()).build());
  }

  /** A cluster member's view of the cluster; {@code cluster = false} from a standalone server. */
  @Override
  public void clusterStatus(Empty request, StreamObserver<io.bellows.protocol.ClusterStatusResponse> response) {
    Calls.unary(response, () -> engine.clusterStatus().map(Wire::toWire)
        .orElse(io.bellows.protocol.ClusterStatusResponse.getDefaultInstance()));
  }

  @Override
  public void options(Empty request, StreamObserver<OptionsResponse> response) {
    Calls.unary(response, () ->
        OptionsResponse.newBuilder().putAllSettings(Wire.settings(engine.options().explicitValues())).build());
  }

  @Override
  public void snapshot(SnapshotRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.snapshot(request.getTable(), request.getName(), !request.getSkipFlush());
      return EMPTY;
    });
  }

  @Override
  public void listSnapshots(Empty request, StreamObserver<ListSnapshotsResponse> response) {
    Calls.unary(response, () -> {
      ListSnapshotsResponse.Builder b = ListSnapshotsResponse.newBuilder();
      engine.listSnapshots().forEach(s -> b.addSnapshots(Wire.toWire(s)));
      return b.build();
    });
  }

  @Override
  public void deleteSnapshot(SnapshotName request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.deleteSnapshot(request.getName());
      return EMPTY;
    });
  }

  @Override
  public void cloneSnapshot(CloneSnapshotRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.cloneSnapshot(request.getName(), request.getTable());
      return EMPTY;
    });
  }

  @Override
  public void restoreSnapshot(SnapshotName request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.restoreSnapshot(request.getName());
      return EMPTY;
    });
  }

  @Override
  public void modifyTable(ModifyTableRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      engine.modifyTable(Wire.fromWire(request.getSchema()));
      return EMPTY;
    });
  }

  @Override
  public void bulkLoad(BulkLoadRequest request, StreamObserver<BulkLoadResponse> response) {
    Calls.unary(response, () -> {
      // The paths name files on this server's disk; the admin role the call needs vouches for them.
      Map<String, List<Path>> files = new LinkedHashMap<>();
      for (Map.Entry<String, BulkLoadFiles> e : request.getFilesMap().entrySet()) {
        List<Path> paths = new ArrayList<>(e.getValue().getPathsCount());
        for (String p : e.getValue().getPathsList()) {
          try {
            paths.add(Path.of(p));
          } catch (InvalidPathException bad) {
            throw new IllegalArgumentException("bulk load: not a path: " + p + " (" + bad.getReason() + ")");
          }
        }
        files.put(e.getKey(), paths);
      }
      return BulkLoadResponse.newBuilder().setCells(engine.bulkLoad(request.getTable(), files)).build();
    });
  }

  private static BoolResponse bool(boolean v) {
    return BoolResponse.newBuilder().setValue(v).build();
  }
}
