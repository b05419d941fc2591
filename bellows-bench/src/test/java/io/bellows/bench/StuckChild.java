package io.bellows.bench;

/**
 * A child JVM for {@code PaperBenchTest}: it says it started, then its progress thread prints the
 * same figures every 100 ms while its work never moves, as a benchmark child whose store hangs
 * does. It gives up after 5 minutes, so that a child the test did not kill does not outlive it for
 * long.
 */
public final class StuckChild {
  private StuckChild() {}

  public static void main(String[] args) throws Exception {
    System.out.println("stuck at work");
    for (int i = 0; i < 3000; i++) {
      System.out.println(PaperChild.PROGRESS_PREFIX + 42);
      System.out.flush();
      Thread.sleep(100); // a reporting period, not synchronization
    }
  }
}
