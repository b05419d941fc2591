package io.bellows.engine;

import io.bellows.util.BackgroundError;
import io.bellows.util.EventListener;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's listeners as one that never throws: each event goes to every listener in order; an
 * exception from one is caught, logged once per listener (later ones at DEBUG) and counted, and the
 * others still get the event.
 */
final class Listeners implements EventListener {
  private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);

  private final EventListener[] listeners;
  private final AtomicBoolean[] logged;
  private final LongAdder failures = new LongAdder();

  Listeners(List<EventListener> listeners) {
    this.listeners = listeners.toArray(new EventListener[0]);
    this.logged = new AtomicBoolean[this.listeners.length];
    for (int i = 0; i < logged.length; i++) {
      logged[i] = new AtomicBoolean();
    }
  }

  /** Exceptions thrown by listeners so far. */
  long failures() {
    return failures.sum();
  }

  private void each(String event, Consumer<EventListener> call) {
    for (int i = 0; i < listeners.length; i++) {
      try {
        call.accept(listeners[i]);
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable t) {
        failures.increment();
        if (logged[i].compareAndSet(false, true)) {
          LOG.warn("event listener {} threw from {}; the engine ignores it (this is logged once per listener;"
              + " the metric event.listener.failures counts them)", listeners[i], event, t);
        } else {
          LOG.debug("event listener {} threw from {} again", listeners[i], event, t);
        }
      }
    }
  }

  @Override
  public void flushBegin(FlushInfo info) {
    each("flushBegin", l -> l.flushBegin(info));
  }

  @Override
  public void flushEnd(FlushInfo info) {
    each("flushEnd", l -> l.flushEnd(info));
  }

  @Override
  public void compactionBegin(CompactionInfo info) {
    each("compactionBegin", l -> l.compactionBegin(info));
  }

  @Override
  public void compactionEnd(CompactionInfo info) {
    each("compactionEnd", l -> l.compactionEnd(info));
  }

  @Override
  public void writeStallBegin(WriteStallInfo info) {
    each("writeStallBegin", l -> l.writeStallBegin(info));
  }

  @Override
  public void writeStallEnd(WriteStallInfo info) {
    each("writeStallEnd", l -> l.writeStallEnd(info));
  }

  @Override
  public void backgroundError(BackgroundError error) {
    each("backgroundError", l -> l.backgroundError(error));
  }

  @Override
  public void errorRecovered(BackgroundError cleared) {
    each("errorRecovered", l -> l.errorRecovered(cleared));
  }

  @Override
  public void corruptionFound(CorruptionInfo info) {
    each("corruptionFound", l -> l.corruptionFound(info));
  }
}
