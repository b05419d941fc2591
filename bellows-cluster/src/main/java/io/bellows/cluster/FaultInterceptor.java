package io.bellows.cluster;

import org.apache.ratis.proto.RaftProtos.RaftRpcRequestProto;
import org.apache.ratis.thirdparty.com.google.protobuf.Descriptors.FieldDescriptor;
import org.apache.ratis.thirdparty.com.google.protobuf.Message;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCall;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCallListener;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;

/**
 * Applies {@link TransportFaults} on the receiving node: a Raft request (append entries, vote,
 * read index, install snapshot...) from a peer the node is cut off from ends its call as
 * UNAVAILABLE and reaches neither Ratis nor, afterwards, anything Ratis sends on that call.
 */
final class FaultInterceptor implements ServerInterceptor {
  private final String self;
  private final TransportFaults faults;

  FaultInterceptor(String self, TransportFaults faults) {
    this.self = self;
    this.faults = faults;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    Cut<Q, R> guarded = new Cut<>(call);
    ServerCall.Listener<Q> delegate = next.startCall(guarded, headers);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
      @Override
      public void onMessage(Q message) {
        if (guarded.cut) {
          return;
        }
        String from = requestor(message);
        if (from != null && faults.drops(from, self)) {
          guarded.cutOff("partitioned: " + from + " cannot reach " + self);
          return;
        }
        super.onMessage(message);
      }

      @Override
      public void onHalfClose() {
        if (!guarded.cut) {
          super.onHalfClose();
        }
      }
    };
  }

  /** The id of the node that sent a Raft server request, or null for other messages. */
  private static String requestor(Object message) {
    if (!(message instanceof Message m)) {
      return null;
    }
    FieldDescriptor f = m.getDescriptorForType().findFieldByName("serverRequest");
    if (f == null || !m.hasField(f)) {
      return null;
    }
    return ((RaftRpcRequestProto) m.getField(f)).getRequestorId().toStringUtf8();
  }

  /** The call as Ratis sees it: once cut off, what Ratis sends on it goes nowhere. */
  private static final class Cut<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
    private volatile boolean cut;

    Cut(ServerCall<Q, R> call) {
      super(call);
    }

    synchronized void cutOff(String why) {
      if (!cut) {
        cut = true;
        super.close(Status.UNAVAILABLE.withDescription(why), new Metadata());
      }
    }

    @Override
    public synchronized void sendMessage(R message) {
      if (!cut) {
        super.sendMessage(message);
      }
    }

    @Override
    public synchronized void close(Status status, Metadata trailers) {
      if (!cut) {
        cut = true;
        super.close(status, trailers);
      }
    }
  }
}
