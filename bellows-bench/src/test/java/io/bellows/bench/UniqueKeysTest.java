package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UniqueKeysTest {
  @Test
  void neverRepeatsWithinOrAcrossSeeds() {
    Set<Long> seen = new HashSet<>();
    for (long seed = 1; seed <= 3; seed++) {
      UniqueKeys u = new UniqueKeys(seed);
      for (int i = 0; i < 50_000; i++) {
        assertThat(seen.add(u.nextRowId())).as("seed %d draw %d", seed, i).isTrue();
      }
    }
  }
}
