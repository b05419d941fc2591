package io.bellows.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The policy a store is given: the exploring one, with the store's settings. */
class CompactionPolicyTest {
  @Test
  void aStoreGetsTheExploringPolicyWithItsSettings() {
    CompactionOptions options = new CompactionOptions(2, 3, 1.0, 100);
    CompactionPolicy policy = CompactionPolicy.forStore(options);
    assertThat(policy).isInstanceOf(ExploringCompactionPolicy.class);
    List<CompactionCandidate> files = List.of(new CompactionCandidate(1, 100), new CompactionCandidate(2, 10),
        new CompactionCandidate(3, 10), new CompactionCandidate(4, 10));
    // With a ratio of 1.0 and at most three files, the three small ones qualify and the large one does not.
    CompactionSelection s = policy.select(files);
    assertThat(s.files()).extracting(CompactionCandidate::id).containsExactly(2L, 3L, 4L);
    assertThat(s.reason()).isEqualTo(CompactionSelection.Reason.RATIO);
    assertThat(s).isEqualTo(new ExploringCompactionPolicy(options).select(files));
  }
}
