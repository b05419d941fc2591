package io.bellows.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's configuration table is the generated one: every knob, its default and meaning. */
class KnobDocumentationTest {
  @Test
  void readmeHoldsTheGeneratedConfigurationTable() throws IOException {
    Path readme = Path.of("..", "README.md");
    String text = Files.readString(readme);
    assertThat(text)
        .as("README.md must contain the output of io.bellows.config.KnobTable (regenerate it)")
        .contains(KnobTable.markdown());
  }

  @Test
  void knobNamesAreUniquePerScopeAndDefaultsValid() {
    for (Knob<?> k : Knobs.ALL) {
      assertThat(Knobs.find(k.scope(), k.name())).isSameAs(k);
      validateDefault(k);
    }
  }

  private static <T> void validateDefault(Knob<T> k) {
    assertThat(k.validate(k.defaultValue())).isEqualTo(k.defaultValue());
  }

  @Test
  void parsesSizesAndRejectsOutOfRange() {
    assertThat(Knobs.WAL_ROLL_SIZE.parse("128M")).isEqualTo(128L << 20);
    assertThat(Knobs.WAL_ROLL_SIZE.parse("1g")).isEqualTo(1L << 30);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Knobs.VERSIONS.parse("0"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("VERSIONS");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Knobs.COMPRESSION.parse("gzip"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("COMPRESSION");
  }
}
