package io.bellows.server;

import io.bellows.cluster.checkpoint.CheckpointManifest;
import io.bellows.cluster.checkpoint.CheckpointProvider;
import io.bellows.cluster.checkpoint.CheckpointSession;
import io.bellows.protocol.CheckpointChunk;
import io.bellows.protocol.CheckpointFile;
import io.bellows.protocol.CloseCheckpointRequest;
import io.bellows.protocol.Empty;
import io.bellows.protocol.OpenCheckpointRequest;
import io.bellows.protocol.OpenCheckpointResponse;
import io.bellows.protocol.ReadCheckpointRequest;
import io.bellows.protocol.ReplicationGrpc;
import io.bellows.util.StorageException;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The members' internal call (bellows.proto's Replication): hands a checkpoint of this member's
 * replica of a region to a member behind the region's log, a chunk at a time. Sessions are kept
 * until closed; at most {@link #MAX_SESSIONS} (the oldest is closed when more are opened, and its
 * reader, if still there, starts again). Thread-safe.
 */
final class ReplicationService extends ReplicationGrpc.ReplicationImplBase {
  static final int MAX_SESSIONS = 16;
  static final int MAX_CHUNK = 4 << 20;

  private final CheckpointProvider provider;
  private final AtomicLong ids = new AtomicLong();
  private final Map<String, CheckpointSession> sessions = new LinkedHashMap<>();

  ReplicationService(CheckpointProvider provider) {
    this.provider = provider;
  }

  @Override
  public void openCheckpoint(OpenCheckpointRequest request, StreamObserver<OpenCheckpointResponse> response) {
    Calls.unary(response, () -> {
      UUID group;
      try {
        group = UUID.fromString(request.getGroup());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("not a group id: '" + request.getGroup() + "'");
      }
      CheckpointSession s;
      try {
        s = provider.open(group);
      } catch (IOException e) {
        throw new StorageException("cannot take a checkpoint of group " + group + ": " + e.getMessage(), e);
      }
      String id = group + "/" + ids.incrementAndGet();
      CheckpointSession dropped = null;
      synchronized (sessions) {
        sessions.put(id, s);
        if (sessions.size() > MAX_SESSIONS) {
          String oldest = sessions.keySet().iterator().next();
          dropped = sessions.remove(oldest);
        }
      }
      if (dropped != null) {
        dropped.close();
      }
      CheckpointManifest m = s.manifest();
      OpenCheckpointResponse.Builder b = OpenCheckpointResponse.newBuilder().setSession(id)
          .setGroup(m.group().toString()).setTerm(m.position().term()).setIndex(m.position().index());
      for (CheckpointManifest.FileEntry f : m.files()) {
        b.addFiles(CheckpointFile.newBuilder().setPath(f.path()).setLength(f.length()).setCrc32C(f.crc32c()));
      }
      return b.build();
    });
  }

  @Override
  public void readCheckpoint(ReadCheckpointRequest request, StreamObserver<CheckpointChunk> response) {
    if (request.getLength() < 0 || request.getLength() > MAX_CHUNK) {
      response.onError(Status.INVALID_ARGUMENT.withDescription("a chunk is 0 to " + MAX_CHUNK + " bytes, not "
          + request.getLength()).asRuntimeException());
      return;
    }
    Calls.unary(response, () -> {
      CheckpointSession s = session(request.getSession());
      try {
        CheckpointSession.Chunk c = s.read(request.getPath(), request.getOffset(), request.getLength());
        // The session's array is the chunk's own (read for this call): handed over without a copy.
        return CheckpointChunk.newBuilder().setData(com.google.protobuf.UnsafeByteOperations.unsafeWrap(c.bytes()))
            .setCrc32C(c.crc32c()).build();
      } catch (IOException e) {
        throw new StorageException(e.getMessage(), e);
      }
    });
  }

  @Override
  public void closeCheckpoint(CloseCheckpointRequest request, StreamObserver<Empty> response) {
    Calls.unary(response, () -> {
      CheckpointSession s;
      synchronized (sessions) {
        s = sessions.remove(request.getSession());
      }
      if (s != null) {
        s.close();
      }
      return Empty.getDefaultInstance();
    });
  }

  private CheckpointSession session(String id) {
    synchronized (sessions) {
      CheckpointSession s = sessions.get(id);
      if (s == null) {
        throw new IllegalArgumentException("no checkpoint session '" + id + "' (closed, or replaced by newer ones):"
            + " open a new one");
      }
      return s;
    }
  }
}
