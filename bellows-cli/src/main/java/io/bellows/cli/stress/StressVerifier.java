package io.bellows.cli.stress;

import io.bellows.client.Get;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.util.Bytes;

/**
 * Reads every key of a reopened store and checks it against the expected state: each row must be
 * its last acknowledged state, or the state of the one write that was in flight when the process
 * died. Then settles the expected state on what was found, so the run can go on.
 */
final class StressVerifier {
  private StressVerifier() {}

  static void verifyAll(Table table, ExpectedState expected, StressRows rows, StressCounters counters) {
    for (int key = 0; key < expected.keys(); key++) {
      Result r = table.get(new Get(StressRows.row(key)));
      long committed = expected.committed(key);
      long pending = expected.pending(key);
      long observed;
      try {
        observed = rows.observed(key, r);
      } catch (StressRows.BadRow e) {
        counters.violation("after reopen: " + e.getMessage());
        expected.commit(key, committed);
        continue;
      }
      counters.verified.increment();
      if (ExpectedState.sameVisible(observed, committed)) {
        expected.commit(key, committed);
      } else if (pending != ExpectedState.NONE && ExpectedState.sameVisible(observed, pending)) {
        expected.commit(key, pending);
      } else {
        counters.violation("after reopen: row " + Bytes.str(StressRows.row(key)) + " is "
            + ExpectedState.describe(observed) + ", but " + ExpectedState.describe(committed)
            + " was acknowledged" + (pending == ExpectedState.NONE ? ""
                : " (and " + ExpectedState.describe(pending) + " was in flight)"));
        // Go on from what the store holds, so one loss is reported once.
        expected.commit(key, ExpectedState.isPresent(observed) ? observed
            : ExpectedState.absent(Math.max(ExpectedState.version(committed), expected.issued(key))));
      }
    }
  }
}
