package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The read-again filter: a key is let in on its second miss, within a window of about its slot count. */
@ExtendWith(SeedExtension.class)
class ReadAgainFilterTest {
  @Test
  void aKeyIsAdmittedOnItsSecondMissAndThenForgotten() {
    ReadAgainFilter f = new ReadAgainFilter(1024);
    BlockKey k = new BlockKey(3, 65_536);
    assertThat(f.missedAgain(k)).isFalse();
    assertThat(f.missedAgain(k)).isTrue();
    assertThat(f.missedAgain(k)).as("admitted once: a later miss needs two again").isFalse();
  }

  @Test
  void theFilterIsSizedFromTheCacheWithinItsBounds() {
    assertThat(ReadAgainFilter.forCache(512L << 20).slotCount()).isEqualTo(16_384); // 8,192 blocks of 64 KiB
    assertThat(ReadAgainFilter.forCache(1).slotCount()).isEqualTo(ReadAgainFilter.MIN_SLOTS);
    assertThat(ReadAgainFilter.forCache(Long.MAX_VALUE).slotCount()).isEqualTo(ReadAgainFilter.MAX_SLOTS);
  }

  /**
   * Hot keys among many cold ones: every hot key read again soon is admitted on its second miss,
   * while cold keys, each read once, are almost never admitted (only on a hash collision of two
   * keys in one slot, which needs equal 64-bit hashes).
   */
  @Test
  void hotKeysGetInAndKeysReadOnceDoNot(Seed seed) {
    Random rnd = new Random(seed.value());
    ReadAgainFilter f = new ReadAgainFilter(1 << 12);
    int hotAdmitted = 0;
    int coldAdmitted = 0;
    long cold = 0;
    for (int i = 0; i < 100_000; i++) {
      if (rnd.nextInt(10) == 0) {
        BlockKey hot = new BlockKey(1, rnd.nextInt(100) * 65_536L);
        if (f.missedAgain(hot)) {
          hotAdmitted++;
        }
      } else if (f.missedAgain(new BlockKey(2, (cold++) * 65_536L))) {
        coldAdmitted++;
      }
    }
    assertThat(coldAdmitted).as("%s", seed.replay()).isZero();
    assertThat(hotAdmitted).as("%s", seed.replay()).isGreaterThan(1000);
  }
}
