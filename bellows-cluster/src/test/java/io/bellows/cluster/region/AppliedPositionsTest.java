package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cluster.LogPosition;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint names an entry the applier was handed, with its own term: an index in a gap (the
 * log's own entries, such as a new leader's first) rounds down to the handed entry before it.
 */
class AppliedPositionsTest {
  @Test
  void anIndexNamesTheLastHandedEntryAtOrBelowItWithItsTerm() {
    AppliedPositions p = new AppliedPositions();
    assertThat(p.atOrBelow(10)).isNull();
    p.handed(new LogPosition(1, 3));
    p.handed(new LogPosition(1, 4));
    p.handed(new LogPosition(2, 6)); // index 5: term 2's first entry, the log's own
    p.handed(new LogPosition(2, 7));
    p.handed(new LogPosition(4, 9));
    assertThat(p.atOrBelow(2)).isNull(); // before anything handed since the applier opened
    assertThat(p.atOrBelow(3)).isEqualTo(new LogPosition(1, 3));
    assertThat(p.atOrBelow(5)).isEqualTo(new LogPosition(1, 4));
    assertThat(p.atOrBelow(6)).isEqualTo(new LogPosition(2, 6));
    assertThat(p.atOrBelow(8)).isEqualTo(new LogPosition(2, 7));
    assertThat(p.atOrBelow(9)).isEqualTo(new LogPosition(4, 9));
    assertThat(p.atOrBelow(100)).isEqualTo(new LogPosition(4, 9));
    assertThat(p.last()).isEqualTo(9);
  }
}
