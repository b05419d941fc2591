package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.FilterList;
import io.bellows.filter.KeyOnlyFilter;
import io.bellows.filter.PageFilter;
import io.bellows.filter.ValueFilter;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Filters and reversed scans travel to the server and are evaluated there. */
class RemoteFilterTest {
  @TempDir Path dir;

  @Test
  void filteredReversedScansAndGetsThroughAServer() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of("m")));
      Table t = db.getTable("t");
      for (String r : new String[] {"a", "b", "n", "z"}) {
        t.put(new Put(Bytes.of(r)).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of("v-" + r)));
      }
      Scan scan = new Scan().setReversed(true).setFilter(new FilterList(FilterList.Operator.MUST_PASS_ALL,
          new ValueFilter(CompareOperator.NOT_EQUAL, ByteComparator.binary(Bytes.of("v-n"))), new PageFilter(1)));
      List<String> rows = new ArrayList<>();
      try (ResultScanner s = t.getScanner(scan)) {
        for (Result r : s) {
          rows.add(Bytes.str(r.row()));
        }
      }
      assertThat(rows).as("from the top, one row per region, n filtered out").containsExactly("z", "b");
      Result r = t.get(new Get(Bytes.of("a")).setFilter(new KeyOnlyFilter(true)));
      assertThat(r.getValue(Bytes.of("f"), Bytes.of("q"))).isEqualTo(new byte[] {0, 0, 0, 3});
    }
  }
}
