package io.bellows.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every size knob reads K, M, G suffixes (binary, any case), by itself and through set(name, text). */
class SizeKnobTest {
  private static final long K = 1L << 10;
  private static final long M = 1L << 20;
  private static final long G = 1L << 30;

  /** Texts and the byte counts they stand for. */
  private static final Map<String, Long> SIZES = Map.ofEntries(
      Map.entry("64K", 64 * K), Map.entry("64k", 64 * K), Map.entry("64KB", 64 * K), Map.entry("64KiB", 64 * K),
      Map.entry("1M", M), Map.entry("1m", M), Map.entry("2 MB", 2 * M), Map.entry("1mib", M),
      Map.entry("1G", G), Map.entry("1g", G), Map.entry("65536", 64 * K), Map.entry("1_048_576", M));

  private static List<Knob<?>> sizeKnobs() {
    List<Knob<?>> sizes = Knobs.ALL.stream().filter(Knob::isSize).toList();
    assertThat(sizes).contains(Knobs.BLOCKSIZE, Knobs.MEMSTORE_FLUSHSIZE, Knobs.WAL_ROLL_SIZE,
        Knobs.MAX_VALUE_SIZE, Knobs.CHUNK_SIZE, Knobs.CHUNK_POOL_MAX_BYTES);
    return sizes;
  }

  @Test
  void everySizeKnobReadsSuffixes() {
    for (Knob<?> k : sizeKnobs()) {
      int accepted = 0;
      for (Map.Entry<String, Long> e : SIZES.entrySet()) {
        if (inRange(k, e.getValue())) {
          assertThat(((Number) k.parse(e.getKey())).longValue()).as(k + " = " + e.getKey()).isEqualTo(e.getValue());
          assertThat(((Number) set(k, e.getKey())).longValue()).as(k + " set to " + e.getKey()).isEqualTo(e.getValue());
          accepted++;
        } else {
          assertThatThrownBy(() -> k.parse(e.getKey())).isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining(k.name());
        }
      }
      assertThat(accepted).as(k.name()).isGreaterThanOrEqualTo(8);
    }
  }

  @Test
  void malformedSizesAndOtherNumbersWithSuffixesAreRefused() {
    for (String bad : List.of("8X", "1.5M", "K", "8KK", "")) {
      assertThatThrownBy(() -> Knobs.BLOCKSIZE.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("BLOCKSIZE").hasMessageContaining("K, M, G suffixes");
    }
    // larger than an int knob can hold, not wrapped around
    assertThatThrownBy(() -> Knobs.BLOCKSIZE.parse("4G")).isInstanceOf(IllegalArgumentException.class);
    // a TTL or a period is no size: "1M" might be read as a minute or a month
    assertThatThrownBy(() -> Knobs.TTL.parse("1M")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Knobs.WAL_ASYNC_SYNC_PERIOD_MS.parse("1K")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Knobs.VERSIONS.parse("1K")).isInstanceOf(IllegalArgumentException.class);
  }

  private static boolean inRange(Knob<?> k, long bytes) {
    try {
      validate(k, bytes);
      return true;
    } catch (IllegalArgumentException | ArithmeticException e) {
      return false;
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> void validate(Knob<T> k, long bytes) {
    Object v = k.type() == Integer.class ? (Object) Math.toIntExact(bytes) : (Object) bytes;
    k.validate((T) v);
  }

  /** Sets the knob by name from text on a builder of its scope, and reads it back. */
  private static Object set(Knob<?> k, String text) {
    switch (k.scope()) {
      case ENGINE:
        return EngineOptions.builder().set(k.name(), text).build().get(k);
      case TABLE:
        return TableDescriptor.builder("t").family("f").set(k.name(), text).build().get(k);
      default:
        ColumnFamilyDescriptor.Builder f = ColumnFamilyDescriptor.builder("f").set(k.name(), text);
        if (k == Knobs.MIN_BLOCKSIZE) { // dynamic blocks by default: the minimum may not exceed the maximum
          f.set(Knobs.BLOCKSIZE, 16 * 1024 * 1024); // the largest BLOCKSIZE
        }
        return f.build().get(k);
    }
  }
}
