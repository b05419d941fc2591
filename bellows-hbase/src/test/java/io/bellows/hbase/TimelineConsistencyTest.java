package io.bellows.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.EngineOptions;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's {@code Consistency.TIMELINE} on a Get or Scan becomes the engine's TIMELINE read, and a
 * row the engine says may be stale comes back with {@code Result.isStale()} true; a default (STRONG)
 * read asks for a strong one and is never stale. The engine here stands for a cluster member that
 * does not lead: it answers every TIMELINE read as stale (a leader's answer, which is not, is
 * {@code ClusterTimelineReadTest}'s in bellows-client).
 */
class TimelineConsistencyTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir
  Path dir;

  @Test
  void aTimelineReadAnsweredByAFollowerIsStaleAndADefaultReadIsStrong() throws Exception {
    List<Consistency> asked = new ArrayList<>();
    try (LocalEngine local = LocalEngine.open(dir, EngineOptions.defaults())) {
      local.createTable(TableDescriptor.builder("t").family("f").build());
      Engine engine = followerOver(local, asked);
      Table table = BellowsTable.create(engine, T, new Configuration(false));
      table.put(new Put(Bytes.toBytes("r1")).addColumn(F, Q, Bytes.toBytes("v1")));
      table.put(new Put(Bytes.toBytes("r2")).addColumn(F, Q, Bytes.toBytes("v2")));

      Result strong = table.get(new Get(Bytes.toBytes("r1")));
      assertThat(Bytes.toString(strong.getValue(F, Q))).isEqualTo("v1");
      assertThat(strong.isStale()).isFalse();
      assertThat(asked).containsExactly(Consistency.STRONG);

      Result timeline = table.get(new Get(Bytes.toBytes("r1")).setConsistency(org.apache.hadoop.hbase.client.Consistency.TIMELINE));
      assertThat(Bytes.toString(timeline.getValue(F, Q))).isEqualTo("v1");
      assertThat(timeline.isStale()).isTrue();
      // A row the replica does not hold is an empty answer, stale too.
      Result missing = table.get(new Get(Bytes.toBytes("r9")).setConsistency(org.apache.hadoop.hbase.client.Consistency.TIMELINE));
      assertThat(missing.isEmpty()).isTrue();
      assertThat(missing.isStale()).isTrue();
      assertThat(asked).containsExactly(Consistency.STRONG, Consistency.TIMELINE, Consistency.TIMELINE);

      asked.clear();
      List<Boolean> staleRows = new ArrayList<>();
      try (ResultScanner s = table.getScanner(new Scan().setConsistency(org.apache.hadoop.hbase.client.Consistency.TIMELINE))) {
        for (Result r : s) {
          staleRows.add(r.isStale());
        }
      }
      assertThat(staleRows).containsExactly(true, true);
      staleRows.clear();
      try (ResultScanner s = table.getScanner(new Scan())) {
        for (Result r : s) {
          staleRows.add(r.isStale());
        }
      }
      assertThat(staleRows).containsExactly(false, false);
      assertThat(asked).containsExactly(Consistency.TIMELINE, Consistency.STRONG);
    }
  }

  /** The engine, but its scans record their consistency and a TIMELINE one says it may be stale. */
  private static Engine followerOver(LocalEngine local, List<Consistency> asked) {
    return (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(), new Class<?>[] {Engine.class},
        (proxy, method, args) -> {
          Object out;
          try {
            out = method.invoke(local, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("scan")) {
            Consistency c = ((ScanQuery) args[1]).consistency();
            asked.add(c);
            RowScanner s = (RowScanner) out;
            return new RowScanner() {
              @Override
              public boolean nextRow(List<io.bellows.cell.Cell> cells) {
                return s.nextRow(cells);
              }

              @Override
              public boolean mayBeStale() {
                return c == Consistency.TIMELINE;
              }

              @Override
              public void close() {
                s.close();
              }
            };
          }
          return out;
        });
  }
}
