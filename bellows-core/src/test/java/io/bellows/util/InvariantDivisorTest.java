package io.bellows.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link InvariantDivisor} against Java's division: random pairs (jqwik prints its seed; replay with
 * {@code @Property(seed = "...")}), and the edges where a multiply-and-shift division goes wrong
 * first: dividends next to multiples of the divisor and next to 2^31, divisors next to powers of two.
 */
class InvariantDivisorTest {

  @Property(tries = 20_000)
  void dividesAsJavaDoes(@ForAll @IntRange(min = 1) int divisor, @ForAll @IntRange(min = 0) int n) {
    check(divisor, n);
  }

  @Property(tries = 5_000)
  void dividesSmallDivisorsAsJavaDoes(@ForAll @IntRange(min = 1, max = 1 << 20) int divisor,
      @ForAll @IntRange(min = 0) int n) {
    check(divisor, n);
  }

  @Test
  void edges() {
    int[] divisors = {1, 2, 3, 5, 7, 20, 104_854, 209_711, 65_535, 65_536, 65_537, (1 << 30) - 1, 1 << 30,
        (1 << 30) + 1, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
    for (int d : divisors) {
      for (int n = 0; n < 1000; n++) {
        check(d, n);
        check(d, Integer.MAX_VALUE - n);
      }
      for (long k = 1; k * d <= Integer.MAX_VALUE && k < 100_000; k = k * 3 + 1) {
        int multiple = (int) (k * d);
        check(d, multiple);
        check(d, multiple - 1);
        if (multiple < Integer.MAX_VALUE) {
          check(d, multiple + 1);
        }
      }
    }
  }

  @Test
  void aDivisorMustBePositive() {
    assertThatThrownBy(() -> new InvariantDivisor(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new InvariantDivisor(-3)).isInstanceOf(IllegalArgumentException.class);
  }

  private static void check(int divisor, int n) {
    InvariantDivisor d = new InvariantDivisor(divisor);
    assertThat(d.divide(n)).as("%d / %d", n, divisor).isEqualTo(n / divisor);
    assertThat(d.remainder(n)).as("%d %% %d", n, divisor).isEqualTo(n % divisor);
  }
}
