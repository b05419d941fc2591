package io.bellows.hbase;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Implements one of HBase's wide interfaces (Table, Admin: hundreds of methods) over a delegate
 * that has public methods for the part Bellows supports, matched by name and parameter types.
 * Every other method throws {@link UnsupportedOperationException} naming it, so nothing is ever
 * silently skipped. What a supported method throws reaches the caller as HBase's exception ({@link
 * Exceptions}) where the interface method declares {@code IOException}.
 */
final class Unsupported {
  private Unsupported() {}

  static <T> T proxy(Class<T> api, Object delegate) {
    Map<Method, Method> targets = new ConcurrentHashMap<>();
    InvocationHandler h = (proxy, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        switch (method.getName()) {
          case "equals": return proxy == args[0];
          case "hashCode": return System.identityHashCode(proxy);
          default: return api.getSimpleName() + " over " + delegate;
        }
      }
      Method target = targets.computeIfAbsent(method, m -> find(delegate.getClass(), m));
      if (target == NONE) {
        throw new UnsupportedOperationException(api.getSimpleName() + "." + method.getName()
            + " is not supported by Bellows");
      }
      try {
        return target.invoke(delegate, args);
      } catch (InvocationTargetException e) {
        throw Exceptions.thrownBy(method, e.getCause()); // Bellows' exceptions as HBase's
      }
    };
    return api.cast(Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, h));
  }

  private static final Method NONE;

  static {
    try {
      NONE = Object.class.getMethod("toString");
    } catch (NoSuchMethodException e) {
      throw new AssertionError(e);
    }
  }

  private static Method find(Class<?> type, Method m) {
    try {
      Method t = type.getMethod(m.getName(), m.getParameterTypes());
      return t.getDeclaringClass() == Object.class ? NONE : t;
    } catch (NoSuchMethodException e) {
      return NONE;
    }
  }
}
