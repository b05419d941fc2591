package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.engine.CallId;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(SeedExtension.class)
class AnsweredCallsTest {
  private static final long A = 0x1111_2222_3333_4444L;
  private static final long B = 0x5555_6666_7777_8888L;

  @TempDir Path dir;

  private static CallId call(long client, long call, long lowest) {
    return new CallId(client, ~client, call, lowest);
  }

  private static List<Cell> value(long v) {
    return List.of(Cells.put(Bytes.of("row"), Bytes.of("f"), Bytes.of("n"), 42, Bytes.toBytes(v)));
  }

  private static long valueOf(AnsweredCalls.Answer a) {
    Cell c = a.values().get(0);
    return Bytes.getLong(c.array(), c.valueOffset());
  }

  @Test
  void aRepeatedCallIsAppliedOnceAndAnsweredWithTheFirstAnswer() {
    AnsweredCalls t = new AnsweredCalls();
    assertThat(t.answered(call(A, 1, 1))).isNull();
    assertThat(t.apply(10, call(A, 1, 1), () -> value(5))).isEqualTo(AnsweredCalls.Decision.APPLY);
    // The retry, a new entry at a later index, with a different value it would have written.
    assertThat(t.apply(12, call(A, 1, 1), () -> value(6))).isEqualTo(AnsweredCalls.Decision.DUPLICATE);
    assertThat(valueOf(t.lookup(call(A, 1, 1)))).isEqualTo(5);
    assertThat(t.lookup(call(A, 1, 1)).index()).isEqualTo(10);
    // A writer's look-up before it evaluates finds the first answer too.
    assertThat(valueOf(t.answered(call(A, 1, 1)))).isEqualTo(5);
    // Another client's call 1 is another call.
    assertThat(t.apply(13, call(B, 1, 1), () -> value(7))).isEqualTo(AnsweredCalls.Decision.APPLY);
    assertThat(valueOf(t.answered(call(B, 1, 1)))).isEqualTo(7);
  }

  /**
   * A split's daughter takes its parent's table for a new log, whose indexes start again: a retry of
   * a call the parent applied is a duplicate there, and the daughter's own first entries are decided
   * and recorded (with the parent's position kept, an entry at index 2 was taken for a replay and its
   * call left unrecorded, so its retry applied again: a check-and-put answered "not applied" after
   * its first sending had applied). The clients taken over go first under the bound on clients, and
   * a table read back from its file keeps them so.
   */
  @Test
  void aDaughtersTableAnswersItsParentsCallsAndRecordsItsOwnLogFromItsFirstEntry() {
    AnsweredCalls parent = new AnsweredCalls(2, 10);
    assertThat(parent.apply(500, call(A, 7, 7), () -> value(5))).isEqualTo(AnsweredCalls.Decision.APPLY);
    AnsweredCalls d = parent.forNewLog();
    assertThat(d.position()).isZero();
    assertThat(d.apply(1, call(A, 7, 7), () -> value(6))).isEqualTo(AnsweredCalls.Decision.DUPLICATE);
    assertThat(valueOf(d.lookup(call(A, 7, 7)))).isEqualTo(5);
    assertThat(d.apply(2, call(A, 8, 7), () -> value(8))).isEqualTo(AnsweredCalls.Decision.APPLY);
    assertThat(valueOf(d.answered(call(A, 8, 7)))).as("the daughter's own call, recorded").isEqualTo(8);
    assertThat(d.apply(3, call(A, 8, 7), () -> value(9))).isEqualTo(AnsweredCalls.Decision.DUPLICATE);

    // Under the bound of two clients: the one taken over and not heard from since goes first.
    AnsweredCalls p2 = new AnsweredCalls(2, 10);
    p2.apply(600, call(A, 1, 1), () -> value(1));
    p2.apply(601, call(B, 1, 1), () -> value(2));
    AnsweredCalls read = AnsweredCalls.of(p2.forNewLog().state()); // as read back from its file
    assertThat(read.position()).isZero();
    assertThat(read.apply(1, call(A, 1, 1), () -> value(9))).isEqualTo(AnsweredCalls.Decision.DUPLICATE);
    AnsweredCalls d2 = p2.forNewLog();
    d2.apply(1, call(B, 2, 1), () -> value(3)); // B heard from in the daughter's log
    d2.apply(2, call(0x9999L, 1, 1), () -> value(4)); // a third client: A goes
    assertThat(d2.lookup(call(A, 1, 1))).isNull();
    assertThat(d2.lookup(call(B, 1, 1))).isNotNull();
    assertThat(d2.lookup(call(0x9999L, 1, 1))).isNotNull();
  }

  @Test
  void anEntryReplayedAtTheIndexThatAppliedItIsAppliedAgainAndASkippedOneIsSkippedAgain() {
    AnsweredCalls t = new AnsweredCalls();
    t.apply(3, call(A, 1, 1), () -> value(1));
    t.apply(4, call(A, 2, 1), () -> value(2));
    t.apply(5, call(A, 1, 1), () -> value(9)); // a duplicate
    AnsweredCallsFile.write(dir, t);

    // A restart: the table as it stood after index 5, the log replayed from a checkpoint at 2.
    AnsweredCalls back = AnsweredCallsFile.read(dir);
    assertThat(back.position()).isEqualTo(5);
    assertThat(back.apply(3, call(A, 1, 1), () -> value(1))).isEqualTo(AnsweredCalls.Decision.APPLY);
    assertThat(back.apply(4, call(A, 2, 1), () -> value(2))).isEqualTo(AnsweredCalls.Decision.APPLY);
    assertThat(back.apply(5, call(A, 1, 1), () -> value(9))).isEqualTo(AnsweredCalls.Decision.DUPLICATE);
    // After the replay, a new retry of call 1 is a duplicate answered with the first answer.
    assertThat(back.apply(6, call(A, 1, 1), () -> value(10))).isEqualTo(AnsweredCalls.Decision.DUPLICATE);
    assertThat(valueOf(back.lookup(call(A, 1, 1)))).isEqualTo(1);
    assertThat(back.state().clients().get(0).answers).containsOnlyKeys(1L, 2L);
  }

  @Test
  void theWatermarkForgetsAnswersAndRefusesCallsBelowIt() {
    AnsweredCalls t = new AnsweredCalls();
    t.apply(1, call(A, 1, 1), () -> value(1));
    t.apply(2, call(A, 2, 1), () -> value(2));
    t.apply(3, call(A, 3, 2), () -> value(3)); // the client no longer waits for call 1
    assertThat(t.lookup(call(A, 1, 1))).isNull();
    assertThat(t.lookup(call(A, 2, 2))).isNotNull();
    // A late retry of call 1 is refused, never applied twice.
    assertThatThrownBy(() -> t.answered(call(A, 1, 1))).isInstanceOf(StaleCallException.class);
    assertThat(t.apply(4, call(A, 1, 1), () -> value(1))).isEqualTo(AnsweredCalls.Decision.STALE);
    // A watermark never falls.
    t.apply(5, call(A, 4, 1), () -> value(4));
    assertThat(t.apply(6, call(A, 1, 1), () -> value(1))).isEqualTo(AnsweredCalls.Decision.STALE);
  }

  @Test
  void theBoundsForgetTheLowestCallsAndTheClientsHeardOfLeastRecentlyByLogIndex() {
    AnsweredCalls t = new AnsweredCalls(2, 3);
    for (long c = 1; c <= 4; c++) {
      long call = c;
      t.apply(c, call(A, call, 1), () -> value(call)); // the client never raises its watermark
    }
    assertThat(t.state().clients().get(0).answers).containsOnlyKeys(2L, 3L, 4L);
    assertThat(t.apply(5, call(A, 1, 1), () -> value(1))).isEqualTo(AnsweredCalls.Decision.STALE);

    t.apply(6, call(B, 1, 1), () -> value(1));
    t.apply(7, call(A, 5, 5), () -> value(5)); // A heard of after B
    long c = 0x9999L;
    t.apply(8, call(c, 1, 1), () -> value(1)); // a third client: B (latest entry at 6) goes
    assertThat(t.state().clients()).extracting(k -> k.high).containsExactlyInAnyOrder(A, c);
    assertThat(t.lookup(call(B, 1, 1))).isNull();
  }

  @Test
  void twoTablesFedTheSameEntriesHoldTheSameState(Seed seed) {
    System.out.println(seed);
    Random random = seed.random();
    AnsweredCalls one = new AnsweredCalls(4, 5);
    AnsweredCalls two = new AnsweredCalls(4, 5);
    long[] next = new long[8];
    List<String> decisions = new ArrayList<>();
    for (long index = 1; index <= 2_000; index++) {
      int client = random.nextInt(next.length);
      long call;
      if (next[client] > 0 && random.nextInt(4) == 0) {
        call = 1 + random.nextInt((int) next[client]); // a retry, maybe of a forgotten call
      } else {
        call = ++next[client];
      }
      long lowest = Math.max(1, call - random.nextInt(8));
      CallId id = call(client + 1, call, lowest);
      long v = index;
      AnsweredCalls.Decision d1 = one.apply(index, id, () -> value(v));
      AnsweredCalls.Decision d2 = two.apply(index, id, () -> value(v));
      assertThat(d2).as("%s at %d; %s", id, index, seed.replay()).isEqualTo(d1);
      decisions.add(d1.name());
    }
    assertThat(decisions).contains("APPLY", "DUPLICATE", "STALE");
    assertThat(AnsweredCallsFile.encode(two.state())).isEqualTo(AnsweredCallsFile.encode(one.state()));
    assertThat(one.state().clients()).hasSizeLessThanOrEqualTo(4);
  }

  @Test
  void theFileHoldsTheTableAndAnAbsentFileIsAnEmptyTable() {
    assertThat(AnsweredCallsFile.read(dir).state().clients()).isEmpty();
    AnsweredCalls t = new AnsweredCalls();
    t.apply(7, call(A, 3, 2), () -> value(30));
    t.apply(8, call(B, 1, 1), () -> List.of());
    t.apply(9, call(A, 3, 3), () -> value(31));
    AnsweredCallsFile.write(dir, t);
    AnsweredCalls back = AnsweredCallsFile.read(dir);
    assertThat(AnsweredCallsFile.encode(back.state())).isEqualTo(AnsweredCallsFile.encode(t.state()));
    assertThat(valueOf(back.answered(call(A, 3, 3)))).isEqualTo(30);
    assertThat(back.answered(call(B, 1, 1)).values()).isEmpty();
    assertThat(back.state().skipped()).containsExactly(9L);
    assertThat(Files.exists(dir.resolve(AnsweredCallsFile.NAME + ".tmp"))).isFalse();
  }

  @Test
  void aTableReplacedByAnotherReplicasFileDecidesAsThatOne() {
    AnsweredCalls other = new AnsweredCalls();
    other.apply(4, call(A, 1, 1), () -> value(40));
    other.apply(5, call(A, 1, 1), () -> value(41));
    AnsweredCallsFile.write(dir, other);
    AnsweredCalls behind = new AnsweredCalls();
    behind.apply(1, call(B, 1, 1), () -> value(1));
    behind.replaceWith(AnsweredCallsFile.read(dir));
    assertThat(AnsweredCallsFile.encode(behind.state())).isEqualTo(AnsweredCallsFile.encode(other.state()));
    assertThat(behind.apply(6, call(A, 1, 1), () -> value(42))).isEqualTo(AnsweredCalls.Decision.DUPLICATE);
    assertThat(valueOf(behind.lookup(call(A, 1, 1)))).isEqualTo(40);
    assertThat(behind.lookup(call(B, 1, 1))).isNull();
  }

  @Test
  void aDamagedFileIsRefusedNamingIt() throws Exception {
    AnsweredCalls t = new AnsweredCalls();
    t.apply(7, call(A, 3, 2), () -> value(30));
    AnsweredCallsFile.write(dir, t);
    Path file = dir.resolve(AnsweredCallsFile.NAME);
    byte[] good = Files.readAllBytes(file);

    byte[] flipped = good.clone();
    flipped[30] ^= 0x01;
    Files.write(file, flipped);
    assertThatThrownBy(() -> AnsweredCallsFile.read(dir)).isInstanceOf(StorageException.class)
        .hasMessageContaining(file.toString()).hasMessageContaining("damaged").hasMessageContaining("checksum");

    Files.write(file, java.util.Arrays.copyOf(good, good.length - 9));
    assertThatThrownBy(() -> AnsweredCallsFile.read(dir)).isInstanceOf(StorageException.class)
        .hasMessageContaining(file.toString()).hasMessageContaining("damaged");

    Files.write(file, new byte[5]);
    assertThatThrownBy(() -> AnsweredCallsFile.read(dir)).isInstanceOf(StorageException.class)
        .hasMessageContaining("damaged").hasMessageContaining("5 bytes");
  }
}
