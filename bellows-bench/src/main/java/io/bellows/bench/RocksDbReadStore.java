package io.bellows.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * {@link ReadStore} over RocksDB: a row is one key (the row key) with its value. Block-based table
 * with 64 KiB blocks, no compression and a 10-bit Bloom filter (as Bellows' ROW Bloom filter), index
 * and filter blocks in the block cache (as Bellows keeps them in L1); the block cache is the cache
 * budget, or the budget less {@link ReadConfig#ROW_CACHE_BYTES} with the row cache on. Updates go
 * through the WAL without a sync (as Bellows' ASYNC_WAL); the load skips it.
 *
 * <p>Figures come from RocksDB's Statistics: file bytes and reads (last and non-last level reads),
 * data block cache hits and misses, row cache hits and misses. RocksDB does not count 4 KiB pages,
 * so pages read are estimated from reads and bytes (see {@link ReadRunner}).
 */
final class RocksDbReadStore implements ReadStore {
  static {
    RocksDB.loadLibrary();
  }

  private final Statistics stats = new Statistics();
  private final LRUCache blockCache;
  private final LRUCache rowCache;
  private final Options options;
  private final RocksDB db;
  private final WriteOptions updates = new WriteOptions().setSync(false);
  private final WriteOptions loads = new WriteOptions().setDisableWAL(true);

  RocksDbReadStore(Path dir, long cacheBudget, boolean rowCacheOn) throws RocksDBException {
    this(dir, cacheBudget, rowCacheOn, false);
  }

  /** With {@code directIo}, reads of the files go past the page cache (RocksDB's use_direct_reads). */
  RocksDbReadStore(Path dir, long cacheBudget, boolean rowCacheOn, boolean directIo) throws RocksDBException {
    this.rowCache = rowCacheOn ? new LRUCache(ReadConfig.ROW_CACHE_BYTES) : null;
    this.blockCache = new LRUCache(rowCacheOn ? cacheBudget - ReadConfig.ROW_CACHE_BYTES : cacheBudget);
    this.options = options().setStatistics(stats).setUseDirectReads(directIo);
    options.setTableFormatConfig(tableConfig().setBlockCache(blockCache));
    if (rowCache != null) {
      options.setRowCache(rowCache);
    }
    this.db = RocksDB.open(options, dir.toString());
  }

  static Options options() {
    return new Options().setCreateIfMissing(true).setCompressionType(CompressionType.NO_COMPRESSION)
        .setBottommostCompressionType(CompressionType.NO_COMPRESSION).setMaxBackgroundJobs(2)
        .setWriteBufferSize(BellowsReadStore.FLUSH_SIZE);
  }

  static BlockBasedTableConfig tableConfig() {
    return new BlockBasedTableConfig().setBlockSize(ReadLayout.ROCKSDB.blockSize)
        .setFilterPolicy(new BloomFilter(10)).setCacheIndexAndFilterBlocks(true);
  }

  /** Data blocks and bytes of a closed RocksDB directory, from its table properties. */
  static Map<String, Double> dataBlocks(Path dir) throws RocksDBException {
    try (Options o = options(); RocksDB ro = RocksDB.openReadOnly(o, dir.toString())) {
      long blocks = 0;
      long bytes = 0;
      for (TableProperties p : ro.getPropertiesOfAllTables().values()) {
        blocks += p.getNumDataBlocks();
        bytes += p.getDataSize() + p.getIndexSize() + p.getFilterSize();
      }
      return Map.of(ReadResult.DATA_BLOCKS, (double) blocks, ReadResult.FILE_BYTES, (double) bytes);
    }
  }

  static String version() {
    return RocksDB.rocksdbVersion().toString();
  }

  @Override
  public void load(List<byte[]> keys, List<byte[]> values) throws RocksDBException {
    try (WriteBatch b = new WriteBatch()) {
      for (int i = 0; i < keys.size(); i++) {
        b.put(keys.get(i), values.get(i));
      }
      db.write(loads, b);
    }
  }

  @Override
  public void update(byte[] key, byte[] value) throws RocksDBException {
    db.put(updates, key, value);
  }

  @Override
  public int get(byte[] key) throws RocksDBException {
    byte[] v = db.get(key);
    return v == null ? -1 : v.length;
  }

  @Override
  public void compact() throws RocksDBException {
    try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      db.flush(fo);
    }
    db.compactRange();
  }

  @Override
  public Map<String, Double> figures() {
    Map<String, Double> f = new LinkedHashMap<>();
    f.put(ReadResult.FILE_BYTES_READ, tick(TickerType.LAST_LEVEL_READ_BYTES) + tick(TickerType.NON_LAST_LEVEL_READ_BYTES));
    f.put(ReadResult.BLOCKS_READ, tick(TickerType.LAST_LEVEL_READ_COUNT) + tick(TickerType.NON_LAST_LEVEL_READ_COUNT));
    double dataHits = tick(TickerType.BLOCK_CACHE_DATA_HIT);
    double dataMisses = tick(TickerType.BLOCK_CACHE_DATA_MISS);
    if (rowCache != null) {
      // Each file lookup asks the row cache first; its misses go to the block cache.
      double rowHits = tick(TickerType.ROW_CACHE_HIT);
      double rowMisses = tick(TickerType.ROW_CACHE_MISS);
      f.put(ReadResult.LOOKUPS, rowHits + rowMisses);
      f.put(ReadResult.CACHED_LOOKUPS, rowHits + dataHits);
      f.put(ReadResult.KV_HITS, rowHits);
      f.put(ReadResult.KV_MISSES, rowMisses);
      f.put(ReadResult.KV_BYTES, (double) rowCache.getUsage());
      f.put(ReadResult.KV_MAX_BYTES, (double) ReadConfig.ROW_CACHE_BYTES);
    } else {
      f.put(ReadResult.LOOKUPS, dataHits + dataMisses);
      f.put(ReadResult.CACHED_LOOKUPS, dataHits);
    }
    return f;
  }

  private double tick(TickerType t) {
    return stats.getTickerCount(t);
  }

  @Override
  public void close() {
    db.close();
    options.close();
    updates.close();
    loads.close();
    blockCache.close();
    if (rowCache != null) {
      rowCache.close();
    }
    stats.close();
  }
}
