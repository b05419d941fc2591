package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A put that returned is visible to its writer's next get, however many writers of the same
 * region are in flight: a mutation returns only once the region's read point has reached it
 * ({@code Mvcc.completeAndWait}). Before, a put that completed while an earlier one still waited
 * for its WAL sync returned invisible, and thousands of the gets below found nothing.
 */
class ReadYourWritesTest {
  private static final int WRITERS = 8;
  private static final int ROWS = 300;

  @TempDir
  Path dir;

  @Test
  void everyWriterSeesItsOwnPutAtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<String>>> futures = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        futures.add(pool.submit(() -> {
          Table t = db.getTable("t");
          List<String> unseen = new ArrayList<>();
          start.await();
          for (int i = 0; i < ROWS; i++) {
            byte[] row = Bytes.of("w" + writer + "-" + i);
            t.put(new Put(row).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of("v" + i)));
            if (t.get(new Get(row)).isEmpty()) {
              unseen.add(Bytes.str(row));
            }
          }
          return unseen;
        }));
      }
      start.countDown();
      List<String> unseen = new ArrayList<>();
      for (Future<List<String>> f : futures) {
        unseen.addAll(f.get());
      }
      assertThat(unseen).as("puts not visible to their writer's next get").isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }
}
