package io.bellows.engine;

import io.bellows.util.BackgroundError;
import io.bellows.util.EventListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/** Records every event, with latches for the first HARD error and the first recovery. */
final class RecordingListener implements EventListener {
  record Seen<T>(T info, String thread) {}

  final List<Seen<FlushInfo>> flushBegins = new CopyOnWriteArrayList<>();
  final List<Seen<FlushInfo>> flushEnds = new CopyOnWriteArrayList<>();
  final List<Seen<CompactionInfo>> compactionBegins = new CopyOnWriteArrayList<>();
  final List<Seen<CompactionInfo>> compactionEnds = new CopyOnWriteArrayList<>();
  final List<Seen<WriteStallInfo>> stallBegins = new CopyOnWriteArrayList<>();
  final List<Seen<WriteStallInfo>> stallEnds = new CopyOnWriteArrayList<>();
  final List<Seen<BackgroundError>> errors = new CopyOnWriteArrayList<>();
  final List<Seen<BackgroundError>> recoveries = new CopyOnWriteArrayList<>();
  final List<Seen<CorruptionInfo>> corruptions = new CopyOnWriteArrayList<>();
  final CountDownLatch corruptionFound = new CountDownLatch(1);
  final CountDownLatch firstError = new CountDownLatch(1);
  final CountDownLatch writesStopped = new CountDownLatch(1);
  final CountDownLatch recovered = new CountDownLatch(1);
  final CountDownLatch flushed = new CountDownLatch(1);

  private static <T> Seen<T> seen(T info) {
    return new Seen<>(info, Thread.currentThread().getName());
  }

  @Override
  public void flushBegin(FlushInfo info) {
    flushBegins.add(seen(info));
  }

  @Override
  public void flushEnd(FlushInfo info) {
    flushEnds.add(seen(info));
    flushed.countDown();
  }

  @Override
  public void compactionBegin(CompactionInfo info) {
    compactionBegins.add(seen(info));
  }

  @Override
  public void compactionEnd(CompactionInfo info) {
    compactionEnds.add(seen(info));
  }

  @Override
  public void writeStallBegin(WriteStallInfo info) {
    stallBegins.add(seen(info));
  }

  @Override
  public void writeStallEnd(WriteStallInfo info) {
    stallEnds.add(seen(info));
  }

  @Override
  public void backgroundError(BackgroundError error) {
    errors.add(seen(error));
    firstError.countDown();
    if (error.stopsWrites()) {
      writesStopped.countDown();
    }
  }

  @Override
  public void errorRecovered(BackgroundError cleared) {
    recoveries.add(seen(cleared));
    recovered.countDown();
  }

  @Override
  public void corruptionFound(CorruptionInfo info) {
    corruptions.add(seen(info));
    corruptionFound.countDown();
  }
}
