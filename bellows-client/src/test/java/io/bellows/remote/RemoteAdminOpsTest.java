package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.BulkFileWriter;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.engine.SnapshotInfo;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.CloneSnapshotRequest;
import io.bellows.protocol.ModifyTableRequest;
import io.bellows.protocol.SnapshotName;
import io.bellows.protocol.SnapshotRequest;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.Role;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.util.Bytes;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import io.bellows.wire.RemoteCallException;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshots, alter and bulk load over the wire: round trips through a server, their errors and role. */
class RemoteAdminOpsTest {
  @TempDir
  Path dir;

  private ManagedChannel raw;

  private AdminGrpc.AdminBlockingStub rawAdmin(ServerFixture f) {
    raw = NettyChannelBuilder.forTarget(f.target()).usePlaintext().build();
    return AdminGrpc.newBlockingStub(raw).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void closeRaw() {
    if (raw != null) {
      raw.shutdownNow();
    }
  }

  private static Status.Code code(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
    throw new AssertionError("the call succeeded");
  }

  private static byte[] value(Table t, String row, String family) {
    return t.get(new Get(Bytes.of(row))).getValue(Bytes.of(family), Bytes.of("q"));
  }

  @Test
  void snapshotsRoundTripThroughAServer() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      t.put(new Put("r1").addColumn("f", "q", "v1"));
      db.snapshot("t", "s1");
      t.put(new Put("r2").addColumn("f", "q", "v2"));
      // Without a flush the snapshot holds what was on disk only: r2 is in memory.
      db.snapshot("t", "s2", false);

      List<SnapshotInfo> listed = db.listSnapshots();
      assertThat(listed).extracting(SnapshotInfo::name).containsExactly("s1", "s2");
      assertThat(listed).extracting(SnapshotInfo::table).containsExactly("t", "t");
      assertThat(listed).isEqualTo(f.engine.listSnapshots());

      db.cloneSnapshot("s1", "c1");
      Table c1 = db.getTable("c1");
      assertThat(value(c1, "r1", "f")).isEqualTo(Bytes.of("v1"));
      assertThat(value(c1, "r2", "f")).isNull();
      db.cloneSnapshot("s2", "c2");
      assertThat(value(db.getTable("c2"), "r1", "f")).isEqualTo(Bytes.of("v1"));
      assertThat(value(db.getTable("c2"), "r2", "f")).isNull();

      t.put(new Put("r3").addColumn("f", "q", "v3"));
      db.disableTable("t");
      db.restoreSnapshot("s1");
      db.enableTable("t");
      Table restored = db.getTable("t");
      assertThat(value(restored, "r1", "f")).isEqualTo(Bytes.of("v1"));
      assertThat(value(restored, "r2", "f")).isNull();
      assertThat(value(restored, "r3", "f")).isNull();

      db.deleteSnapshot("s2");
      assertThat(db.listSnapshots()).extracting(SnapshotInfo::name).containsExactly("s1");

      // A dropped table is re-created by a restore.
      db.disableTable("c1");
      db.dropTable("c1");
      db.snapshot("c2", "s3");
      db.disableTable("c2");
      db.dropTable("c2");
      db.restoreSnapshot("s3");
      assertThat(db.tableExists("c2")).isTrue();
    }
  }

  @Test
  void snapshotErrorsKeepTheirCodesAndTypes() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      AdminGrpc.AdminBlockingStub admin = rawAdmin(f);
      db.createTable(TableDescriptor.builder("t").family("f").build());
      db.snapshot("t", "s");

      assertThatThrownBy(() -> db.snapshot("t", "s")).isExactlyInstanceOf(IllegalArgumentException.class);
      assertThat(code(() -> admin.snapshot(SnapshotRequest.newBuilder().setTable("t").setName("s").build())))
          .isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThatThrownBy(() -> db.snapshot("t", "bad/name")).isExactlyInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> db.snapshot("nope", "s9")).isExactlyInstanceOf(TableNotFoundException.class);
      assertThat(code(() -> admin.snapshot(SnapshotRequest.newBuilder().setTable("nope").setName("s9").build())))
          .isEqualTo(Status.Code.NOT_FOUND);

      assertThatThrownBy(() -> db.deleteSnapshot("missing")).isExactlyInstanceOf(IllegalArgumentException.class);
      assertThat(code(() -> admin.deleteSnapshot(SnapshotName.newBuilder().setName("missing").build())))
          .isEqualTo(Status.Code.INVALID_ARGUMENT);

      assertThatThrownBy(() -> db.cloneSnapshot("s", "t")).isExactlyInstanceOf(TableExistsException.class);
      assertThat(code(() -> admin.cloneSnapshot(CloneSnapshotRequest.newBuilder().setName("s").setTable("t").build())))
          .isEqualTo(Status.Code.ALREADY_EXISTS);

      // Restoring into an enabled table is refused: it must be disabled first.
      assertThatThrownBy(() -> db.restoreSnapshot("s")).isExactlyInstanceOf(TableNotEnabledException.class);
      assertThat(code(() -> admin.restoreSnapshot(SnapshotName.newBuilder().setName("s").build())))
          .isEqualTo(Status.Code.FAILED_PRECONDITION);
      assertThatThrownBy(() -> db.restoreSnapshot("missing")).isExactlyInstanceOf(IllegalArgumentException.class);

      assertThat(f.engine.listSnapshots()).extracting(SnapshotInfo::name).containsExactly("s");
      assertThat(f.engine.listTables()).containsExactly("t");
    }
  }

  @Test
  void regionsCarryTheirIdentityAndSequenceBaseOverTheWire() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      for (int i = 0; i < 20; i++) {
        t.put(new Put("r" + i).addColumn("f", "q", "v"));
      }
      db.split("t", Bytes.of("r5"));
      List<io.bellows.engine.RegionInfo> remote = db.regions("t");
      List<io.bellows.engine.RegionInfo> local = f.engine.regions("t");
      assertThat(remote).hasSize(2);
      assertThat(remote).extracting(io.bellows.engine.RegionInfo::identity).doesNotContainNull()
          .containsExactlyElementsOf(local.stream().map(io.bellows.engine.RegionInfo::identity).toList());
      assertThat(remote).extracting(io.bellows.engine.RegionInfo::seqIdBase)
          .containsExactlyElementsOf(local.stream().map(io.bellows.engine.RegionInfo::seqIdBase).toList());
      assertThat(remote.get(1).seqIdBase()).as("a daughter's base lies above the parent's writes").isPositive();
    }
  }

  @Test
  void alterSendsTheWholeDescriptor() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").family("old").build());
      Table t = db.getTable("t");
      t.put(new Put("r").addColumn("f", "q", "v"));

      db.addFamily("t", ColumnFamilyDescriptor.of("g"));
      db.deleteFamily("t", "old");
      assertThat(f.engine.describeTable("t").families()).extracting(ColumnFamilyDescriptor::name)
          .containsExactlyInAnyOrder("f", "g");
      Table after = db.getTable("t");
      after.put(new Put("r").addColumn("g", "q", "w"));
      assertThat(value(after, "r", "f")).isEqualTo(Bytes.of("v"));
      assertThat(value(after, "r", "g")).isEqualTo(Bytes.of("w"));

      TableDescriptor ghost = TableDescriptor.builder("nope").family("f").build();
      assertThatThrownBy(() -> db.modifyTable(ghost)).isExactlyInstanceOf(TableNotFoundException.class);
      assertThat(code(() -> rawAdmin(f).modifyTable(ModifyTableRequest.newBuilder()
          .setSchema(io.bellows.protocol.TableDescriptor.newBuilder().setName("t")).build())))
          .isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(f.engine.describeTable("t").families()).hasSize(2);
    }
  }

  @Test
  void bulkLoadAdoptsFilesOnTheServersDisk() throws Exception {
    try (ServerFixture f = new ServerFixture(dir.resolve("data")); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Path file = dir.resolve("f.bulk");
      try (BulkFileWriter w = BulkFileWriter.create(file, ColumnFamilyDescriptor.of("f"))) {
        w.put(Bytes.of("a"), Bytes.of("q"), 1, Bytes.of("va"));
        w.put(Bytes.of("b"), Bytes.of("q"), 1, Bytes.of("vb"));
        w.finish();
      }
      assertThat(db.bulkLoad("t", Map.of("f", List.of(file)))).isEqualTo(2);
      Table t = db.getTable("t");
      assertThat(value(t, "a", "f")).isEqualTo(Bytes.of("va"));
      assertThat(value(t, "b", "f")).isEqualTo(Bytes.of("vb"));

      assertThatThrownBy(() -> db.bulkLoad("t", Map.of("nope", List.of(file))))
          .isExactlyInstanceOf(NoSuchColumnFamilyException.class);
      assertThatThrownBy(() -> db.bulkLoad("missing", Map.of("f", List.of(file))))
          .isExactlyInstanceOf(TableNotFoundException.class);
    }
  }

  @Test
  void theNewCallsButListingNeedTheAdminRole() throws Exception {
    byte[] hash = MessageDigest.getInstance("SHA-256").digest("writer-secret".getBytes(StandardCharsets.UTF_8));
    ServerConfig config = ServerConfig.defaults().withTokens(List.of(new ServerConfig.Token("writer", Role.READ_WRITE, hash, null)));
    RemoteOptions once = RemoteOptions.defaults().withRetries(1, Duration.ofMillis(1), Duration.ofMillis(1))
        .withToken("writer-secret");
    try (ServerFixture f = new ServerFixture(dir.resolve("data"), config, ServerEvents.NONE); Bellows writer = f.connect(once)) {
      f.engine.createTable(TableDescriptor.builder("t").family("f").build());
      assertThatThrownBy(() -> writer.snapshot("t", "s")).isInstanceOfSatisfying(RemoteCallException.class,
          e -> assertThat(e.getMessage()).contains("Snapshot needs admin"));
      assertThatThrownBy(() -> writer.bulkLoad("t", Map.of("f", List.of(dir.resolve("x")))))
          .isInstanceOfSatisfying(RemoteCallException.class, e -> assertThat(e.getMessage()).contains("BulkLoad needs admin"));
      assertThatThrownBy(() -> writer.modifyTable(TableDescriptor.builder("t").family("g").build()))
          .isInstanceOfSatisfying(RemoteCallException.class, e -> assertThat(e.getMessage()).contains("ModifyTable needs admin"));
      assertThat(f.engine.listSnapshots()).isEmpty();
      assertThat(f.engine.describeTable("t").families()).hasSize(1);
      f.engine.snapshot("t", "s", true);
      assertThat(writer.listSnapshots()).extracting(SnapshotInfo::name).containsExactly("s"); // a read
    }
  }
}
