package io.bellows.client;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's TIMELINE reads: {@code Get}/{@code Scan.setConsistency} reach the engine's query, and a
 * row the engine's scanner says may be stale comes back with {@link Result#isStale()} true (gets
 * alone, in a list, empty, and a scan's rows); a default read asks for a strong one and is never
 * stale. The engine here answers every TIMELINE read as a cluster's follower would; the embedded
 * engine itself never says stale.
 */
class TimelineReadApiTest {
  @TempDir
  Path dir;

  @Test
  void timelineReadsReachTheEngineAndComeBackFlaggedStale() {
    List<Consistency> asked = new ArrayList<>();
    try (LocalEngine local = LocalEngine.open(dir, EngineOptions.defaults())) {
      local.createTable(TableDescriptor.builder("t").family("f").build());
      Table plain = Bellows.over(local).getTable("t");
      plain.put(new Put("r1").addColumn("f", "q", "v1"));
      plain.put(new Put("r2").addColumn("f", "q", "v2"));
      assertThat(plain.get(new Get("r1").setConsistency(Consistency.TIMELINE)).isStale())
          .as("one engine is never stale").isFalse();

      Table t = Bellows.over(follower(local, asked)).getTable("t");
      Result strong = t.get(new Get("r1"));
      assertThat(strong.isStale()).isFalse();
      Result timeline = t.get(new Get("r1").setConsistency(Consistency.TIMELINE));
      assertThat(timeline.isStale()).isTrue();
      assertThat(timeline.getValue(io.bellows.util.Bytes.of("f"), io.bellows.util.Bytes.of("q")))
          .isEqualTo(io.bellows.util.Bytes.of("v1"));
      assertThat(t.get(new Get("none").setConsistency(Consistency.TIMELINE)).isStale()).isTrue();
      assertThat(t.get(List.of(new Get("r1").setConsistency(Consistency.TIMELINE), new Get("r2"))))
          .extracting(Result::isStale).containsExactly(true, false);
      List<Boolean> rows = new ArrayList<>();
      try (ResultScanner s = t.getScanner(new Scan().setConsistency(Consistency.TIMELINE))) {
        for (Result r = s.next(); r != null; r = s.next()) {
          rows.add(r.isStale());
        }
      }
      assertThat(rows).containsExactly(true, true);
      assertThat(asked).containsExactly(Consistency.STRONG, Consistency.TIMELINE, Consistency.TIMELINE,
          Consistency.TIMELINE, Consistency.STRONG, Consistency.TIMELINE);
    }
  }

  /** The engine, but a TIMELINE scan says it may be stale; the consistency of every scan is recorded. */
  private static Engine follower(LocalEngine local, List<Consistency> asked) {
    return (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(), new Class<?>[] {Engine.class},
        (proxy, method, args) -> {
          if (method.getName().equals("getAll")) {
            // a strong get goes through getAll: recorded per query, and read by the engine
            @SuppressWarnings("unchecked")
            List<ScanQuery> qs = (List<ScanQuery>) args[1];
            qs.forEach(q -> asked.add(q.consistency()));
            return local.getAll((io.bellows.engine.TableRef) args[0], qs);
          }
          Object out;
          try {
            out = method.invoke(local, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (!method.getName().equals("scan")) {
            return out;
          }
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
        });
  }
}
