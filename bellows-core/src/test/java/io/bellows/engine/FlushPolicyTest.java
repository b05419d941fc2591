package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.FlushPolicy;
import io.bellows.config.Knobs;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.EventListener;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The table's FLUSH_POLICY: a big family written past the flush size beside a small one. STORES
 * flushes the big family only (the small one keeps its data in memory); REGION flushes both at
 * once. The background flush is awaited through the event listener, not by time.
 */
class FlushPolicyTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FlushPolicy.class)
  @Timeout(60)
  void aStoreAtTheFlushSizeFlushesItselfOrTheWholeRegion(FlushPolicy policy) throws Exception {
    List<String> flushed = new CopyOnWriteArrayList<>();
    CountDownLatch bigFlushed = new CountDownLatch(1);
    CountDownLatch smallFlushed = new CountDownLatch(1);
    EventListener listener = new EventListener() {
      @Override
      public void flushEnd(FlushInfo info) {
        flushed.add(info.family());
        (info.family().equals("big") ? bigFlushed : smallFlushed).countDown();
      }
    };
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().eventListener(listener).build())) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).set(Knobs.FLUSH_POLICY, policy)
          .family("big").family("small").build());
      Table t = db.getTable("t");
      t.put(new Put(Bytes.of("s")).addColumn("small", "q", "a little"));
      byte[] value = new byte[1024];
      for (int i = 0; bigFlushed.getCount() > 0 && i < 1000; i++) {
        t.put(new Put(Bytes.of(String.format("r%04d", i))).addColumn(Bytes.of("big"), Bytes.of("q"), value));
      }
      assertThat(bigFlushed.await(30, TimeUnit.SECONDS)).as("the big family flushed").isTrue();
      if (policy == FlushPolicy.REGION) {
        // The same flush call writes the small store right after the big one.
        assertThat(smallFlushed.await(30, TimeUnit.SECONDS)).as("the small family flushed too").isTrue();
      }
      long smallFiles = db.storeMetrics("t").get("small").get("store.files").longValue();
      if (policy == FlushPolicy.STORES) {
        assertThat(flushed).as("flushes").doesNotContain("small");
        assertThat(smallFiles).as("the small family kept its data in memory").isZero();
      } else {
        assertThat(flushed).as("flushes").contains("small");
        assertThat(smallFiles).as("the small family was flushed with the big one").isEqualTo(1);
      }
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.describeTable("t").get(Knobs.FLUSH_POLICY)).as("the policy is kept in the catalog").isEqualTo(policy);
    }
  }
}
