package io.bellows.compaction;

import io.bellows.region.OptionsResolver;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.EngineOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Script-style test: prints the policy's choice for several stores (file sizes, oldest first; file
 * ids are 1, 2, 3, ...) and compares the text with the expected transcript.
 */
class ExploringCompactionPolicyTest {

  private static String run(ExploringCompactionPolicy policy, long... sizes) {
    List<CompactionCandidate> files = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      files.add(new CompactionCandidate(i + 1, sizes[i]));
    }
    CompactionSelection s = policy.select(files);
    String in = Arrays.toString(sizes);
    if (s.isEmpty()) {
      return in + " -> " + s.reason();
    }
    return in + " -> " + s.reason() + " ids "
        + s.files().stream().map(f -> String.valueOf(f.id())).collect(Collectors.joining(","))
        + " total " + s.totalBytes();
  }

  @Test
  void choicesForSeveralStores() {
    ExploringCompactionPolicy p = new ExploringCompactionPolicy(3, 5, 1.2, 7);
    String transcript = String.join("\n",
        run(p),
        run(p, 10, 10),
        run(p, 10, 10, 10),
        run(p, 100, 10, 10, 10),
        run(p, 50, 40, 30, 20, 10, 5),
        run(p, 1000, 1, 1, 1000, 1, 1),
        run(p, 10, 10, 10, 10, 10, 10, 10, 10),
        run(p, 1000, 300, 80, 20, 5, 1),
        run(p, 1000, 300, 80, 20, 5, 1, 1),
        run(p, 12, 10, 10),
        run(p, 13, 5, 5));
    assertThat(transcript).isEqualTo(String.join("\n",
        "[] -> NONE",
        "[10, 10] -> NONE",
        "[10, 10, 10] -> RATIO ids 1,2,3 total 30",
        // The big old file would dominate: leave it out.
        "[100, 10, 10, 10] -> RATIO ids 2,3,4 total 30",
        // Two 5-file windows qualify; the smaller one wins.
        "[50, 40, 30, 20, 10, 5] -> RATIO ids 2,3,4,5,6 total 105",
        // More files beats a smaller total.
        "[1000, 1, 1, 1000, 1, 1] -> RATIO ids 1,2,3,4,5 total 2003",
        // Equal windows: the oldest.
        "[10, 10, 10, 10, 10, 10, 10, 10] -> RATIO ids 1,2,3,4,5 total 50",
        // Sizes fall too steeply for any window; 6 files do not block writes yet.
        "[1000, 300, 80, 20, 5, 1] -> NONE",
        // 7 files block writes: the cheapest 3 contiguous files.
        "[1000, 300, 80, 20, 5, 1, 1] -> BLOCKING ids 5,6,7 total 7",
        // The ratio bound is inclusive: 12 <= 1.2 * 20.
        "[12, 10, 10] -> RATIO ids 1,2,3 total 32",
        "[13, 5, 5] -> NONE"));
  }

  @Test
  void defaultsComeFromTheKnobs() {
    ExploringCompactionPolicy p = new ExploringCompactionPolicy(OptionsResolver.compaction(EngineOptions.defaults()));
    assertThat(run(p, 10, 10)).isEqualTo("[10, 10] -> NONE");
    assertThat(run(p, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10))
        .isEqualTo("[10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10] -> RATIO ids 1,2,3,4,5,6,7,8,9,10 total 100");
  }

  @Test
  void rejectsInconsistentSettings() {
    assertThatThrownBy(() -> new ExploringCompactionPolicy(4, 3, 1.2, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ExploringCompactionPolicy(1, 3, 1.2, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CompactionCandidate(1, -1)).isInstanceOf(IllegalArgumentException.class);
  }
}
