package io.bellows.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports free on this machine for a test's servers, never the same one twice in a JVM: the system
 * may hand out a port it just handed out once its socket closed, and two members of a test's
 * cluster given one port fail its member file, or the second server's bind.
 */
public final class FreePorts {
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /** A port free now that no caller in this JVM was given before. */
  public static int next() {
    while (true) {
      try (ServerSocket s = new ServerSocket(0)) {
        if (HANDED_OUT.add(s.getLocalPort())) {
          return s.getLocalPort();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("no free port", e);
      }
    }
  }
}
