package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine-wide memory budget: tables whose own flush size is never reached still get flushed
 * when all memory stores together pass the lower mark (the largest region first), writes are paced
 * near the budget and wait at it, and memory stays bounded without a write failing — over tables of
 * three regions each, written by two threads at once.
 */
class GlobalMemoryBudgetTest {
  @TempDir Path dir;

  @Test
  @Timeout(120)
  void theLargestRegionsAreFlushedAndWritesPacedSoMemoryStaysBounded() throws InterruptedException {
    long budget = 2L << 20;
    List<String> stallCauses = new CopyOnWriteArrayList<>();
    EngineOptions opts = EngineOptions.builder()
        .set(Knobs.MEMSTORE_GLOBAL_SIZE, budget)
        .set(Knobs.MEMSTORE_GLOBAL_LOWER_FRACTION, 0.6)
        .set(Knobs.WRITE_DELAYED_RATE, 256L << 20)
        .eventListener(new io.bellows.util.EventListener() {
          @Override
          public void writeStallBegin(WriteStallInfo info) {
            stallCauses.add(info.cause().name());
          }
        })
        .build();
    List<String> tables = List.of("a", "b", "c");
    int rows = 3000;
    long maxUsed = 0;
    try (Bellows db = Bellows.open(dir, opts)) {
      for (String t : tables) {
        db.createTable(TableDescriptor.builder(t).flushSize(256L << 20).family("f").build(),
            List.of(Bytes.of("r001000"), Bytes.of("r002000")));
      }
      byte[] value = new byte[1000];
      java.util.concurrent.atomic.AtomicLong peak = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
      List<Thread> writers = new java.util.ArrayList<>();
      for (int w = 0; w < 2; w++) {
        final int writer = w;
        writers.add(new Thread(() -> {
          try {
            for (int i = writer; i < rows; i += 2) {
              String t = tables.get(i % 3 == 0 ? 0 : i % 2 + 1);
              db.getTable(t).put(new Put(Bytes.of(String.format("r%06d", i)))
                  .addColumn(Bytes.of("f"), Bytes.of("q"), value).setDurability(Durability.SKIP_WAL));
              peak.accumulateAndGet(db.metrics().get("memstore.global.used.bytes").longValue(), Math::max);
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }));
      }
      writers.forEach(Thread::start);
      for (Thread th : writers) {
        th.join();
      }
      assertThat(failure.get()).as("no write failed").isNull();
      maxUsed = peak.get();
      for (String t : tables) {
        assertThat(db.regions(t)).hasSize(3);
      }
      assertThat(db.metrics().get("flush.forced.global.memory").longValue()).as("budget flushes").isPositive();
      assertThat(db.metrics().get("writes.delayed.count.global.memory").longValue()).as("paced writes").isPositive();
      // 3 MB written through a 2 MiB budget: what two writes can add past a measurement is small.
      assertThat(maxUsed).as("memory-store use stays near the budget").isLessThan(budget + (512L << 10));
      for (int i = 0; i < rows; i++) {
        String t = tables.get(i % 3 == 0 ? 0 : i % 2 + 1);
        assertThat(db.getTable(t).get(new Get(Bytes.of(String.format("r%06d", i)))).isEmpty()).as("row %d", i).isFalse();
      }
    }
    assertThat(stallCauses).allMatch(c -> c.equals("GLOBAL_MEMORY_FULL"));
  }
}
