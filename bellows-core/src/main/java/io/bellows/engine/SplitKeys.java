package io.bellows.engine;

import io.bellows.util.Bytes;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Split keys for pre-splitting a new table, and their validation. A table created with {@code n}
 * split keys has {@code n + 1} regions: {@code [-, k1)}, {@code [k1, k2)}, ..., {@code [kn, -)}.
 *
 * <p>The two algorithms are HBase 2's {@code RegionSplitter} ones, with the same keys:
 *
 * <ul>
 *   <li>{@code HexStringSplit}: rows are 8 lower-case hex digits; the range {@code 00000000} ..
 *       {@code ffffffff} (2<sup>32</sup> rows, the last inclusive) is cut into {@code n} equal parts:
 *       key {@code i} (1-based) is {@code i × (2^32 / n)}, written as 8 lower-case hex digits (4
 *       regions: {@code 40000000}, {@code 80000000}, {@code c0000000}; HBase 1 divided {@code
 *       0xffffffff} instead and gave {@code 3fffffff}, {@code 7ffffffe}, {@code bffffffd}).
 *   <li>{@code UniformSplit}: rows are arbitrary bytes; the 8-byte space {@code 00..00} ..
 *       {@code ff..ff} (2<sup>64</sup> keys) is cut into {@code n} equal parts: key {@code i} is the
 *       8 big-endian bytes of {@code i × (2^64 / n)} (4 regions: {@code 40 00..}, {@code 80 00..},
 *       {@code c0 00..}).
 * </ul>
 */
public final class SplitKeys {
  /** The algorithms by their HBase names. */
  public static final List<String> ALGORITHMS = List.of("HexStringSplit", "UniformSplit");
  /** Most regions a table can be created with. */
  public static final int MAX_REGIONS = 65_536;

  private static final BigInteger HEX_RANGE = BigInteger.ONE.shiftLeft(32);
  private static final BigInteger UNIFORM_RANGE = BigInteger.ONE.shiftLeft(64);

  private SplitKeys() {}

  /** The {@code regions - 1} split keys of an algorithm ({@link #ALGORITHMS}) for {@code regions} regions. */
  public static List<byte[]> of(String algorithm, int regions) {
    return switch (algorithm) {
      case "HexStringSplit" -> hexString(regions);
      case "UniformSplit" -> uniform(regions);
      default -> throw new IllegalArgumentException("unknown split algorithm '" + algorithm
          + "': use one of " + ALGORITHMS);
    };
  }

  /** {@code HexStringSplit}: {@code regions - 1} keys of 8 lower-case hex digits. */
  public static List<byte[]> hexString(int regions) {
    checkRegions(regions);
    BigInteger step = HEX_RANGE.divide(BigInteger.valueOf(regions));
    List<byte[]> out = new ArrayList<>(regions - 1);
    for (int i = 1; i < regions; i++) {
      String hex = String.format("%08x", step.multiply(BigInteger.valueOf(i)));
      out.add(hex.getBytes(StandardCharsets.US_ASCII));
    }
    return out;
  }

  /** {@code UniformSplit}: {@code regions - 1} keys of 8 bytes, evenly over the 8-byte space. */
  public static List<byte[]> uniform(int regions) {
    checkRegions(regions);
    BigInteger step = UNIFORM_RANGE.divide(BigInteger.valueOf(regions));
    List<byte[]> out = new ArrayList<>(regions - 1);
    for (int i = 1; i < regions; i++) {
      out.add(Bytes.toBytes(step.multiply(BigInteger.valueOf(i)).longValue()));
    }
    return out;
  }

  /**
   * Checks split keys: each non-empty and at most 32 KiB (a row), strictly increasing (so
   * distinct). Throws {@link IllegalArgumentException} naming the first bad key.
   */
  public static void check(List<byte[]> splitKeys) {
    if (splitKeys.size() >= MAX_REGIONS) {
      throw new IllegalArgumentException(splitKeys.size() + " split keys: at most " + (MAX_REGIONS - 1)
          + " (" + MAX_REGIONS + " regions)");
    }
    for (int i = 0; i < splitKeys.size(); i++) {
      byte[] k = splitKeys.get(i);
      if (k == null || k.length == 0) {
        throw new IllegalArgumentException("split key " + (i + 1) + " is empty: the empty key is the"
            + " start of the first region already");
      }
      if (k.length > 32 * 1024) {
        throw new IllegalArgumentException("split key " + (i + 1) + " is longer than a row may be (32 KiB)");
      }
      if (i > 0) {
        int c = Bytes.compare(splitKeys.get(i - 1), k);
        if (c == 0) {
          throw new IllegalArgumentException("split key '" + Bytes.toStringBinary(k) + "' is given twice");
        }
        if (c > 0) {
          throw new IllegalArgumentException("split keys must be sorted: '" + Bytes.toStringBinary(k)
              + "' comes after '" + Bytes.toStringBinary(splitKeys.get(i - 1)) + "'");
        }
      }
    }
  }

  private static void checkRegions(int regions) {
    if (regions < 2 || regions > MAX_REGIONS) {
      throw new IllegalArgumentException("number of regions must be 2.." + MAX_REGIONS + ", not " + regions);
    }
  }
}
