package io.bellows.wire;

import com.google.protobuf.InvalidProtocolBufferException;
import io.bellows.util.BackgroundError;
import io.bellows.util.EngineClosedException;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.RefusedException;
import io.bellows.util.StorageException;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import io.bellows.util.WritesStoppedException;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/**
 * Engine exceptions to gRPC statuses (server) and back (client). The status description is the
 * engine's message unchanged; trailers carry the {@link ErrorKind}, a retry hint and whether the
 * request was certainly not applied. Stateless.
 */
public final class WireErrors {
  /** The {@link ErrorKind} name. */
  public static final Metadata.Key<String> KIND = Metadata.Key.of("bellows-error", Metadata.ASCII_STRING_MARSHALLER);
  /** Milliseconds to wait before retrying, for retryable errors. */
  public static final Metadata.Key<String> RETRY_AFTER_MS =
      Metadata.Key.of("bellows-retry-after-ms", Metadata.ASCII_STRING_MARSHALLER);
  /** "false" when the server guarantees nothing of the request was applied (safe to retry any call). */
  public static final Metadata.Key<String> APPLIED = Metadata.Key.of("bellows-applied", Metadata.ASCII_STRING_MARSHALLER);
  /** The background error that stopped writes, a serialized bellows.v1.BackgroundError. */
  public static final Metadata.Key<byte[]> BACKGROUND_ERROR =
      Metadata.Key.of("bellows-background-error-bin", Metadata.BINARY_BYTE_MARSHALLER);

  /** The client address ("host:port") of the leader a NOT_LEADER answer names, when known. */
  public static final Metadata.Key<String> LEADER = Metadata.Key.of("bellows-leader", Metadata.ASCII_STRING_MARSHALLER);

  /** How long a client waits before retrying a write refused because writes are stopped. */
  static final long WRITES_STOPPED_RETRY_MS = 1000;

  private WireErrors() {}

  /** The status and trailers a server answers a call that threw {@code t} with. */
  public static StatusRuntimeException toStatus(Throwable t) {
    if (t instanceof StatusRuntimeException s) {
      return s;
    }
    ErrorKind kind = kindOf(t);
    Metadata trailers = new Metadata();
    trailers.put(KIND, kind.name());
    switch (kind) {
      case WRITES_STOPPED -> {
        trailers.put(APPLIED, "false");
        trailers.put(RETRY_AFTER_MS, Long.toString(WRITES_STOPPED_RETRY_MS));
        BackgroundError reason = ((WritesStoppedException) t).reason();
        if (reason != null) {
          trailers.put(BACKGROUND_ERROR, Wire.toWire(reason).toByteArray());
        }
      }
      case ENGINE_CLOSED -> trailers.put(APPLIED, "false");
      default -> { }
    }
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return Status.fromCode(kind.code()).withDescription(message).asRuntimeException(trailers);
  }

  /** A refusal before anything ran: too many calls in progress. */
  public static StatusRuntimeException throttled(String message, long retryAfterMillis) {
    Metadata trailers = new Metadata();
    trailers.put(KIND, ErrorKind.THROTTLED.name());
    trailers.put(APPLIED, "false");
    trailers.put(RETRY_AFTER_MS, Long.toString(retryAfterMillis));
    return Status.RESOURCE_EXHAUSTED.withDescription(message).asRuntimeException(trailers);
  }

  /**
   * A cluster member's refusal of a call it cannot serve because it does not lead the region (or
   * the catalog): nothing applied; {@code leaderAddress} (or null) is where to go.
   */
  public static StatusRuntimeException notLeader(String message, String leaderAddress) {
    Metadata trailers = new Metadata();
    trailers.put(KIND, ErrorKind.NOT_LEADER.name());
    trailers.put(APPLIED, "false");
    if (leaderAddress != null) {
      trailers.put(LEADER, leaderAddress);
    }
    return Status.UNAVAILABLE.withDescription(message).asRuntimeException(trailers);
  }

  /** The leader a NOT_LEADER answer names, or null. */
  public static String leader(StatusRuntimeException e) {
    Metadata trailers = e.getTrailers();
    return trailers == null ? null : trailers.get(LEADER);
  }

  /** A refusal of the caller's credentials or rights, before anything ran. */
  public static StatusRuntimeException refused(ErrorKind kind, String message) {
    Metadata trailers = new Metadata();
    trailers.put(KIND, kind.name());
    trailers.put(APPLIED, "false");
    return Status.fromCode(kind.code()).withDescription(message).asRuntimeException(trailers);
  }

  static ErrorKind kindOf(Throwable t) {
    if (t instanceof TableNotFoundException) {
      return ErrorKind.TABLE_NOT_FOUND;
    }
    if (t instanceof NoSuchColumnFamilyException) {
      return ErrorKind.NO_SUCH_FAMILY;
    }
    if (t instanceof TableExistsException) {
      return ErrorKind.TABLE_EXISTS;
    }
    if (t instanceof TableNotEnabledException) {
      return ErrorKind.TABLE_NOT_ENABLED;
    }
    if (t instanceof WritesStoppedException) {
      return ErrorKind.WRITES_STOPPED;
    }
    if (t instanceof EngineClosedException) {
      return ErrorKind.ENGINE_CLOSED;
    }
    if (t instanceof IllegalArgumentException) {
      return ErrorKind.INVALID_ARGUMENT;
    }
    if (t instanceof RefusedException) {
      return ErrorKind.REFUSED;
    }
    return ErrorKind.STORAGE;
  }

  /** The kind a failed call reports, or null (an error of the transport or of gRPC itself). */
  public static ErrorKind kind(StatusRuntimeException e) {
    Metadata trailers = e.getTrailers();
    String k = trailers == null ? null : trailers.get(KIND);
    if (k == null) {
      return null;
    }
    try {
      return ErrorKind.valueOf(k);
    } catch (IllegalArgumentException unknown) {
      return null;
    }
  }

  /** Whether the server said nothing of the failed call was applied. */
  public static boolean certainlyNotApplied(StatusRuntimeException e) {
    Metadata trailers = e.getTrailers();
    return trailers != null && "false".equals(trailers.get(APPLIED));
  }

  /** The server's retry hint in milliseconds, or -1. */
  public static long retryAfterMillis(StatusRuntimeException e) {
    Metadata trailers = e.getTrailers();
    String v = trailers == null ? null : trailers.get(RETRY_AFTER_MS);
    if (v == null) {
      return -1;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException bad) {
      return -1;
    }
  }

  /** The engine exception a client raises for a failed call: the type the engine itself threw. */
  public static RuntimeException toException(StatusRuntimeException e) {
    String message = e.getStatus().getDescription() != null ? e.getStatus().getDescription() : e.getStatus().getCode().name();
    ErrorKind kind = kind(e);
    if (kind == null) {
      return new RemoteCallException(e.getStatus().getCode(), e.getMessage(), e);
    }
    return switch (kind) {
      case TABLE_NOT_FOUND -> new TableNotFoundException(message);
      case NO_SUCH_FAMILY -> new NoSuchColumnFamilyException(message);
      case TABLE_EXISTS -> new TableExistsException(message);
      case TABLE_NOT_ENABLED -> new TableNotEnabledException(message);
      case INVALID_ARGUMENT -> new IllegalArgumentException(message);
      case WRITES_STOPPED -> new WritesStoppedException(message, backgroundError(e), e);
      case ENGINE_CLOSED -> new EngineClosedException(message);
      case STORAGE -> new StorageException(message, e);
      case REFUSED -> new RefusedException(message, e);
      case NOT_LEADER -> new NotLeaderRefusal(message, leader(e), e);
      case THROTTLED, UNAUTHENTICATED, PERMISSION_DENIED ->
          new RemoteCallException(e.getStatus().getCode(), e.getStatus().getCode() + ": " + message, e);
    };
  }

  private static BackgroundError backgroundError(StatusRuntimeException e) {
    byte[] b = e.getTrailers() == null ? null : e.getTrailers().get(BACKGROUND_ERROR);
    if (b == null) {
      return null;
    }
    try {
      return Wire.fromWire(io.bellows.protocol.BackgroundError.parseFrom(b));
    } catch (InvalidProtocolBufferException | IllegalArgumentException bad) {
      return null;
    }
  }
}
