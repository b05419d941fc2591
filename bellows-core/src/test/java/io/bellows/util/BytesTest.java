package io.bellows.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link Bytes}' word-at-a-time comparison against the JDK's, and its big-endian coding. Failing
 * properties print their seed; replay with {@code @Property(seed = "...")}.
 */
class BytesTest {
  /** Two ranges inside padded arrays that share a prefix, so that equal words are common. */
  record Ranges(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {}

  @Provide
  Arbitrary<Ranges> ranges() {
    Arbitrary<byte[]> prefix = Arbitraries.bytes().array(byte[].class).ofMaxSize(90);
    // Few distinct byte values (including 0x00, 0x7f, 0x80, 0xff) so that suffixes often tie and
    // differences land on sign-sensitive bytes.
    Arbitrary<byte[]> suffix = Arbitraries.of((byte) 0, (byte) 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff)
        .array(byte[].class).ofMaxSize(20);
    Arbitrary<Integer> pad = Arbitraries.integers().between(0, 9);
    return Combinators.combine(prefix, suffix, suffix, pad, pad).as((p, sa, sb, pa, pb) -> {
      byte[] a = new byte[pa + p.length + sa.length + 3];
      byte[] b = new byte[pb + p.length + sb.length + 5];
      Arrays.fill(a, (byte) 0x55);
      Arrays.fill(b, (byte) 0xaa);
      System.arraycopy(p, 0, a, pa, p.length);
      System.arraycopy(sa, 0, a, pa + p.length, sa.length);
      System.arraycopy(p, 0, b, pb, p.length);
      System.arraycopy(sb, 0, b, pb + p.length, sb.length);
      return new Ranges(a, pa, p.length + sa.length, b, pb, p.length + sb.length);
    });
  }

  @Property(tries = 3000)
  void compareAgreesWithTheJdk(@ForAll("ranges") Ranges r) {
    int expected = Integer.signum(
        Arrays.compareUnsigned(r.a, r.aOff, r.aOff + r.aLen, r.b, r.bOff, r.bOff + r.bLen));
    assertThat(Integer.signum(Bytes.compare(r.a, r.aOff, r.aLen, r.b, r.bOff, r.bLen))).isEqualTo(expected);
    assertThat(Integer.signum(Bytes.compare(r.b, r.bOff, r.bLen, r.a, r.aOff, r.aLen))).isEqualTo(-expected);
    assertThat(Bytes.equals(r.a, r.aOff, r.aLen, r.b, r.bOff, r.bLen))
        .isEqualTo(Arrays.equals(r.a, r.aOff, r.aOff + r.aLen, r.b, r.bOff, r.bOff + r.bLen));
  }

  @Property(tries = 3000)
  void aPrefixThatDiffersDecidesTheOrder(@ForAll("ranges") Ranges r) {
    long pa = Bytes.prefix64(r.a, r.aOff, r.aLen);
    long pb = Bytes.prefix64(r.b, r.bOff, r.bLen);
    int c = Integer.signum(Bytes.compare(r.a, r.aOff, r.aLen, r.b, r.bOff, r.bLen));
    if (pa != pb) {
      assertThat(Integer.signum(Long.compareUnsigned(pa, pb))).isEqualTo(c);
    }
    if (c == 0) {
      assertThat(pa).isEqualTo(pb);
    }
  }

  @Property(tries = 500)
  void fixedWidthNumbersRoundTrip(@ForAll long v, @ForAll int i, @ForAll short s) {
    byte[] b = new byte[11];
    Bytes.putLong(b, 1, v);
    assertThat(Bytes.getLong(b, 1)).isEqualTo(v);
    Bytes.putInt(b, 3, i);
    assertThat(Bytes.getInt(b, 3)).isEqualTo(i);
    Bytes.putShort(b, 9, s);
    assertThat(Bytes.getShort(b, 9)).isEqualTo(s & 0xffff);
  }

  @Test
  void numbersAreBigEndian() {
    byte[] b = new byte[14];
    Bytes.putLong(b, 0, 0x0102030405060708L);
    Bytes.putInt(b, 8, 0x8090a0b0);
    Bytes.putShort(b, 12, 0xfffe);
    assertThat(b).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 0x80, 0x90, 0xa0, 0xb0, 0xff, 0xfe);
    assertThat(Bytes.getShort(b, 12)).isEqualTo(0xfffe);
  }
}
