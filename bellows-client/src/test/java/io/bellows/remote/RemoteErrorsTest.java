package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.CreateTableRequest;
import io.bellows.protocol.ListTablesRequest;
import io.bellows.protocol.TableName;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.util.Bytes;
import io.bellows.util.EngineClosedException;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import io.bellows.wire.ErrorKind;
import io.bellows.wire.RemoteCallException;
import io.bellows.wire.Wire;
import io.bellows.wire.WireErrors;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Status codes on the wire, the exceptions the client raises from them, throttling, metrics. */
class RemoteErrorsTest {
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

  private static StatusRuntimeException status(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e;
    }
    throw new AssertionError("the call succeeded");
  }

  @Test
  void engineErrorsAreStatusCodesWithTheEnginesMessage() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      AdminGrpc.AdminBlockingStub admin = rawAdmin(f);
      StatusRuntimeException notFound = status(() -> admin.describeTable(TableName.newBuilder().setName("nope").build()));
      assertThat(notFound.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
      assertThat(WireErrors.kind(notFound)).isEqualTo(ErrorKind.TABLE_NOT_FOUND);
      assertThatThrownBy(() -> db.describeTable("nope")).isExactlyInstanceOf(TableNotFoundException.class)
          .hasMessage(notFound.getStatus().getDescription());

      TableDescriptor t = TableDescriptor.builder("t").family("f").build();
      StatusRuntimeException badSplits = status(() -> admin.createTable(CreateTableRequest.newBuilder()
          .setSchema(Wire.toWire(t)).addSplitKeys(Wire.bytes(Bytes.of("b"))).addSplitKeys(Wire.bytes(Bytes.of("a")))
          .build()));
      assertThat(badSplits.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(admin.listTables(ListTablesRequest.getDefaultInstance()).getNamesList()).isEmpty();

      db.createTable(t);
      assertThatThrownBy(() -> db.createTable(t)).isExactlyInstanceOf(TableExistsException.class);
      StatusRuntimeException exists = status(() -> admin.createTable(CreateTableRequest.newBuilder()
          .setSchema(Wire.toWire(t)).build()));
      assertThat(exists.getStatus().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS);

      Table handle = db.getTable("t");
      db.disableTable("t");
      assertThatThrownBy(() -> handle.put(new Put("r").addColumn("f", "q", "v")))
          .isExactlyInstanceOf(TableNotEnabledException.class);
      StatusRuntimeException disabled = status(() -> admin.disableTable(TableName.newBuilder().setName("t").build()));
      assertThat(disabled.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    }
  }

  @Test
  void aClosedEngineIsUnavailableAndNotRetried() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      f.engine.close();
      StatusRuntimeException closed = status(() -> rawAdmin(f).listTables(ListTablesRequest.getDefaultInstance()));
      assertThat(closed.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(WireErrors.kind(closed)).isEqualTo(ErrorKind.ENGINE_CLOSED);
      assertThatThrownBy(db::listTables).isExactlyInstanceOf(EngineClosedException.class);
    }
  }

  @Test
  void aClientsNextCallNeverMeetsItsOwnFinishedCallsSlot() throws Exception {
    // One call at a time, and no retries: each call starts only after the previous one's answer,
    // so it must find the slot free (the server gives it back before the answer leaves).
    ServerConfig oneCall = ServerConfig.defaults().withMaxCalls(1).withLimits(java.util.Map.of("admin.reserved.calls", 0L));
    try (ServerFixture f = new ServerFixture(dir, oneCall.withPorts(0, 0), ServerEvents.NONE, 0);
        Bellows db = f.connect(RemoteOptions.defaults().withRetries(1, Duration.ofMillis(1), Duration.ofMillis(1)))) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      for (int i = 0; i < 500; i++) {
        t.put(new Put("r" + i).addColumn("f", "q", "v"));
      }
      assertThat(counter(scrape(f.server.httpPort()), "Mutate", "RESOURCE_EXHAUSTED")).isZero();
    }
  }

  @Test
  void beyondMaxCallsACallIsThrottledWithARetryHintAndRetriedWithBackoff() throws Exception {
    // No calls kept for admin: the probe below is an admin call.
    ServerConfig oneCall = ServerConfig.defaults().withMaxCalls(1).withLimits(java.util.Map.of("admin.reserved.calls", 0L));
    try (ServerFixture f = new ServerFixture(dir, oneCall.withPorts(0, 0), ServerEvents.NONE, 0);
        Bellows db = f.connect(RemoteOptions.defaults().withRetries(3, Duration.ofMillis(1), Duration.ofMillis(10))
            .withFlowControlWindow(65_535))) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      // More rows than one response message and one flow-control window: the scan stays open.
      for (int batch = 0; batch < 3; batch++) {
        List<Put> puts = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          puts.add(new Put(Bytes.of(String.format("r%d%04d", batch, i))).addColumn(Bytes.of("f"), Bytes.of("q"), new byte[100]));
        }
        t.put(puts);
      }
      try (ResultScanner open = t.getScanner(new Scan())) {
        assertThat(open.next()).isNotNull(); // the scan holds the one slot until it is closed
        StatusRuntimeException busy = status(() -> rawAdmin(f).listTables(ListTablesRequest.getDefaultInstance()));
        assertThat(busy.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(WireErrors.retryAfterMillis(busy)).isPositive();
        assertThat(WireErrors.certainlyNotApplied(busy)).isTrue();

        assertThatThrownBy(() -> t.put(new Put("x").addColumn("f", "q", "v")))
            .isInstanceOfSatisfying(RemoteCallException.class,
                e -> assertThat(e.code()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
      }
      assertThat(db.listTables()).containsExactly("t");
      String metrics = scrape(f.server.httpPort());
      // The write was refused three times (three attempts), nothing applied.
      assertThat(counter(metrics, "Mutate", "RESOURCE_EXHAUSTED")).isEqualTo(3);
      assertThat(counter(metrics, "Mutate", "OK")).isEqualTo(3);
      assertThat(counter(metrics, "Scan", "CANCELLED")).isEqualTo(1);
      assertThat(counter(metrics, "ListTables", "RESOURCE_EXHAUSTED")).isEqualTo(1);
      assertThat(metrics).contains("bellows_grpc_call_duration_seconds_bucket{method=\"Mutate\"")
          .contains("bellows_engine_tables 1")
          .contains("bellows_store_")
          // Typed by the engine's metric catalog: counters end in _total, times are in seconds.
          .contains("# TYPE bellows_engine_wal_appended_bytes_total counter")
          .contains("bellows_engine_wal_appended_bytes_total ")
          .contains("# TYPE bellows_engine_writes_blocked_seconds_total counter")
          .contains("# TYPE bellows_store_memstore_data_bytes gauge")
          .contains("# TYPE bellows_store_flush_total counter")
          .doesNotContain("bellows_engine_engine_instance_id")
          .doesNotContain("untyped")
          .contains("table=\"t\"")
          .contains("jvm_memory_used_bytes");
      assertThat(db.getTable("t").get(new io.bellows.client.Get(Bytes.of("x"))).isEmpty()).isTrue();
    }
  }

  static String scrape(int port) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    return r.body();
  }

  static long counter(String metrics, String method, String code) {
    Matcher m = Pattern.compile("^bellows_grpc_calls_total\\{code=\"" + code + "\",method=\"" + method + "\"} (\\S+)$",
        Pattern.MULTILINE).matcher(metrics);
    return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
  }

  static List<String> lines(String s) {
    return List.of(s.split("\n"));
  }
}
