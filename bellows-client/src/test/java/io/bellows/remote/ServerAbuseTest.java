package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import com.google.protobuf.ByteString;
import io.bellows.engine.TableRef;
import io.bellows.protocol.Cell;
import io.bellows.protocol.CellType;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.MultiGetRequest;
import io.bellows.protocol.MutateRequest;
import io.bellows.protocol.Query;
import io.bellows.protocol.TableId;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One client must not be able to stop the server. Each test runs {@code bellows server} as a child
 * process with a small heap and a low open-file limit, abuses it as the project's abuse test did,
 * and checks that it still serves everyone else.
 */
@Timeout(180)
class ServerAbuseTest {
  private static final RemoteOptions ONCE = RemoteOptions.defaults().withRetries(1, Duration.ofMillis(1),
      Duration.ofMillis(1));
  @TempDir Path dir;

  private static String sha256(String s) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  /** Whether the server closed the socket: its read ends (or fails) rather than waits. */
  /**
   * Waits, on a selector (no polling), until the server has closed {@code want} of the connections,
   * or 30 s passed (a bound against a hang); returns how many it closed.
   */
  private static int awaitClosedByServer(List<SocketChannel> connections, int want) throws IOException {
    int closed = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    ByteBuffer one = ByteBuffer.allocate(1);
    try (Selector selector = Selector.open()) {
      for (SocketChannel c : connections) {
        c.configureBlocking(false);
        c.register(selector, SelectionKey.OP_READ);
      }
      long left;
      while (closed < want && (left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) > 0) {
        selector.select(left);
        for (SelectionKey k : selector.selectedKeys()) {
          boolean ended;
          try {
            ended = ((SocketChannel) k.channel()).read(one.clear()) < 0;
          } catch (IOException reset) {
            ended = true;
          }
          if (ended) {
            k.cancel();
            closed++;
          }
        }
        selector.selectedKeys().clear();
      }
    }
    return closed;
  }

  @Test
  void idleConnectionsCannotTakeTheFilesTheEngineNeeds() throws Exception {
    try (ChildServer server = new ChildServer(dir, "http.port = -1\n", 160, "128m");
        Bellows db = RemoteEngine.connect(server.target(), ONCE)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      t.put(new Put("before").addColumn("f", "q", "v"));
      List<SocketChannel> idle = new ArrayList<>();
      try {
        for (int i = 0; i < 200; i++) { // no TLS or HTTP/2 handshake, no token: just open
          idle.add(SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port)));
        }
        // Every flush opens new files (and the WAL rolls): the engine still gets its descriptors.
        for (int round = 0; round < 5; round++) {
          for (int i = 0; i < 50; i++) {
            t.put(new Put("r" + round + "-" + i).addColumn("f", "q", "v" + i));
          }
          db.flush("t");
        }
        assertThat(Bytes.str(t.get(new Get("r4-49")).getValue(Bytes.of("f"), Bytes.of("q")))).isEqualTo("v49");
        // The server closed the connections over its cap (a quarter of 160 files, 32 per address).
        int closed = awaitClosedByServer(idle, 160);
        assertThat(closed).as("connections the server closed at accept").isGreaterThanOrEqualTo(160);
      } finally {
        for (SocketChannel s : idle) {
          s.close();
        }
      }
      assertThat(server.log()).doesNotContain("Too many open files").contains("max.connections");
    }
  }

  private static String rawHttp(int port, String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(30_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }

  @Test
  void halfSentHttpRequestsTimeOutAndThePagesNeedATokenAndAKnownHost() throws Exception {
    String config = "http.port = 0\nhttp.threads = 2\nhttp.request.timeout.ms = 1000\n"
        + "token.ops = admin " + sha256("ops-secret") + "\n";
    try (ChildServer server = new ChildServer(dir, config, 1024, "128m")) {
      List<Socket> halfSent = new ArrayList<>();
      try {
        for (int i = 0; i < 6; i++) { // more than the HTTP threads, each never finishing its headers
          Socket s = new Socket("127.0.0.1", server.httpPort);
          OutputStream out = s.getOutputStream();
          out.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          halfSent.add(s);
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        URI metrics = URI.create("http://127.0.0.1:" + server.httpPort + "/metrics");
        HttpResponse<String> withToken = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer ops-secret").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(withToken.statusCode()).isEqualTo(200);
        assertThat(withToken.body()).contains("bellows_grpc_connections ").contains("bellows_grpc_calls_in_progress ")
            .contains("bellows_grpc_open_scans ").contains("bellows_grpc_connections_refused_total ");
        HttpResponse<String> without = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + server.httpPort + "/status.json")).timeout(Duration.ofSeconds(60)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(without.body()).doesNotContain("regions");
        // A name the server does not know (DNS rebinding) is refused, token or not.
        String rebound = rawHttp(server.httpPort, "GET /status.json HTTP/1.1\r\nHost: attacker.example:"
            + server.httpPort + "\r\nAuthorization: Bearer ops-secret\r\nConnection: close\r\n\r\n");
        assertThat(rebound).startsWith("HTTP/1.1 421");
      } finally {
        for (Socket s : halfSent) {
          s.close();
        }
      }
    }
  }

  @Test
  void adminCallsAndRefusalsAreAudited() throws Exception {
    String config = "http.port = -1\ntoken.ops = admin " + sha256("ops-secret") + "\n";
    try (ChildServer server = new ChildServer(dir, config, 1024, "128m")) {
      try (Bellows ops = RemoteEngine.connect(server.target(), ONCE.withToken("ops-secret"))) {
        ops.createTable(TableDescriptor.builder("audited").family("f").build());
      }
      try (Bellows guess = RemoteEngine.connect(server.target(), ONCE.withToken("guess"))) {
        org.assertj.core.api.Assertions.assertThatThrownBy(guess::listTables).isInstanceOf(RuntimeException.class);
      }
      assertThat(server.awaitLog("refused ListTables")) // the child writes its log on its own.containsPattern("bellows\\.audit - token 'ops' from 127\\.0\\.0\\.1:\\d+: CreateTable")
          .containsPattern("bellows\\.audit - refused ListTables from 127\\.0\\.0\\.1:\\d+: unknown bearer token");
    }
  }

  @Test
  void oneSmallRequestCannotExhaustTheHeap() throws Exception {
    try (ChildServer server = new ChildServer(dir, "http.port = -1\n", 1024, "512m");
        RemoteEngine remote = RemoteEngine.open(server.target(), ONCE);
        Bellows db = Bellows.over(remote)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      byte[] mib = new byte[1 << 20];
      for (int r = 0; r < 12; r++) {
        Put p = new Put("big" + r);
        for (int c = 0; c < 4; c++) {
          p.addColumn(Bytes.of("f"), Bytes.of("q" + c), mib);
        }
        try {
          t.put(p);
        } catch (RuntimeException e) {
          throw new AssertionError("put failed; server alive " + server.process.isAlive() + "; its log:\n" + server.log(), e);
        }
      }
      TableRef ref = remote.table("t");
      TableId id = TableId.newBuilder().setName(ref.name()).setId(ref.id()).build();
      ManagedChannel ch = NettyChannelBuilder.forTarget(server.target()).usePlaintext()
          .maxInboundMessageSize(Integer.MAX_VALUE).build();
      try {
        DataGrpc.DataBlockingStub data = DataGrpc.newBlockingStub(ch);
        // A read-only MultiGet of a few bytes asking for 12 rows of 4 MiB.
        MultiGetRequest.Builder twelve = MultiGetRequest.newBuilder().setTable(id);
        for (int r = 0; r < 12; r++) {
          twelve.addQueries(Query.newBuilder().setStartRow(ByteString.copyFromUtf8("big" + r)).setSingleRow(true));
        }
        assertThat(twelve.build().getSerializedSize()).isLessThan(200);
        assertThatThrownBy(() -> data.multiGet(twelve.build())).isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
        // A Mutate of a million small rows, about 45 MB: under the old 64 MiB message cap.
        MutateRequest.Builder million = MutateRequest.newBuilder().setTable(id);
        for (int i = 0; i < 1_000_000; i++) {
          ByteString row = ByteString.copyFromUtf8(String.format("m%07d", i));
          million.addRows(io.bellows.protocol.RowMutation.newBuilder().setRow(row)
              .addCells(Cell.newBuilder().setRow(row).setFamily(ByteString.copyFromUtf8("f"))
                  .setQualifier(ByteString.copyFromUtf8("q")).setTimestamp(Long.MAX_VALUE).setType(CellType.PUT)
                  .setValue(ByteString.copyFromUtf8("01234567"))));
        }
        MutateRequest request = million.build();
        million = null;
        assertThat(request.getSerializedSize()).isBetween(40 << 20, 64 << 20);
        assertThatThrownBy(() -> data.mutate(request)).isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
      } finally {
        ch.shutdownNow();
      }
      // The server is still up, and nothing of the refused mutation was applied.
      assertThat(server.process.isAlive()).isTrue();
      assertThat(t.get(new Get("m0000000")).isEmpty()).isTrue();
      assertThat(t.get(new Get("big11")).getValue(Bytes.of("f"), Bytes.of("q3"))).hasSize(1 << 20);
      assertThat(server.log()).doesNotContain("OutOfMemoryError");
    }
  }
}
