package io.bellows.server;

import io.grpc.netty.shaded.io.netty.channel.ChannelFactory;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.SocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps the open TCP connections, in all and per client address, at accept: before any TLS or
 * HTTP/2 byte is read, so idle or half-open connections cannot take the file descriptors the
 * engine needs for its WAL and files. A connection over a cap is closed at once. Thread-safe.
 */
final class ConnectionLimiter {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimiter.class);

  private final int max;
  private final int perAddress;
  private final Map<InetAddress, Integer> open = new HashMap<>();
  private int total;
  private long refused;

  ConnectionLimiter(int max, int perAddress) {
    this.max = max;
    this.perAddress = perAddress;
  }

  /**
   * The connection cap for a configured one: at most a quarter of the process's open-file limit
   * (when the JVM tells it), the rest being the engine's.
   */
  static int capped(int configured, long openFileLimit) {
    if (openFileLimit <= 0) {
      return configured;
    }
    return (int) Math.max(1, Math.min(configured, openFileLimit / 4));
  }

  /** The process's open-file limit, or -1 where the JVM does not tell it. */
  static long openFileLimit() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return unix.getMaxFileDescriptorCount();
    }
    return -1;
  }

  int max() {
    return max;
  }

  synchronized int open() {
    return total;
  }

  synchronized long refused() {
    return refused;
  }

  /** Counts a new connection from {@code address}; false (nothing counted) when over a cap. */
  synchronized boolean admit(InetAddress address) {
    int fromThere = open.getOrDefault(address, 0);
    if (total >= max || fromThere >= perAddress) {
      refused++;
      return false;
    }
    open.put(address, fromThere + 1);
    total++;
    return true;
  }

  synchronized void release(InetAddress address) {
    Integer n = open.get(address);
    if (n == null) {
      return;
    }
    if (n <= 1) {
      open.remove(address);
    } else {
      open.put(address, n - 1);
    }
    total--;
  }

  /** Makes the gRPC port's listening channels. */
  final class ListeningChannelFactory implements ChannelFactory<ServerChannel> {
    @Override
    public ServerChannel newChannel() {
      return new ListeningChannel();
    }
  }

  /** The listening channel of the gRPC port: accepts through this limiter. */
  final class ListeningChannel extends NioServerSocketChannel {
    private long lastWarning;

    @Override
    protected int doReadMessages(List<Object> buf) throws Exception {
      int from = buf.size();
      int read = super.doReadMessages(buf);
      int kept = read;
      Iterator<Object> it = buf.subList(from, buf.size()).iterator();
      while (it.hasNext()) {
        SocketChannel ch = (NioSocketChannel) it.next();
        InetAddress address = ch.remoteAddress() == null ? null : ch.remoteAddress().getAddress();
        if (address != null && admit(address)) {
          ch.closeFuture().addListener(f -> release(address));
        } else {
          it.remove();
          kept--;
          ch.unsafe().closeForcibly();
          warn(address);
        }
      }
      return kept;
    }

    /** At most one warning a minute: a flood of connections must not flood the log too. */
    private void warn(InetAddress address) {
      long now = System.nanoTime();
      if (lastWarning == 0 || now - lastWarning > 60_000_000_000L) {
        lastWarning = now;
        LOG.warn("closed a connection from {}: {} connections open (max.connections {}, max.connections.per.address {});"
            + " {} closed so far", address == null ? "?" : address.getHostAddress(), open(), max, perAddress, refused());
      }
    }
  }
}
