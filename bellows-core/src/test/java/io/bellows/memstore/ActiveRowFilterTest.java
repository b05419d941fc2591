package io.bellows.memstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The active segment's row filter: no lost bits under concurrent writers, and its sizing. */
@ExtendWith(SeedExtension.class)
class ActiveRowFilterTest {

  /**
   * Four writers add rows at once into small filters (64 words, half the bits set in the end), round
   * after round, so that they often set bits of one word at the same moment. Each filter must end
   * with exactly the bits of the same rows added by one thread: a plain (non-atomic) OR would lose
   * some, and a row could then test absent.
   */
  @Test
  void rowsAddedConcurrentlyAreAllFound(Seed s) throws Exception {
    long seed = s.value();
    int writers = 4;
    int perWriter = 100;
    int rounds = 2_000;
    Random random = new Random(seed);
    ActiveRowFilter[] filters = new ActiveRowFilter[rounds];
    byte[][][][] rows = new byte[rounds][writers][perWriter][];
    for (int r = 0; r < rounds; r++) {
      filters[r] = new ActiveRowFilter(400); // 64 words
      for (int w = 0; w < writers; w++) {
        for (int i = 0; i < perWriter; i++) {
          rows[r][w][i] = Bytes.of("user" + random.nextLong());
        }
      }
    }
    CyclicBarrier roundStart = new CyclicBarrier(writers);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int w = 0; w < writers; w++) {
      int writer = w;
      Thread t = new Thread(() -> {
        try {
          for (int r = 0; r < rounds; r++) {
            roundStart.await();
            for (byte[] row : rows[r][writer]) {
              filters[r].addRow(row, 0, row.length);
            }
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(failures).isEmpty();
    for (int r = 0; r < rounds; r++) {
      ActiveRowFilter alone = new ActiveRowFilter(400);
      for (byte[][] mine : rows[r]) {
        for (byte[] row : mine) {
          alone.addRow(row, 0, row.length);
        }
      }
      assertThat(filters[r].bits()).as("seed %d, round %d", seed, r).isEqualTo(alone.bits());
      for (byte[][] mine : rows[r]) {
        for (byte[] row : mine) {
          assertThat(filters[r].mightContain(row)).as("seed %d, round %d, row %s", seed, r, new String(row)).isTrue();
        }
      }
    }
  }

  @Test
  void atTheExpectedRowCountAboutOnePercentAreFalsePositives() {
    long seed = 42;
    Random random = new Random(seed);
    ActiveRowFilter filter = new ActiveRowFilter(10_000);
    for (int i = 0; i < 10_000; i++) {
      byte[] r = Bytes.of("in" + random.nextLong());
      filter.addRow(r, 0, r.length);
    }
    int positives = 0;
    for (int i = 0; i < 100_000; i++) {
      if (filter.mightContain(Bytes.of("out" + random.nextLong()))) {
        positives++;
      }
    }
    assertThat(positives).isBetween(100, 2_000); // about 1% designed: 0.1% .. 2%
    assertThat(filter.heapBytes()).isEqualTo(ActiveRowFilter.heapBytesFor(10_000));
  }

  @Test
  void aRowPartOfALargerArrayIsTheSameRow() {
    ActiveRowFilter filter = new ActiveRowFilter(100);
    byte[] buf = Bytes.of("xxrow-7yy");
    filter.addRow(buf, 2, 5);
    assertThat(filter.mightContain(Bytes.of("row-7"))).isTrue();
  }
}
