package io.bellows.hbase;

/**
 * HBase's {@code Hbck} (repairs of HBase's meta table and assignments) has nothing to act on in
 * Bellows: {@link Unsupported} makes it an {@code Hbck} whose repair operations throw. It exists
 * because HBase's shell asks the connection for one before any command runs.
 */
public final class BellowsHbck {
  private volatile boolean aborted;

  public void close() {}

  public void abort(String why, Throwable e) {
    aborted = true;
  }

  public boolean isAborted() {
    return aborted;
  }

  @Override
  public String toString() {
    return "BellowsHbck";
  }
}
