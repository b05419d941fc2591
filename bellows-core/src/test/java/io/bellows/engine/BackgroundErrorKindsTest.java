package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.EventListener;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resource exhaustion is never silent: an {@link Error} thrown inside background work (here an
 * {@link OutOfMemoryError} from a listener's {@code flushBegin}, which the engine lets through as it
 * does every {@link VirtualMachineError}) is recorded as a background error and retried as a failed
 * flush is, and the retry that works clears it.
 */
class BackgroundErrorKindsTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  @Timeout(60)
  void anErrorInABackgroundFlushIsRecordedAndRetried() throws Exception {
    AtomicBoolean thrown = new AtomicBoolean();
    RecordingListener rec = new RecordingListener();
    EventListener exhausted = new EventListener() {
      @Override
      public void flushBegin(FlushInfo info) {
        if (Thread.currentThread().getName().startsWith("bellows-flush") && thrown.compareAndSet(false, true)) {
          throw new OutOfMemoryError("injected: Java heap space");
        }
      }
    };
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().eventListener(rec).eventListener(exhausted).build())) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family("f").build());
      Table t = db.getTable("t");
      for (int i = 0; i < 100; i++) { // past the flush size: a background flush
        t.put(new Put(Bytes.of("row" + i)).addColumn(F, Q, new byte[1000]));
      }
      assertThat(rec.firstError.await(30, TimeUnit.SECONDS)).as("error recorded").isTrue();
      BackgroundError e = rec.errors.get(0).info();
      assertThat(e.kind()).isEqualTo(BackgroundError.Kind.FLUSH);
      assertThat(e.severity()).isEqualTo(BackgroundError.Severity.SOFT);
      assertThat(e.table()).isEqualTo("t");
      assertThat(e.message()).contains("injected: Java heap space");
      assertThat(rec.errors.get(0).thread()).startsWith("bellows-flush");

      assertThat(rec.recovered.await(30, TimeUnit.SECONDS)).as("the retry worked").isTrue();
      assertThat(rec.flushed.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(db.metrics().get("flush.failures").longValue()).isEqualTo(1);
      assertThat(db.backgroundError()).isEmpty();
      assertThat(t.get(new Get(Bytes.of("row0"))).getValue(F, Q)).hasSize(1000);
    }
  }
}
