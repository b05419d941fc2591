package io.bellows.server;

import io.bellows.cluster.LogPosition;
import io.bellows.cluster.checkpoint.CheckpointFetcher;
import io.bellows.cluster.checkpoint.CheckpointManifest;
import io.bellows.cluster.checkpoint.CheckpointSession;
import io.bellows.cluster.checkpoint.CheckpointSource;
import io.bellows.cluster.server.Members;
import io.bellows.protocol.CheckpointChunk;
import io.bellows.protocol.CheckpointFile;
import io.bellows.protocol.CloseCheckpointRequest;
import io.bellows.protocol.OpenCheckpointRequest;
import io.bellows.protocol.OpenCheckpointResponse;
import io.bellows.protocol.ReadCheckpointRequest;
import io.bellows.protocol.ReplicationGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Checkpoints fetched from another member of the cluster over its client port (the internal
 * Replication call of bellows.proto): the leader's node id is looked up in the member file, the
 * call carries this member's {@code cluster.token} and, where members speak TLS, trusts {@code
 * cluster.tls.ca} (and shows this member's own certificate for mutual TLS). Each call has a
 * deadline of {@link #CALL_DEADLINE_MS}. Thread-safe; one channel per member, kept until {@link
 * #close}.
 */
public final class GrpcCheckpointSource implements CheckpointSource, AutoCloseable {
  static final long CALL_DEADLINE_MS = 60_000;
  private static final int MAX_MESSAGE = 8 << 20;
  /**
   * The HTTP/2 receive window of a channel to a leader: room for every chunk a fetch keeps in
   * flight, so the leader sends each whole without waiting for window updates (gRPC starts at
   * 1 MiB, four updates per 4 MiB chunk, each a thread wake-up on both members).
   */
  static final int FLOW_WINDOW = CheckpointFetcher.IN_FLIGHT * CheckpointFetcher.CHUNK_BYTES + (1 << 20);

  private final Members members;
  /** The client addresses of members added to the cluster since the member file was read. */
  private final Map<String, String> added = new ConcurrentHashMap<>();
  private final ServerConfig.ClusterAccess access;
  private final Path clientCert;
  private final Path clientKey;
  private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();

  /**
   * @param clientCert this member's certificate, shown to members that ask for one (null: none)
   * @param clientKey its private key
   */
  public GrpcCheckpointSource(Members members, ServerConfig.ClusterAccess access, Path clientCert, Path clientKey) {
    this.members = members;
    this.access = access;
    this.clientCert = clientCert;
    this.clientKey = clientKey;
  }

  /** The source a server of {@code config} in the cluster {@code members} uses. */
  public static GrpcCheckpointSource of(Members members, ServerConfig config) {
    return new GrpcCheckpointSource(members, config.cluster(), config.tlsCert(), config.tlsKey());
  }

  @Override
  public void learn(String member, String clientAddress) {
    added.put(member, clientAddress);
  }

  @Override
  public CheckpointSession open(UUID group, String leader) throws IOException {
    String address = members.clientAddressOf(leader);
    if (address == null) {
      address = leader == null ? null : added.get(leader);
    }
    if (address == null) {
      throw new IOException("no member '" + leader + "' in the member file");
    }
    ReplicationGrpc.ReplicationBlockingStub stub = stub(address);
    OpenCheckpointResponse r;
    try {
      r = stub.withDeadlineAfter(CALL_DEADLINE_MS, TimeUnit.MILLISECONDS)
          .openCheckpoint(OpenCheckpointRequest.newBuilder().setGroup(group.toString()).build());
    } catch (StatusRuntimeException e) {
      throw failure("could not open a checkpoint of group " + group + " on " + leader + " (" + address + ")", e);
    }
    List<CheckpointManifest.FileEntry> files = new ArrayList<>();
    for (CheckpointFile f : r.getFilesList()) {
      files.add(new CheckpointManifest.FileEntry(f.getPath(), f.getLength(), f.getCrc32C()));
    }
    CheckpointManifest manifest = new CheckpointManifest(UUID.fromString(r.getGroup()),
        new LogPosition(r.getTerm(), r.getIndex()), files);
    String session = r.getSession();
    return new CheckpointSession() {
      @Override
      public CheckpointManifest manifest() {
        return manifest;
      }

      @Override
      public Chunk read(String path, long offset, int length) throws IOException {
        try {
          CheckpointChunk c = stub.withDeadlineAfter(CALL_DEADLINE_MS, TimeUnit.MILLISECONDS).readCheckpoint(
              ReadCheckpointRequest.newBuilder().setSession(session).setPath(path).setOffset(offset).setLength(length)
                  .build());
          return new Chunk(c.getData().toByteArray(), c.getCrc32C());
        } catch (StatusRuntimeException e) {
          throw failure("could not read " + path + " of the checkpoint of group " + group + " from " + leader, e);
        }
      }

      @Override
      public void close() {
        try {
          stub.withDeadlineAfter(CALL_DEADLINE_MS, TimeUnit.MILLISECONDS)
              .closeCheckpoint(CloseCheckpointRequest.newBuilder().setSession(session).build());
        } catch (StatusRuntimeException e) {
          // the leader drops it when newer ones replace it
        }
      }
    };
  }

  private static IOException failure(String what, StatusRuntimeException e) {
    return new IOException(what + ": " + e.getStatus().getCode() + " " + e.getStatus().getDescription(), e);
  }

  private ReplicationGrpc.ReplicationBlockingStub stub(String address) throws IOException {
    ManagedChannel ch;
    try {
      ch = channels.computeIfAbsent(address, this::channel);
    } catch (IllegalStateException e) {
      throw new IOException(e.getMessage(), e.getCause());
    }
    Channel c = access.token() == null ? ch : ClientInterceptors.intercept(ch, bearer(access.token()));
    return ReplicationGrpc.newBlockingStub(c);
  }

  private ManagedChannel channel(String address) {
    NettyChannelBuilder b = NettyChannelBuilder.forTarget(address).maxInboundMessageSize(MAX_MESSAGE)
        .flowControlWindow(FLOW_WINDOW);
    if (access.tlsCa() == null) {
      b.usePlaintext();
    } else {
      try {
        SslContextBuilder ssl = GrpcSslContexts.forClient().trustManager(access.tlsCa().toFile());
        if (clientCert != null) {
          ssl.keyManager(clientCert.toFile(), clientKey.toFile());
        }
        b.sslContext(ssl.build());
      } catch (IOException | IllegalArgumentException e) {
        throw new IllegalStateException("cannot read the cluster's TLS files (cluster.tls.ca " + access.tlsCa()
            + "): " + e.getMessage(), e);
      }
    }
    return b.build();
  }

  private static ClientInterceptor bearer(String token) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put(AuthInterceptor.AUTHORIZATION, "Bearer " + token);
            super.start(listener, headers);
          }
        };
      }
    };
  }

  @Override
  public void close() {
    channels.values().forEach(ManagedChannel::shutdownNow);
    channels.clear();
  }
}
