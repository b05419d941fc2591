package io.bellows.fs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;

/** The one answer of a local file to an interrupted caller: its own call fails, its flag stays set. */
final class Interrupts {
  private Interrupts() {}

  /** Throws an {@link InterruptedIOException} if the calling thread is interrupted (the flag stays set). */
  static void check(Path path) throws InterruptedIOException {
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedIOException(path + ": interrupted");
    }
  }

  /** As {@link #check(Path)}, with {@code cause} (the channel's own exception) attached. */
  static void check(Path path, IOException cause) throws InterruptedIOException {
    if (Thread.currentThread().isInterrupted()) {
      InterruptedIOException e = new InterruptedIOException(path + ": interrupted");
      e.initCause(cause);
      throw e;
    }
  }
}
