package io.bellows.bench;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.L1Admission;
import io.bellows.fs.LocalFileSystem;
import io.bellows.schema.TableDescriptor;
import io.bellows.sstable.SortedFileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@link ReadStore} over Bellows' public API: table {@code usertable}, one family cut into blocks by
 * its {@link ReadLayout}; the on-heap block cache (L1) is the whole cache budget, no L2, and the KV
 * cache starts at {@link ReadConfig#ROW_CACHE_BYTES} of it or is off; or ({@code offHeap}) data blocks
 * go to the off-heap L2: the whole budget without the KV cache; with it, an L1 of {@link
 * ReadConfig#KV_L1_BYTES} that takes no data blocks holds the KV cache and L2 has the rest. Figures come from {@link
 * Bellows#metrics()}; those of the adaptive read path are absent on engines without it.
 */
final class BellowsReadStore implements ReadStore {
  static final String TABLE = "usertable";
  /** Large enough that the load flushes a few big files rather than many small ones. */
  static final long FLUSH_SIZE = 64L << 20;

  private final Bellows db;
  private final Table table;

  private BellowsReadStore(Bellows db) {
    this.db = db;
    this.table = db.getTable(TABLE);
  }

  /** Creates the table of {@code layout} in an empty directory. */
  static BellowsReadStore create(Path dir, ReadLayout layout, long cacheBudget) {
    Bellows db = Bellows.open(dir, options(cacheBudget, false));
    db.createTable(TableDescriptor.builder(TABLE).durability(Durability.ASYNC_WAL).flushSize(FLUSH_SIZE)
        .family(layout.family(new String(ReadRows.FAMILY, java.nio.charset.StandardCharsets.UTF_8))).build());
    return new BellowsReadStore(db);
  }

  /** Opens a loaded directory. */
  static BellowsReadStore open(Path dir, long cacheBudget, boolean kvCache) {
    return open(dir, cacheBudget, kvCache, false);
  }

  /** Opens a loaded directory; with {@code directIo} its files are read past the page cache. */
  static BellowsReadStore open(Path dir, long cacheBudget, boolean kvCache, boolean directIo) {
    return open(dir, cacheBudget, kvCache, directIo, false);
  }

  /** As {@link #open(Path, long, boolean, boolean)}; with {@code offHeap} the budget is L2's alone. */
  static BellowsReadStore open(Path dir, long cacheBudget, boolean kvCache, boolean directIo, boolean offHeap) {
    EngineOptions options = !offHeap ? options(cacheBudget, kvCache)
        : kvCache ? offHeapKvOptions(cacheBudget) : offHeapOptions(cacheBudget);
    return new BellowsReadStore(Bellows.open(dir, options,
        directIo ? LocalFileSystem.DIRECT_READS : LocalFileSystem.INSTANCE));
  }

  /** No L1 (so no KV cache, whose memory is L1's): data blocks in L2, which gets read in place. */
  static EngineOptions offHeapOptions(long cacheBudget) {
    return EngineOptions.builder()
        .set(Knobs.BLOCKCACHE_L1_SIZE, 0L)
        .set(Knobs.BLOCKCACHE_L1_FRACTION, 0.0)
        .set(Knobs.BLOCKCACHE_L2_SIZE, cacheBudget)
        .build();
  }

  /**
   * Data blocks in L2, read in place; L1 ({@link ReadConfig#KV_L1_BYTES}) takes no data blocks
   * ({@code NONE}), so its memory is the KV cache's, which may grow to 0.9 of it, promoting rows out
   * of L2's blocks (the SAC 2024 paper's layout, and HBase's with a BucketCache).
   */
  static EngineOptions offHeapKvOptions(long cacheBudget) {
    long l1 = Math.min(ReadConfig.KV_L1_BYTES, cacheBudget / 2);
    return EngineOptions.builder()
        .set(Knobs.BLOCKCACHE_L1_SIZE, l1)
        .set(Knobs.BLOCKCACHE_L1_ADMISSION, L1Admission.NONE)
        .set(Knobs.BLOCKCACHE_L2_SIZE, cacheBudget - l1)
        .set(Knobs.KVCACHE_INITIAL_SIZE, Math.min(ReadConfig.ROW_CACHE_BYTES, l1 / 2))
        .set(Knobs.KVCACHE_MAX_FRACTION, 0.9)
        .build();
  }

  static EngineOptions options(long cacheBudget, boolean kvCache) {
    return EngineOptions.builder()
        .set(Knobs.BLOCKCACHE_L1_SIZE, cacheBudget)
        .set(Knobs.BLOCKCACHE_L2_SIZE, 0L)
        .set(Knobs.BLOCKCACHE_L2_FRACTION, 0.0) // the budget is L1's alone, as RocksDB's is its block cache
        .set(Knobs.KVCACHE_INITIAL_SIZE, kvCache ? ReadConfig.ROW_CACHE_BYTES : 0L)
        .build();
  }

  @Override
  public void load(List<byte[]> keys, List<byte[]> values) {
    List<Put> puts = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      puts.add(new Put(keys.get(i)).addColumn(ReadRows.FAMILY, ReadRows.QUALIFIER, values.get(i))
          .setDurability(Durability.SKIP_WAL));
    }
    table.put(puts);
  }

  @Override
  public void update(byte[] key, byte[] value) {
    table.put(new Put(key).addColumn(ReadRows.FAMILY, ReadRows.QUALIFIER, value));
  }

  @Override
  public int get(byte[] key) {
    Result r = table.get(new Get(key));
    byte[] v = r.getValue(ReadRows.FAMILY, ReadRows.QUALIFIER);
    return v == null ? -1 : v.length;
  }

  @Override
  public void compact() {
    db.flush(TABLE);
    db.majorCompact(TABLE);
  }

  @Override
  public Map<String, Double> figures() {
    Map<String, Number> m = db.metrics();
    Map<String, Double> f = new LinkedHashMap<>();
    put(f, ReadResult.FILE_BYTES_READ, m, "store.files.bytes.read");
    put(f, ReadResult.FILE_PAGES_READ, m, "store.files.pages.read");
    put(f, ReadResult.ENGINE_RETURNED_BYTES, m, "read.returned.bytes");
    put(f, ReadResult.ENGINE_RETURNED_PAGES, m, "read.returned.pages");
    if (m.containsKey("read.file.lookups")) {
      put(f, ReadResult.LOOKUPS, m, "read.file.lookups");
      put(f, ReadResult.CACHED_LOOKUPS, m, "read.file.lookups.cached");
    } else {
      // Before the KV cache: a file lookup is one data block lookup in L1.
      double hits = value(m, "cache.l1.data.hits");
      f.put(ReadResult.LOOKUPS, hits + value(m, "cache.l1.data.misses"));
      f.put(ReadResult.CACHED_LOOKUPS, hits);
    }
    f.put(ReadResult.BLOCKS_READ, value(m, "store.files.blocks.read"));
    put(f, ReadResult.KV_HITS, m, "kvcache.hits");
    put(f, ReadResult.KV_MISSES, m, "kvcache.misses");
    put(f, ReadResult.KV_PROMOTIONS, m, "kvcache.promotions");
    put(f, ReadResult.KV_EVICTIONS, m, "kvcache.evictions");
    put(f, ReadResult.KV_BYTES, m, "kvcache.bytes");
    put(f, ReadResult.KV_MAX_BYTES, m, "kvcache.max.bytes");
    put(f, ReadResult.KV_ENTRIES, m, "kvcache.entries");
    put(f, ReadResult.KV_GROWS, m, "kvcache.grows");
    put(f, ReadResult.KV_SHRINKS, m, "kvcache.shrinks");
    return f;
  }

  private static void put(Map<String, Double> f, String name, Map<String, Number> m, String metric) {
    Number n = m.get(metric);
    if (n != null) {
      f.put(name, n.doubleValue());
    }
  }

  private static double value(Map<String, Number> m, String metric) {
    Number n = m.get(metric);
    return n == null ? 0 : n.doubleValue();
  }

  /**
   * Data blocks and bytes of the sorted files under {@code dir} (of a closed store, so that only
   * live files are left), from each file's metadata.
   */
  static Map<String, Double> dataBlocks(Path dir) throws IOException {
    long blocks = 0;
    long bytes = 0;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.filter(p -> p.getFileName().toString().endsWith(".sst")).toList()) {
        SortedFileReader r = SortedFileReader.open(p, -1);
        try {
          blocks += r.metadata().dataBlockCount();
          bytes += r.metadata().fileSize();
        } finally {
          r.release();
        }
      }
    }
    return Map.of(ReadResult.DATA_BLOCKS, (double) blocks, ReadResult.FILE_BYTES, (double) bytes);
  }

  @Override
  public void close() {
    db.close();
  }
}
