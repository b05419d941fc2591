package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.EventListener;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Background compactions of different regions run at once on a compaction pool of two threads:
 * each compaction, as it begins, waits until the other region's has begun too. On one thread the
 * second could only begin after the first ended, and the wait would run out.
 */
class ParallelCompactionTest {
  @TempDir Path dir;

  @Test
  @Timeout(120)
  void compactionsOfTwoRegionsRunAtOnce() throws Exception {
    CountDownLatch bothBegun = new CountDownLatch(2);
    Set<String> threads = ConcurrentHashMap.newKeySet();
    java.util.concurrent.atomic.AtomicInteger met = new java.util.concurrent.atomic.AtomicInteger();
    EventListener meetInTheMiddle = new EventListener() {
      @Override
      public void compactionBegin(CompactionInfo info) {
        if (!Thread.currentThread().getName().startsWith("bellows-compaction")) {
          return; // the test's own major compaction below
        }
        threads.add(Thread.currentThread().getName());
        bothBegun.countDown();
        try {
          if (bothBegun.await(30, TimeUnit.SECONDS)) { // hold this compaction until the other has begun
            met.incrementAndGet();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    EngineOptions opts = EngineOptions.builder()
        .set(Knobs.COMPACTION_THREADS, 2)
        .set(Knobs.COMPACTION_MIN_FILES, 2)
        .eventListener(meetInTheMiddle)
        .build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of("m")));
      Table t = db.getTable("t");
      for (int i = 0; i < 2; i++) {
        // One file more in each region per round: the second round's flush queues a compaction of each.
        t.put(List.of(new Put(Bytes.of("a" + i)).addColumn("f", "q", "v"),
            new Put(Bytes.of("z" + i)).addColumn("f", "q", "v")));
        db.flush("t");
      }
      assertThat(bothBegun.await(90, TimeUnit.SECONDS)).as("both regions' compactions began").isTrue();
      db.majorCompact("t"); // waits for the running compactions (each store's compaction lock)
      assertThat(met.get()).as("compactions that saw the other one running").isEqualTo(2);
      assertThat(threads).as("compaction threads").hasSize(2);
    }
  }
}
