package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.engine.SplitKeys;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many clients at once — threads sharing one connection and threads with connections of their
 * own — mixing puts, gets, scans and increments against a server with few threads and a low
 * max.calls, so that some calls are throttled and retried: no error reaches a client, and each
 * client finds all its own writes at the end. Prints its seed; replay with -Dbellows.test.seed=N.
 */
@ExtendWith(SeedExtension.class)
class ConcurrentClientsTest {
  private static final int CLIENTS = 24;
  private static final int OPS = 150;

  @TempDir
  Path dir;

  @Test
  void concurrentClientsLoseNoWriteAndSeeNoErrorButThrottlingRetried(Seed s) throws Exception {
    long seed = s.value();
    RemoteOptions options = RemoteOptions.defaults().withRetries(50, Duration.ofMillis(1), Duration.ofMillis(20));
    ServerConfig config = ServerConfig.defaults().withMaxCalls(8);
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    try (ServerFixture f = new ServerFixture(dir, config, ServerEvents.NONE); Bellows shared = f.connect(options)) {
      shared.createTable(TableDescriptor.builder("t").family("f").build(), SplitKeys.hexString(4));
      List<Future<Map<String, String>>> futures = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        Random rnd = new Random(seed + c);
        futures.add(pool.submit(() -> {
          Bellows own = client % 3 == 0 ? f.connect(options.withConnections(2)) : null;
          try {
            return run(client, rnd, own != null ? own : shared);
          } finally {
            if (own != null) {
              own.close();
            }
          }
        }));
      }
      for (int c = 0; c < CLIENTS; c++) {
        Map<String, String> written = futures.get(c).get();
        Table t = shared.getTable("t");
        for (Map.Entry<String, String> e : written.entrySet()) {
          Result r = t.get(new Get(Bytes.of(e.getKey())));
          assertThat(Bytes.str(r.getValue(Bytes.of("f"), Bytes.of("q")))).as("seed " + seed + " row " + e.getKey())
              .isEqualTo(e.getValue());
        }
        assertThat(t.incrementColumnValue(Bytes.of("counter-" + c), Bytes.of("f"), Bytes.of("n"), 0))
            .as("seed " + seed + " counter of client " + c).isEqualTo(OPS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** One client's calls; returns the last value it wrote to each of its rows. */
  private static Map<String, String> run(int client, Random rnd, Bellows db) {
    Table t = db.getTable("t");
    Map<String, String> written = new TreeMap<>();
    byte[] counter = Bytes.of("counter-" + client);
    for (int i = 0; i < OPS; i++) {
      // Rows spread over the key space (and so over the regions): a hex prefix, then the client.
      String row = String.format("%08x-%02d-%03d", rnd.nextInt(), client, rnd.nextInt(20));
      switch (rnd.nextInt(4)) {
        case 0, 1 -> {
          String v = "v" + i;
          t.put(new Put(Bytes.of(row)).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of(v)));
          written.put(row, v);
        }
        case 2 -> {
          if (!written.isEmpty()) {
            String mine = new ArrayList<>(written.keySet()).get(rnd.nextInt(written.size()));
            Result r = t.get(new Get(Bytes.of(mine)));
            assertThat(Bytes.str(r.getValue(Bytes.of("f"), Bytes.of("q")))).isEqualTo(written.get(mine));
          }
        }
        default -> {
          try (ResultScanner s = t.getScanner(new Scan().withStartRow(Bytes.of(row)).setLimit(5))) {
            int n = 0;
            for (Result r : s) {
              assertThat(Bytes.compare(r.row(), Bytes.of(row))).isGreaterThanOrEqualTo(0);
              n++;
            }
            assertThat(n).isLessThanOrEqualTo(5);
          }
        }
      }
      t.incrementColumnValue(counter, Bytes.of("f"), Bytes.of("n"), 1);
    }
    return written;
  }
}
