package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Memory stores and the on-heap block cache may take at most 80% of the heap together, as in HBase. */
class HeapSharesTest {
  private static final long HEAP = 1000L << 20;

  @TempDir Path dir;

  @Test
  void theDefaultsFitAndTooMuchIsRefusedNamingBothSettings() {
    assertThatNoException().isThrownBy(() -> HeapShares.check(EngineOptions.defaults(), HEAP)); // 0.4 + 0.25
    EngineOptions tooMuch = EngineOptions.builder().set(Knobs.MEMSTORE_GLOBAL_FRACTION, 0.6)
        .set(Knobs.BLOCKCACHE_L1_FRACTION, 0.3).build();
    assertThatThrownBy(() -> HeapShares.check(tooMuch, HEAP)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bellows.memstore.global.*: 600 MiB")
        .hasMessageContaining("bellows.blockcache.l1.*: 300 MiB")
        .hasMessageContaining("90% of the 1000 MiB heap").hasMessageContaining("at most 80%");
    // Explicit sizes count as they are: 500 MiB + 400 MiB of a 1000 MiB heap is too much, 300 + 400 is not.
    assertThatThrownBy(() -> HeapShares.check(EngineOptions.builder().set(Knobs.MEMSTORE_GLOBAL_SIZE, 500L << 20)
        .set(Knobs.BLOCKCACHE_L1_SIZE, 400L << 20).build(), HEAP)).isInstanceOf(IllegalArgumentException.class);
    assertThatNoException().isThrownBy(() -> HeapShares.check(EngineOptions.builder()
        .set(Knobs.MEMSTORE_GLOBAL_SIZE, 300L << 20).set(Knobs.BLOCKCACHE_L1_SIZE, 400L << 20).build(), HEAP));
  }

  @Test
  void anEngineWithTooMuchHeapPromisedDoesNotOpenAndWritesNothing() {
    Path data = dir.resolve("data");
    EngineOptions tooMuch = EngineOptions.builder().set(Knobs.MEMSTORE_GLOBAL_FRACTION, 0.7)
        .set(Knobs.BLOCKCACHE_L1_FRACTION, 0.2).build();
    assertThatThrownBy(() -> Bellows.open(data, tooMuch)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nothing was changed");
    assertThat(Files.exists(data)).as("no directory made").isFalse();
  }
}
