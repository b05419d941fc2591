package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class ScrambledZipfKeysTest {
  private static final long SEED = Long.getLong("bellows.test.seed", System.nanoTime());
  private static final int DRAWS = 400_000;

  @Test
  void fnvHashIsYcsbs() {
    // FNV-1a 64 over the 8 little-endian bytes, absolute value: reference values computed independently.
    assertThat(ScrambledZipfKeys.fnv1a64(0)).isEqualTo(6284781860667377211L);
    assertThat(ScrambledZipfKeys.fnv1a64(12345)).isEqualTo(1792800413050876852L);
  }

  @Test
  void hottestItemTakesOneOverZetaOfTheDrawsWhateverTheKeySpace() {
    System.out.println("seed " + SEED);
    for (long keySpace : new long[] {1_000, 10_000_000}) {
      ScrambledZipfKeys keys = new ScrambledZipfKeys(keySpace, SEED);
      Map<Long, Integer> counts = new HashMap<>();
      for (int i = 0; i < DRAWS; i++) {
        long item = keys.nextItem();
        assertThat(item).isBetween(0L, keySpace - 1);
        counts.merge(item, 1, Integer::sum);
      }
      long hottest = ScrambledZipfKeys.fnv1a64(0) % keySpace;
      double p = 1 / ScrambledZipfKeys.ZETA_N; // rank 0 of a Zipf law over ten billion items
      double sigma = Math.sqrt(DRAWS * p * (1 - p));
      // In a small key space other ranks may hash onto the same item: at least p, never much less.
      assertThat((double) counts.get(hottest)).as("key space %d", keySpace)
          .isGreaterThan(DRAWS * p - 5 * sigma);
      if (keySpace == 10_000_000) {
        assertThat((double) counts.get(hottest)).isCloseTo(DRAWS * p, Offset.offset(5 * sigma + DRAWS * 0.002));
        assertThat(counts.values().stream().mapToInt(Integer::intValue).max().orElseThrow())
            .isEqualTo(counts.get(hottest));
      }
    }
  }

  @Test
  void sameSeedSameSequenceAndRowIdsAreMixedItems() {
    ScrambledZipfKeys a = new ScrambledZipfKeys(1000, 3);
    ScrambledZipfKeys b = new ScrambledZipfKeys(1000, 3);
    for (int i = 0; i < 1000; i++) {
      assertThat(a.nextRowId()).isEqualTo(KeyMixer.mix(b.nextItem()));
    }
  }

  @Test
  void uniformKeysStayInTheKeySpaceAndRepeat() {
    System.out.println("seed " + SEED);
    UniformKeys u = new UniformKeys(100, SEED);
    java.util.Set<Long> seen = new java.util.HashSet<>();
    java.util.Set<Long> allowed = new java.util.HashSet<>();
    for (long i = 0; i < 100; i++) {
      allowed.add(KeyMixer.mix(i));
    }
    for (int i = 0; i < 10_000; i++) {
      long id = u.nextRowId();
      assertThat(allowed).contains(id);
      seen.add(id);
    }
    assertThat(seen).hasSize(100);
  }
}
