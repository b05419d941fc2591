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

/**
 * Memory stores and the on-heap block cache may take at most 80% of the heap together, as in HBase;
 * the off-heap block cache and off-heap memory stores at most 80% of the direct memory limit.
 */
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

  @Test
  void theDefaultsFitInDirectMemoryAndTooMuchIsRefusedNamingTheKnobs() {
    assertThatNoException().isThrownBy(() -> HeapShares.checkDirect(EngineOptions.defaults(), HEAP, HEAP));
    // Direct memory defaults to the heap's size: an L2 of a quarter of it and off-heap memory stores
    // of 0.4 of it fit (0.65); an L2 of half of it does not (0.9).
    EngineOptions offHeap = EngineOptions.builder().set(Knobs.CHUNK_OFF_HEAP, true).build();
    assertThatNoException().isThrownBy(() -> HeapShares.checkDirect(
        offHeap.toBuilder().set(Knobs.BLOCKCACHE_L2_FRACTION, 0.25).build(), HEAP, HEAP));
    EngineOptions bigL2 = offHeap.toBuilder().set(Knobs.BLOCKCACHE_L2_FRACTION, 0.5).build();
    assertThatThrownBy(() -> HeapShares.checkDirect(bigL2, HEAP, HEAP)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bellows.blockcache.l2.*: 500 MiB")
        .hasMessageContaining("bellows.mslab.offheap=true, bellows.memstore.global.*: 400 MiB")
        .hasMessageContaining("90% of the 1000 MiB of direct memory (-XX:MaxDirectMemorySize")
        .hasMessageContaining("at most 80%").hasMessageContaining("nothing was changed");
    // The same L2 fits with the memory stores on the heap, or with more direct memory.
    assertThatNoException().isThrownBy(() -> HeapShares.checkDirect(
        bigL2.toBuilder().set(Knobs.CHUNK_OFF_HEAP, false).build(), HEAP, HEAP));
    assertThatNoException().isThrownBy(() -> HeapShares.checkDirect(bigL2, HEAP, 2 * HEAP));
    // An explicit L2 size counts as it is, with the memory stores on the heap too.
    assertThatThrownBy(() -> HeapShares.checkDirect(EngineOptions.builder()
        .set(Knobs.BLOCKCACHE_L2_SIZE, 900L << 20).build(), HEAP, HEAP)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bellows.mslab.offheap=false, bellows.memstore.global.*: 0 MiB");
  }

  @Test
  void theDirectMemoryLimitIsTheJvmsAndAtLeastItsDefault() {
    // Maven's test JVM sets no -XX:MaxDirectMemorySize: the JDK's default, the maximum heap, applies.
    assertThat(HeapShares.maxDirectMemory()).isGreaterThanOrEqualTo(Runtime.getRuntime().maxMemory());
  }

  @Test
  void anEngineWithTooMuchDirectMemoryPromisedDoesNotOpenAndWritesNothing() {
    Path data = dir.resolve("data");
    long maxDirect = HeapShares.maxDirectMemory();
    EngineOptions tooMuch = EngineOptions.builder().set(Knobs.BLOCKCACHE_L2_SIZE, maxDirect).build();
    assertThatThrownBy(() -> Bellows.open(data, tooMuch)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bellows.blockcache.l2.*").hasMessageContaining("-XX:MaxDirectMemorySize")
        .hasMessageContaining("nothing was changed");
    assertThat(Files.exists(data)).as("no directory made").isFalse();
  }
}
