package io.bellows.bench;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.engine.SplitKeys;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.util.Bytes;
import io.bellows.wire.RemoteCallException;
import io.grpc.Status;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;

/**
 * The load test of the server: {@code --clients} concurrent clients (default 64) mix puts (50%),
 * gets of their own rows (40%) and short scans (10%) for {@code --seconds}, first against an
 * embedded engine, then through a server on loopback (one shared connection), on fresh data
 * directories. Each client checks every row it wrote at the end. Prints, per mode and operation,
 * throughput and p50/p99/p99.9 latency, the errors (throttling apart), lost writes, the heap used
 * after the run, and the remote/embedded ratios. Time-bounded; loopback only.
 *
 * <pre>
 * java -cp bellows-bench/target/benchmarks.jar io.bellows.bench.RemoteLoad [--clients 64] [--seconds 120]
 *     [--value-bytes 100] [--regions 4] [--seed N] [--dir /tmp]
 * </pre>
 */
public final class RemoteLoad {
  private static final String[] OPS = {"put", "get", "scan"};

  private RemoteLoad() {}

  /** What one mode's run measured. */
  record Outcome(String mode, Map<String, Histogram> latency, long seconds, long throttled, List<String> errors,
      long lostWrites, long heapUsedBytes) {
    long ops() {
      return latency.values().stream().mapToLong(Histogram::getTotalCount).sum();
    }
  }

  public static void main(String[] argv) throws Exception {
    Args args = new Args(argv, Set.of("clients", "seconds", "value-bytes", "regions", "seed", "dir"));
    int clients = (int) args.getLong("clients", 64);
    long seconds = args.getLong("seconds", 120);
    int valueBytes = (int) args.getLong("value-bytes", 100);
    int regions = (int) args.getLong("regions", 4);
    long seed = args.getLong("seed", System.nanoTime());
    Path base = Files.createTempDirectory(Path.of(args.get("dir", System.getProperty("java.io.tmpdir"))), "remote-load");
    System.out.println("RemoteLoad clients=" + clients + " seconds=" + seconds + " value-bytes=" + valueBytes
        + " regions=" + regions + " seed=" + seed + " dir=" + base);

    Outcome embedded;
    try (Bellows db = Bellows.open(base.resolve("embedded"), EngineOptions.defaults())) {
      embedded = run("embedded", db, clients, seconds, valueBytes, regions, seed);
    }
    Outcome remote;
    try (LocalEngine engine = LocalEngine.open(base.resolve("remote"), EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE);
        Bellows db = RemoteEngine.connect("127.0.0.1:" + server.port(), RemoteOptions.defaults())) {
      remote = run("remote", db, clients, seconds, valueBytes, regions, seed);
    }
    report(List.of(embedded, remote));
    deleteTree(base);
    if (!embedded.errors().isEmpty() || !remote.errors().isEmpty() || embedded.lostWrites() + remote.lostWrites() > 0) {
      System.exit(1);
    }
  }

  private static Outcome run(String mode, Bellows db, int clients, long seconds, int valueBytes, int regions, long seed)
      throws Exception {
    db.createTable(TableDescriptor.builder("load").family("f").build(), SplitKeys.hexString(regions));
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<ClientResult>> futures = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int client = c;
      futures.add(pool.submit(() -> client(db.getTable("load"), client, new Random(seed + client), valueBytes, deadline)));
    }
    Map<String, Histogram> latency = new HashMap<>();
    for (String op : OPS) {
      latency.put(op, new Histogram(3));
    }
    long throttled = 0;
    long lost = 0;
    List<String> errors = new ArrayList<>();
    for (Future<ClientResult> f : futures) {
      ClientResult r = f.get();
      r.latency.forEach((op, h) -> latency.get(op).add(h));
      throttled += r.throttled;
      errors.addAll(r.errors);
      lost += r.lost;
    }
    pool.shutdown();
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new Outcome(mode, latency, seconds, throttled, errors, lost, heap);
  }

  private static final class ClientResult {
    final Map<String, Histogram> latency = new HashMap<>();
    long throttled;
    final List<String> errors = new ArrayList<>();
    long lost;
  }

  private static ClientResult client(Table t, int client, Random rnd, int valueBytes, long deadline) {
    ClientResult r = new ClientResult();
    for (String op : OPS) {
      r.latency.put(op, new Histogram(3));
    }
    Map<String, byte[]> written = new HashMap<>();
    List<String> keys = new ArrayList<>();
    byte[] family = Bytes.of("f");
    byte[] qualifier = Bytes.of("q");
    long n = 0;
    while (System.nanoTime() < deadline) {
      int dice = rnd.nextInt(10);
      String op = dice < 5 || keys.isEmpty() ? "put" : dice < 9 ? "get" : "scan";
      long start = System.nanoTime();
      try {
        switch (op) {
          case "put" -> {
            String key = String.format("%08x-%03d-%d", rnd.nextInt(), client, n++);
            byte[] value = new byte[valueBytes];
            rnd.nextBytes(value);
            t.put(new Put(Bytes.of(key)).addColumn(family, qualifier, value));
            if (written.put(key, value) == null) {
              keys.add(key);
            }
          }
          case "get" -> {
            String key = keys.get(rnd.nextInt(keys.size()));
            Result got = t.get(new Get(Bytes.of(key)));
            byte[] seen = got.getValue(family, qualifier);
            if (!java.util.Arrays.equals(seen, written.get(key))) {
              byte[] again = t.get(new Get(Bytes.of(key))).getValue(family, qualifier);
              r.errors.add("client " + client + " read back a wrong value of " + key + ": "
                  + (seen == null ? "none" : seen.length + " bytes " + (seen.length > 0 ? seen[0] : 0)) + ", expected "
                  + written.get(key)[0] + "; read again: " + (again == null ? "none" : "" + again[0]) + "; cells "
                  + got.cells());
            }
          }
          default -> {
            try (ResultScanner s = t.getScanner(new Scan().withStartRow(Bytes.of(keys.get(rnd.nextInt(keys.size()))))
                .setLimit(10))) {
              while (s.next() != null) {
                // read the rows
              }
            }
          }
        }
        r.latency.get(op).recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
      } catch (RemoteCallException e) {
        if (e.code() == Status.Code.RESOURCE_EXHAUSTED) {
          r.throttled++;
        } else {
          r.errors.add(op + ": " + e.getMessage());
        }
      } catch (RuntimeException e) {
        r.errors.add(op + ": " + e);
      }
    }
    for (Map.Entry<String, byte[]> e : written.entrySet()) {
      try {
        if (!java.util.Arrays.equals(t.get(new Get(Bytes.of(e.getKey()))).getValue(family, qualifier), e.getValue())) {
          r.lost++;
        }
      } catch (RuntimeException ex) {
        r.errors.add("check: " + ex);
      }
    }
    return r;
  }

  private static void report(List<Outcome> outcomes) {
    MarkdownTable table = new MarkdownTable("mode", "op", "ops/s", "p50 µs", "p99 µs", "p99.9 µs", "errors",
        "throttled", "lost writes", "heap after (MiB)");
    for (Outcome o : outcomes) {
      for (String op : OPS) {
        Histogram h = o.latency().get(op);
        table.row(o.mode(), op, MarkdownTable.f1((double) h.getTotalCount() / o.seconds()), h.getValueAtPercentile(50),
            h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), o.errors().size(), o.throttled(), o.lostWrites(),
            o.heapUsedBytes() >> 20);
      }
    }
    System.out.println();
    System.out.println(table.render());
    Outcome e = outcomes.get(0);
    Outcome r = outcomes.get(1);
    MarkdownTable ratios = new MarkdownTable("op", "throughput remote/embedded", "p50 remote/embedded",
        "p99 remote/embedded", "p99.9 remote/embedded");
    for (String op : OPS) {
      Histogram he = e.latency().get(op);
      Histogram hr = r.latency().get(op);
      ratios.row(op, MarkdownTable.f2((double) hr.getTotalCount() / Math.max(1, he.getTotalCount())),
          MarkdownTable.f2(ratio(hr, he, 50)), MarkdownTable.f2(ratio(hr, he, 99)), MarkdownTable.f2(ratio(hr, he, 99.9)));
    }
    System.out.println(ratios.render());
    for (Outcome o : outcomes) {
      o.errors().stream().limit(10).forEach(err -> System.out.println(o.mode() + " error: " + err));
      Map<String, Long> byKind = new java.util.TreeMap<>();
      o.errors().forEach(err -> byKind.merge(err.replaceAll("[0-9a-f]{8}-", "").replaceAll("[-0-9]+", "#")
          .substring(0, Math.min(60, err.length())), 1L, Long::sum));
      byKind.forEach((k, v) -> System.out.println(o.mode() + " errors x" + v + ": " + k));
    }
  }

  private static double ratio(Histogram a, Histogram b, double percentile) {
    return (double) a.getValueAtPercentile(percentile) / Math.max(1, b.getValueAtPercentile(percentile));
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
