package io.bellows.wal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The WAL's background thread: runs a task every {@code periodMs} until stopped. The wait between
 * runs is a timed wait on a condition, so {@link #stop()} wakes it at once and joins it.
 *
 * <p>Thread-safe. Invariant: after {@link #stop()} returns, the task is not running and never runs
 * again, and the thread has terminated.
 */
final class PeriodicSyncer {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition stopRequested = lock.newCondition();
  private final long periodNanos;
  private final Runnable task;
  private final Thread thread;
  private boolean stopping; // guarded by lock

  PeriodicSyncer(String name, long periodMs, Runnable task) {
    this.periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMs);
    this.task = task;
    this.thread = new Thread(this::loop, name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void loop() {
    for (;;) {
      lock.lock();
      try {
        long wait = periodNanos;
        while (!stopping && wait > 0) {
          wait = stopRequested.awaitNanos(wait);
        }
        if (stopping) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.unlock();
      }
      task.run();
    }
  }

  /** Stops the thread and waits for it to end (a run in progress completes first). */
  void stop() {
    lock.lock();
    try {
      stopping = true;
      stopRequested.signalAll();
    } finally {
      lock.unlock();
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  boolean isAlive() {
    return thread.isAlive();
  }
}
