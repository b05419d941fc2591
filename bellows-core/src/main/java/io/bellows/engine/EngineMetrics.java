package io.bellows.engine;

import io.bellows.cache.BlockCache;
import io.bellows.fs.FileSystem;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.store.Store;
import io.bellows.wal.Wal;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's metrics as {@link Engine#metrics} and its per-table views report them: the counters
 * and gauges of the metric set, and what is summed over the WAL, the open regions' stores, the
 * chunk allocator and the block cache when asked (docs/METRICS.md names each).
 */
final class EngineMetrics {
  private final FileSystem fs;
  private final MetricSet metrics;
  private final EngineTables tables;
  private final WalRetention walRetention;
  private final ChunkAllocator chunks;
  private final BlockCache blockCache;
  private final long instanceId;
  private final AtomicLong nextFileNumber;

  EngineMetrics(FileSystem fs, MetricSet metrics, EngineTables tables, WalRetention walRetention, ChunkAllocator chunks,
      BlockCache blockCache, long instanceId, AtomicLong nextFileNumber) {
    this.fs = fs;
    this.metrics = metrics;
    this.tables = tables;
    this.walRetention = walRetention;
    this.chunks = chunks;
    this.blockCache = blockCache;
    this.instanceId = instanceId;
    this.nextFileNumber = nextFileNumber;
  }

  /** Engine-wide metrics by name (WAL, flushes, compactions, memory, blocked time, GC). */
  Map<String, Number> all() {
    Map<String, Number> m = new TreeMap<>(metrics.snapshot());
    Wal w = walRetention.wal();
    if (w != null) {
      m.put("wal.bytes.appended", w.bytesAppended());
      m.put("wal.records.appended", w.recordsAppended());
      m.put("wal.syncs", w.syncs());
      m.put("wal.forces", w.forces());
      m.put("wal.files", w.fileCount());
      m.put("wal.files.rolled", w.filesRolled());
      m.put("wal.files.deleted", w.filesDeleted());
      m.put("wal.files.fenced", w.filesFenced());
    }
    long data = 0;
    long overhead = 0;
    long files = 0;
    long bytesRead = 0;
    long blocksRead = 0;
    long pagesRead = 0;
    long flushing = 0;
    long compacting = 0;
    for (Region r : tables.allRegions()) {
      for (Store s : r.stores().values()) {
        flushing += s.flushing() ? 1 : 0;
        compacting += s.compacting() ? 1 : 0;
        bytesRead += s.fileBytesRead();
        blocksRead += s.fileBlocksRead();
        pagesRead += s.filePagesRead();
        data += s.memStoreSize().dataBytes();
        overhead += s.memStoreSize().overheadBytes();
        files += s.fileCount();
      }
    }
    m.put("memstore.data.bytes", data);
    m.put("memstore.overhead.bytes", overhead);
    m.put("store.files", files);
    m.put("store.files.bytes.read", bytesRead);
    m.put("store.files.blocks.read", blocksRead);
    m.put("store.files.pages.read", pagesRead);
    m.put("flush.running", flushing);
    m.put("compaction.running", compacting);
    m.put("tables", tables.catalog().tables().size());
    m.put("regions.open", tables.allRegions().size());
    m.put("engine.instance.id", instanceId);
    m.put("file.number.next", nextFileNumber.get());
    EngineChunks.metrics(chunks).forEach((k, v) -> m.put("chunks." + k, v));
    m.putAll(blockCache.metrics());
    return m;
  }

  /** Per-store metrics of a table: family name -&gt; metric name -&gt; value, each summed over its regions. */
  Map<String, Map<String, Number>> stores(String table) {
    Map<String, Map<String, Number>> out = new TreeMap<>();
    for (Region r : tables.regionsOf(table).regions()) {
      for (Store s : r.stores().values()) {
        Map<String, Number> sum = out.computeIfAbsent(s.family().name(), k -> new TreeMap<>());
        s.metrics().forEach((k, v) -> sum.merge(k, v, EngineMetrics::add));
      }
    }
    return out;
  }

  List<StoreSegments> memStoreSegments(String table) {
    List<StoreSegments> out = new ArrayList<>();
    for (Region r : tables.regionsOf(table).regions()) {
      for (Store s : r.stores().values()) {
        out.add(new StoreSegments(r.id(), s.family().name(), s.memStoreSegments()));
      }
    }
    return out;
  }

  List<WalFileInfo> walFiles() {
    Wal w = walRetention.wal();
    if (w == null) {
      return List.of();
    }
    List<WalFileInfo> out = new ArrayList<>();
    for (Path p : w.files()) {
      long bytes;
      try {
        bytes = fs.length(p);
      } catch (IOException deletedMeanwhile) {
        continue;
      }
      out.add(new WalFileInfo(p.getFileName().toString(), bytes));
    }
    return out;
  }

  /** Stores refusing writes because a compaction met a damaged file (the metric corruption.stores.damaged). */
  int damagedStores() {
    int n = 0;
    for (Region r : tables.allRegions()) {
      for (Store s : r.stores().values()) {
        if (s.damage() != null) {
          n++;
        }
      }
    }
    return n;
  }

  private static Number add(Number a, Number b) {
    boolean integral = (a instanceof Long || a instanceof Integer) && (b instanceof Long || b instanceof Integer);
    return integral ? (Number) (a.longValue() + b.longValue()) : (Number) (a.doubleValue() + b.doubleValue());
  }
}
