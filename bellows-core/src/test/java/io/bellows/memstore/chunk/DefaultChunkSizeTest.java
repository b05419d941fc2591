package io.bellows.memstore.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.region.OptionsResolver;
import org.junit.jupiter.api.Test;

/** The chunk size chosen from G1's region size, and the knob's 0 that asks for it. */
class DefaultChunkSizeTest {
  private static final long MIB = 1L << 20;
  /** Bytes of a {@code byte[]}'s header on a 64-bit HotSpot JVM (compressed class pointers or not). */
  private static final int ARRAY_HEADER_MAX = 24;

  @Test
  void aHeapChunkFillsItsRegionsAsOneHumongousObject() {
    for (long region : new long[] {1 * MIB, 2 * MIB, 4 * MIB, 8 * MIB}) {
      int chunk = DefaultChunkSize.forRegionSize(region);
      long object = chunk + ARRAY_HEADER_MAX;
      long regions = (object + region - 1) / region;
      assertThat(object).as("humongous: at least half a region, region " + region).isGreaterThanOrEqualTo(region / 2);
      assertThat(regions * region - object).as("bytes left over in its regions, region " + region)
          .isLessThan(64);
      assertThat(chunk % 8).as("a multiple of 8: skiplist nodes stay aligned").isZero();
      assertThat(chunk).isGreaterThanOrEqualTo(DefaultChunkSize.FALLBACK);
    }
    assertThat(DefaultChunkSize.forRegionSize(4 * MIB)).isEqualTo(4 * MIB - 64);
  }

  @Test
  void otherCollectorsAndRegionSizesKeepTwoMibMinus64() {
    assertThat(DefaultChunkSize.FALLBACK).isEqualTo(2 * MIB - 64);
    for (long region : new long[] {0, 512 * 1024, 16 * MIB, 32 * MIB}) {
      assertThat(DefaultChunkSize.forRegionSize(region)).as("region " + region).isEqualTo(DefaultChunkSize.FALLBACK);
    }
  }

  @Test
  void thisJvmGetsTheSizeOfItsRegions() {
    long region = DefaultChunkSize.g1RegionBytes();
    assertThat(DefaultChunkSize.forThisJvm()).isEqualTo(DefaultChunkSize.forRegionSize(region));
    assertThat(OptionsResolver.chunkSize(EngineOptions.defaults())).isEqualTo(DefaultChunkSize.forThisJvm());
  }

  @Test
  void theKnobTakesZeroOrASizeInRange() {
    assertThat(Knobs.CHUNK_SIZE.defaultValue()).isZero();
    assertThat(Knobs.CHUNK_SIZE.parse("0")).isZero();
    assertThat(Knobs.CHUNK_SIZE.parse("4K")).isEqualTo(4096L);
    assertThat(Knobs.CHUNK_SIZE.parse("64M")).isEqualTo(64 * MIB);
    for (String bad : new String[] {"1", "4095", "65M", "-1"}) {
      assertThatThrownBy(() -> Knobs.CHUNK_SIZE.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("bellows.mslab.chunk.size").hasMessageContaining("0 (chosen from the heap)");
    }
    EngineOptions set = EngineOptions.builder().set(Knobs.CHUNK_SIZE, 64L * 1024).build();
    assertThat(OptionsResolver.chunkSize(set)).isEqualTo(64L * 1024);
  }
}
