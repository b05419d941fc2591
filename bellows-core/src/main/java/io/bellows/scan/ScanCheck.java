package io.bellows.scan;

/**
 * A check a scan makes every {@link ScanQuery#checkEveryRows()} rows it reads, rows its filter
 * drops included: it throws (an unchecked exception of the caller's choosing) to end the scan, for
 * example once the caller's deadline has passed or its client went away. So a scan whose filter
 * keeps nothing still ends in time. Runs on the scanning thread.
 */
@FunctionalInterface
public interface ScanCheck {
  /** No check. */
  ScanCheck NONE = () -> {};

  void check();
}
