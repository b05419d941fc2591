package io.bellows.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.bellows.client.Put;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.protocol.ComparatorKind;
import io.bellows.protocol.CompareFilter;
import io.bellows.protocol.CompareOp;
import io.bellows.protocol.Filter;
import io.bellows.protocol.Query;
import io.bellows.scan.RowScanner;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read the server runs ends within {@code scan.check.rows} rows once its call is cancelled or past
 * its deadline, even while its filter drops every row (it used to look only between response
 * messages, so a filter that matched nothing ran on through the whole table).
 */
class ScanDeadlineTest {
  @TempDir Path dir;

  @Test
  void aFilteredScanOfACancelledCallStopsAtItsNextCheck() {
    try (LocalEngine engine = LocalEngine.open(dir, EngineOptions.defaults());
        ScanLeases leases = new ScanLeases(60_000)) {
      engine.createTable(TableDescriptor.builder("t").family("f").build());
      TableRef t = engine.table("t");
      List<RowMutation> rows = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        String row = String.format("r%05d", i);
        rows.add(RowMutation.of(Bytes.of(row), new Put(row).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of("v")).cells(),
            Durability.SYNC_WAL));
      }
      engine.mutate(t, rows);
      ServerLimits limits = ServerConfig.defaults().withLimits(Map.of("scan.check.rows", 10L)).limits();
      DataService data = new DataService(engine, new Tables(engine), ServerEvents.NONE, ScanCall.Limits.DEFAULT, limits,
          leases);
      Filter none = Filter.newBuilder().setValue(CompareFilter.newBuilder().setOp(CompareOp.EQUAL)
          .setComparator(ComparatorKind.REGEX).setOperand(ByteString.copyFromUtf8("nothing matches"))).build();
      Query query = Query.newBuilder().setFilter(none).build();

      Context.CancellableContext call = Context.current().withCancellation();
      call.cancel(null);
      StatusRuntimeException[] thrown = new StatusRuntimeException[1];
      call.run(() -> {
        try (RowScanner s = engine.scan(t, data.query(query))) {
          s.nextRow(new ArrayList<>());
        } catch (StatusRuntimeException e) {
          thrown[0] = e;
        }
      });
      assertThat(thrown[0]).as("the scan ended at its first check").isNotNull();
      assertThat(thrown[0].getStatus().getCode()).isEqualTo(Status.Code.CANCELLED);

      // A live call reads on to the end: the check changes nothing else.
      try (RowScanner s = engine.scan(t, data.query(query))) {
        assertThat(s.nextRow(new ArrayList<>())).isFalse();
      }
    }
  }

  @Test
  void filtersNestedTooDeepAreRefusedBeforeTheyRun() {
    Filter f = Filter.newBuilder().setPrefix(ByteString.copyFromUtf8("r")).build();
    for (int i = 1; i < Requests.MAX_FILTER_DEPTH; i++) {
      f = Filter.newBuilder().setList(io.bellows.protocol.FilterList.newBuilder().addFilters(f)).build();
    }
    Requests.check(f); // exactly the limit
    Filter deeper = Filter.newBuilder().setList(io.bellows.protocol.FilterList.newBuilder().addFilters(f)).build();
    assertThatThrownBy(() -> Requests.check(deeper)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most " + Requests.MAX_FILTER_DEPTH);
  }
}
