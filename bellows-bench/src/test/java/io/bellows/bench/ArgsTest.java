package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class ArgsTest {
  @Test
  void parsesBothFormsAndRejectsTypos() {
    Args a = new Args(new String[] {"--cells", "1_000", "--scale=2.5"}, Set.of("cells", "scale"));
    assertThat(a.getLong("cells", 0)).isEqualTo(1000);
    assertThat(a.getDouble("scale", 1)).isEqualTo(2.5);
    assertThat(a.get("other", "x")).isEqualTo("x");
    assertThatThrownBy(() -> new Args(new String[] {"--cels", "1"}, Set.of("cells")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Args(new String[] {"--cells"}, Set.of("cells")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
