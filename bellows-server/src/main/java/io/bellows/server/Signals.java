package io.bellows.server;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Catching SIGTERM and SIGINT so that the server process can stop in order and exit with status 0
 * (the JVM's own shutdown on a signal exits with 128 + the signal's number). Uses the JDK's {@code
 * sun.misc.Signal} (module jdk.unsupported) reflectively, so that the build has no warning for an
 * internal API; where it is missing the caller falls back on a shutdown hook.
 */
final class Signals {
  private Signals() {}

  /** Runs {@code action} on a JVM thread at SIGTERM or SIGINT; false if signals cannot be caught here. */
  static boolean onTermination(Runnable action) {
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      InvocationHandler ih = (Object proxy, Method m, Object[] args) -> {
        if (m.getName().equals("handle")) {
          action.run();
          return null;
        }
        return switch (m.getName()) {
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          default -> "bellows-signal-handler";
        };
      };
      Object handler = Proxy.newProxyInstance(Signals.class.getClassLoader(), new Class<?>[] {handlerType}, ih);
      Method handle = signal.getMethod("handle", signal, handlerType);
      for (String name : new String[] {"TERM", "INT"}) {
        handle.invoke(null, signal.getConstructor(String.class).newInstance(name), handler);
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError unavailable) {
      return false;
    }
  }
}
