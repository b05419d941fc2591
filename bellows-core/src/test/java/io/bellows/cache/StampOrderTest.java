package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link StampOrder} against a stable sort of the indices by stamp. Stamps are drawn from narrow
 * ranges (many ties) and wide ones (every radix pass used). Failing properties print their seed;
 * replay with {@code @Property(seed = "...")}.
 */
class StampOrderTest {
  @Property(tries = 500)
  void ordersIndicesByStampStably(@ForAll @Size(max = 3000) long[] raw, @ForAll @LongRange(min = 1) long spread,
      @ForAll @IntRange(min = 0, max = 3000) int n) {
    int count = Math.min(n, raw.length);
    long[] stamps = new long[count + 5]; // room past n that must be ignored
    for (int i = 0; i < count; i++) {
      stamps[i] = Math.floorMod(raw[i], spread);
    }
    stamps[count] = -1;
    int[] expected = IntStream.range(0, count).boxed()
        .sorted(Comparator.comparingLong(i -> stamps[i])).mapToInt(Integer::intValue).toArray();
    assertThat(StampOrder.ascending(stamps, count)).containsExactly(expected);
  }
}
