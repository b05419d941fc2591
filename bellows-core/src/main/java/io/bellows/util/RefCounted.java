package io.bellows.util;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one reference-count primitive of Bellows (sorted-file readers, memory chunks, segments). The
 * creator holds the first reference; {@link #release()} of the last reference runs {@link
 * #deallocate()} exactly once. Retaining a released object throws, so a use-after-free is loud.
 */
public abstract class RefCounted {
  private final AtomicInteger refs = new AtomicInteger(1);

  /** Takes a reference; throws if the object was already freed. */
  public final void retain() {
    for (;;) {
      int r = refs.get();
      if (r <= 0) {
        throw new IllegalStateException(this + " was already released");
      }
      if (refs.compareAndSet(r, r + 1)) {
        return;
      }
    }
  }

  /** Takes a reference unless the object is already freed; returns whether it did. */
  public final boolean tryRetain() {
    for (;;) {
      int r = refs.get();
      if (r <= 0) {
        return false;
      }
      if (refs.compareAndSet(r, r + 1)) {
        return true;
      }
    }
  }

  /** Drops a reference; the last one frees the object. */
  public final void release() {
    int r = refs.decrementAndGet();
    if (r == 0) {
      deallocate();
    } else if (r < 0) {
      throw new IllegalStateException(this + " released more often than retained");
    }
  }

  public final int refCount() {
    return refs.get();
  }

  /** Frees the underlying resource; called once, by the thread that dropped the last reference. */
  protected abstract void deallocate();
}
