package io.bellows.util;

/**
 * The source of wall-clock time for timestamps and TTL. Passed in rather than read from {@link
 * System} so that tests can control time (TTL expiry, periodic work) deterministically.
 */
public interface Clock {
  Clock SYSTEM = System::currentTimeMillis;

  long currentTimeMillis();

  /** A clock tests can move by hand. */
  final class Manual implements Clock {
    private volatile long now;

    public Manual(long start) {
      this.now = start;
    }

    @Override
    public long currentTimeMillis() {
      return now;
    }

    public void advance(long millis) {
      now += millis;
    }

    public void set(long millis) {
      now = millis;
    }
  }
}
