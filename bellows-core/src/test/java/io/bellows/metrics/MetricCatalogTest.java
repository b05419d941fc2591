package io.bellows.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog is complete and exact: every metric an engine reports (engine-wide and per store,
 * with both memory stores, MSLAB chunks, both cache levels, after flushes, compactions and a split)
 * has its entry, every entry is reported by such an engine, and docs/METRICS.md is the generated
 * table.
 */
class MetricCatalogTest {
  @Test
  void everyReportedMetricHasAnEntryAndEveryEntryIsReported(@TempDir Path dir) {
    Set<String> reported = new TreeSet<>();
    EngineOptions options = EngineOptions.builder().set(Knobs.BLOCKCACHE_L2_SIZE, 8L << 20).build();
    try (Bellows db = Bellows.open(dir, options)) {
      db.createTable(TableDescriptor.builder("t")
          .family(ColumnFamilyDescriptor.builder("a").set(Knobs.IN_MEMORY_COMPACTION, MemStorePolicy.EAGER)
              .set(Knobs.MSLAB, true).build())
          .family(ColumnFamilyDescriptor.builder("b").set(Knobs.IN_MEMORY_COMPACTION, MemStorePolicy.NONE).build())
          .build());
      Table t = db.getTable("t");
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 200; i++) {
          t.put(new Put(Bytes.of(String.format("r%04d", i)))
              .addColumn(Bytes.of("a"), Bytes.of("q"), Bytes.of("v" + round))
              .addColumn(Bytes.of("b"), Bytes.of("q"), Bytes.of("v" + round)));
        }
        db.flush("t");
      }
      for (int i = 0; i < 200; i += 7) {
        t.get(new Get(Bytes.of(String.format("r%04d", i))));
      }
      db.compact("t");
      db.majorCompact("t");
      db.split("t", Bytes.of("r0100"));
      reported.addAll(db.metrics().keySet());
      db.storeMetrics("t").values().forEach(m -> reported.addAll(m.keySet()));
    }
    List<String> missing = new ArrayList<>();
    for (String name : reported) {
      if (MetricCatalog.find(name).isEmpty()) {
        missing.add(name);
      }
    }
    assertThat(missing).as("metrics reported but missing from MetricCatalog").isEmpty();
    List<String> unreported = new ArrayList<>();
    for (MetricCatalog.Entry e : MetricCatalog.entries()) {
      if (reported.stream().noneMatch(e::matches)) {
        unreported.add(e.name());
      }
    }
    assertThat(unreported).as("catalog entries no engine reports").isEmpty();
  }

  @Test
  void exportNamesFollowPrometheusConventions() {
    assertThat(export("wal.bytes.appended")).isEqualTo("wal_appended_bytes_total");
    assertThat(export("writes.blocked.nanos")).isEqualTo("writes_blocked_seconds_total");
    assertThat(export("writes.blocked.nanos.memstore.full")).isEqualTo("writes_blocked_memstore_full_seconds_total");
    assertThat(export("flush.count")).isEqualTo("flush_total");
    assertThat(export("store.files.bytes")).isEqualTo("store_files_bytes");
    assertThat(export("cache.l1.data.hit.ratio")).isEqualTo("cache_l1_data_hit_ratio");
    assertThat(export("memstore.adaptive.throttle")).isEqualTo("memstore_adaptive_throttle_ratio");
    assertThat(export("memstore.footprint.chunk_skiplist")).isEqualTo("memstore_footprint_chunk_skiplist_bytes");
    assertThat(MetricCatalog.Unit.NANOSECONDS.toBase(1.5e9)).isEqualTo(1.5);
    assertThat(MetricCatalog.Unit.MILLISECONDS.toBase(250)).isEqualTo(0.25);
  }

  private static String export(String metric) {
    return MetricCatalog.exportName(metric, MetricCatalog.find(metric).orElseThrow());
  }

  @Test
  void docsHoldTheGeneratedTable() throws IOException {
    String text = Files.readString(Path.of("..", "docs", "METRICS.md"));
    assertThat(text).as("docs/METRICS.md must contain the output of io.bellows.metrics.MetricTable (regenerate it)")
        .contains(MetricTable.markdown());
  }
}
