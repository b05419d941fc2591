package io.bellows.config;

import static io.bellows.config.Knob.Scope.ENGINE;
import static io.bellows.config.Knob.Scope.FAMILY;
import static io.bellows.config.Knob.Scope.TABLE;

import java.util.List;

/**
 * The registry of every configuration knob of Bellows. Family and table knobs carry the names the
 * HBase shell uses ({@code VERSIONS}, {@code TTL}, ...) so that shell commands read the same.
 */
public final class Knobs {
  private Knobs() {}

  private static final long KIB = 1024;
  private static final long MIB = 1024 * 1024;
  private static final long GIB = 1024 * MIB;

  // ---------------------------------------------------------------- engine
  public static final Knob<Durability> DEFAULT_DURABILITY = Knob.ofEnum("bellows.durability.default", ENGINE,
      Durability.class, Durability.SYNC_WAL,
      "Durability of mutations whose mutation, family and table all say USE_DEFAULT.");
  public static final Knob<Long> WAL_ROLL_SIZE = Knob.ofLong("bellows.wal.roll.size", ENGINE,
      64 * MIB, 64 * KIB, 16 * GIB, "bytes", "A WAL file is closed and a new one started when it reaches this size.");
  public static final Knob<Long> WAL_ASYNC_SYNC_PERIOD_MS = Knob.ofLong("bellows.wal.async.sync.period.ms", ENGINE,
      1000, 1, 3_600_000, "ms", "How often the background thread syncs the WAL for ASYNC_WAL writes.");
  public static final Knob<Integer> WAL_MAX_FILES = Knob.ofInt("bellows.wal.max.files", ENGINE,
      32, 2, 100_000, "files", "When the WAL has more files than this, the regions still needing edits of its oldest file are flushed so that it can be deleted.");
  public static final Knob<Long> MAX_VALUE_SIZE = Knob.ofLong("bellows.max.value.size", ENGINE,
      10 * MIB, 1, 1 * GIB, "bytes", "Largest value a put may carry; a larger one is rejected.");
  public static final Knob<Double> MEMSTORE_BLOCK_MULTIPLIER = Knob.ofDouble("bellows.memstore.block.multiplier",
      ENGINE, 4.0, 1.0, 100.0, "Writes to a store block while its memory store exceeds this multiple of the flush size.");
  public static final Knob<Double> MEMSTORE_GLOBAL_FRACTION = Knob.ofDouble("bellows.memstore.global.fraction",
      ENGINE, 0.4, 0.05, 0.9, "Share of the JVM's maximum heap that all memory stores together may hold;"
      + " writes wait at it. Ignored when bellows.memstore.global.size is set.");
  public static final Knob<Long> MEMSTORE_GLOBAL_SIZE = Knob.ofLong("bellows.memstore.global.size", ENGINE,
      0, 0, Long.MAX_VALUE, "bytes", "Bytes all memory stores together may hold (writes wait at it); 0 means"
      + " bellows.memstore.global.fraction of the maximum heap.");
  public static final Knob<Double> MEMSTORE_GLOBAL_LOWER_FRACTION = Knob.ofDouble(
      "bellows.memstore.global.lower.fraction", ENGINE, 0.95, 0.5, 1.0, "Share of the global memory-store budget"
      + " above which the regions holding the most memory are flushed and writes are slowed down.");
  public static final Knob<Long> WRITE_DELAYED_RATE = Knob.ofLong("bellows.write.delayed.rate", ENGINE,
      128L << 20, 1L << 10, 1L << 40, "bytes/s", "Rate writes are paced to when a limit comes near (memory of the"
      + " engine or a store, files of a store); it falls towards 1/64 of this as the limit comes closer.");
  public static final Knob<Integer> BLOCKING_STORE_FILES = Knob.ofInt("bellows.store.blocking.files", ENGINE,
      32, 2, 10_000, "files", "Writes to a store block while it has more sorted files than this, until compaction catches up"
      + " (and are paced from three quarters of it). 32, not HBase's 16: Accordion's flushes write files smaller than the"
      + " flush size, and at 16 the four writers of a 41 s uniform-key write benchmark waited 18.6 s in all for one"
      + " compaction thread (BENCHMARKS.md); RocksDB stops writes at 36 level-0 files.");
  public static final Knob<Long> BLOCKING_WAIT_MS = Knob.ofLong("bellows.store.blocking.wait.ms", ENGINE,
      90_000, 0, 3_600_000, "ms", "Longest a write waits for compaction when a store has too many files (it then proceeds), and"
          + " while its memory store is full and flushes keep failing (then the engine stops accepting writes and the write"
          + " fails, nothing applied).");
  public static final Knob<Integer> FLUSH_FAILURES_STOP_WRITES = Knob.ofInt("bellows.flush.failures.stop.writes", ENGINE,
      5, 1, 1_000_000, "attempts", "Failed attempts in a row of a table's background flush (retried with backoff from 100 ms"
          + " doubling to 10 s) after which the engine stops accepting writes until a retry or resume() succeeds.");
  public static final Knob<Boolean> CORRUPTION_QUARANTINE = Knob.ofBoolean("bellows.corruption.quarantine", ENGINE,
      false, "When a background compaction meets a damaged sorted file: true sets the file aside online in"
          + " DIR/damaged/ (as `bellows repair --fix` does; its cells are lost) and the store goes on; false (the default)"
          + " stops writes to that store until the file is repaired offline, losing nothing more.");
  public static final Knob<Integer> COMPACTION_MIN_FILES = Knob.ofInt("bellows.compaction.min.files", ENGINE,
      3, 2, 1000, "files", "Fewest files a minor compaction merges.");
  public static final Knob<Integer> COMPACTION_MAX_FILES = Knob.ofInt("bellows.compaction.max.files", ENGINE,
      10, 2, 1000, "files", "Most files a minor compaction merges.");
  public static final Knob<Double> COMPACTION_RATIO = Knob.ofDouble("bellows.compaction.ratio", ENGINE,
      1.2, 0.1, 100.0, "A file joins a minor compaction only if it is at most this ratio times the sum of the others chosen.");
  public static final Knob<Integer> FLUSH_THREADS = Knob.ofInt("bellows.flush.threads", ENGINE,
      1, 1, 64, "threads", "Background threads writing memory stores to sorted files.");
  public static final Knob<Integer> COMPACTION_THREADS = Knob.ofInt("bellows.compaction.threads", ENGINE,
      1, 1, 64, "threads", "Background threads running disk compactions.");
  public static final Knob<Integer> IN_MEMORY_COMPACTION_THREADS = Knob.ofInt("bellows.memstore.compaction.threads",
      ENGINE, 1, 1, 64, "threads", "Background threads running in-memory flushes, merges and compactions.");
  public static final Knob<Long> CHUNK_SIZE = Knob.ofLongOrZero("bellows.mslab.chunk.size", ENGINE,
      4 * KIB, 64 * MIB, "bytes", "chosen from the heap",
      "Size of a memory-store chunk (MSLAB, and the chunks of flat segments). 0 chooses it from the JVM: with G1 and"
      + " heap regions of 1 to 8 MiB, max(region, 2 MiB) - 64 bytes, so that a heap chunk is a humongous object filling"
      + " its regions, allocated outside the young generation and never copied by young collections (with 4 MiB"
      + " regions, an 8 GB heap, that measured 13-52% less GC time than 2 MiB chunks, which G1 copies there);"
      + " otherwise 2 MiB - 64 (io.bellows.memstore.chunk.DefaultChunkSize).");
  public static final Knob<Long> CHUNK_POOL_MAX_BYTES = Knob.ofLong("bellows.mslab.pool.max", ENGINE,
      256 * MIB, 0, 1024 * GIB, "bytes", "Most memory kept in the pool of free chunks for reuse; chunks beyond it are freed.");
  public static final Knob<Boolean> CHUNK_POOLED_TAILS = Knob.ofBoolean("bellows.mslab.pool.tails", ENGINE, false,
      "Give the last, partly filled chunk of a flat segment's cells or index a free chunk from the pool when it holds"
      + " one, instead of a new chunk of just the size left. A new heap chunk is a humongous object for G1, and each"
      + " humongous allocation may start a concurrent marking cycle; the price is up to one partly empty chunk per"
      + " segment's cells and index, outside the memory store's footprint as pooled chunks are.");
  public static final Knob<Boolean> CHUNK_OFF_HEAP = Knob.ofBoolean("bellows.mslab.offheap", ENGINE, false,
      "Allocate memory-store chunks (flat segments' cells and indexes; with MSLAB, the active segment's too) in direct"
      + " (off-heap) memory instead of on the Java heap. Off by default: it did not lower GC time; MSLAB did, on the"
      + " heap as much as off it (docs/bench/log/2026-11-27-off-heap-defaults.md). Direct memory must hold"
      + " the memory stores with the L2 cache: an engine whose off-heap memory stores and L2 exceed 0.8 of"
      + " -XX:MaxDirectMemorySize (by default -Xmx) does not open.");

  public static final Knob<Double> BLOCKCACHE_L1_FRACTION = Knob.ofDouble("bellows.blockcache.l1.fraction", ENGINE,
      0.02, 0.0, 0.8, "Share of the JVM's maximum heap the on-heap block cache (L1) may hold; 0 turns it off. Ignored"
      + " when bellows.blockcache.l1.size is set. By default data blocks live off the heap in L2 and L1's small budget"
      + " is the KV cache's (and IN_MEMORY families' blocks'); for the on-heap layout of HBase's LruBlockCache set"
      + " l1.fraction=0.25, l1.admission=ALL and l2.fraction=0, which while writes ran cost 3-5x the GC time"
      + " (docs/bench/log/2026-11-30-off-heap-default.md). Memory stores and L1 together"
      + " may take at most 0.8 of the heap (as in HBase): an engine asked for more does not open.");
  public static final Knob<Long> BLOCKCACHE_L1_SIZE = Knob.ofLong("bellows.blockcache.l1.size", ENGINE,
      0, 0, Long.MAX_VALUE, "bytes", "Heap bytes of the on-heap block cache (L1); 0 means bellows.blockcache.l1.fraction"
      + " of the maximum heap.");
  public static final Knob<L1Admission> BLOCKCACHE_L1_ADMISSION = Knob.ofEnum("bellows.blockcache.l1.admission",
      ENGINE, L1Admission.class, L1Admission.NONE, "Which data blocks read from files the on-heap cache (L1) takes in:"
      + " ALL (every one, as HBase and RocksDB do), READ_AGAIN (a block missed again while the keys of about twice"
      + " as many recent misses as L1 holds blocks still include it, and every block of an IN_MEMORY family) or NONE"
      + " (the default: only IN_MEMORY families' blocks; the others go to the off-heap L2, where gets read them without"
      + " a copy, and L1's budget is the KV cache's; without an L2, NONE takes every block as ALL does)."
      + " READ_AGAIN helps gets spread over far more blocks than L1 holds (uniform keys while writing: 1.34-1.37x ALL's"
      + " gets, GC down a third) and cost Zipf keys 0.57-1.09x ALL's, so it is not the default"
      + " (docs/bench/log/2026-11-28-l1-admission.md).");
  public static final Knob<Long> BLOCKCACHE_L2_SIZE = Knob.ofLong("bellows.blockcache.l2.size", ENGINE,
      0, 0, Long.MAX_VALUE, "bytes", "Direct (off-heap) bytes of the L2 block cache for data blocks, in buckets of"
      + " 1028 KiB allocated as they fill; 0 means bellows.blockcache.l2.fraction of the maximum heap.");
  public static final Knob<Double> BLOCKCACHE_L2_FRACTION = Knob.ofDouble("bellows.blockcache.l2.fraction", ENGINE,
      0.25, 0.0, 16.0, "Size of the off-heap L2 block cache, where data blocks live by default, as a share of the JVM's"
      + " maximum heap; 0, with bellows.blockcache.l2.size 0, means no L2. Ignored when bellows.blockcache.l2.size is"
      + " set. Its buckets of direct memory are allocated as they fill. L2 and the off-heap memory stores"
      + " (bellows.mslab.offheap) together may take at most 0.8 of -XX:MaxDirectMemorySize (by default -Xmx): an"
      + " engine asked for more does not open. Gets read L2's blocks in place, without a heap copy, and its blocks"
      + " cost the collector nothing: while writes ran, GC fell to 1.5-2.1% of the time from 5.4-9.4% with the data"
      + " blocks in the on-heap L1, and gets were 1.02-1.23x its on Zipf keys and 0.95-1.47x on uniform keys (two"
      + " invocations, docs/bench/log/2026-11-30-l2-slot-records.md, docs/bench/log/2026-11-30-off-heap-default.md).");

  public static final Knob<Boolean> BLOCKCACHE_CACHE_ON_WRITE = Knob.ofBoolean("bellows.blockcache.cache.on.write",
      ENGINE, false, "Add the data blocks a flush writes to the block cache (to L2 if there is one) as they are written,"
      + " for families with BLOCKCACHE on; compactions never do.");

  public static final Knob<Long> KVCACHE_INITIAL_SIZE = Knob.ofLong("bellows.kvcache.initial.size", ENGINE,
      10 * MIB, 0, Long.MAX_VALUE, "bytes", "The KV cache's starting size limit, shared with the on-heap block cache"
      + " (L1); 0 turns the KV cache off for every family. It takes L1's memory a step at a time as rows fill it,"
      + " raises the limit by taking L1's least useful blocks while it earns more per byte than L1, up to"
      + " bellows.kvcache.max.fraction of L1, and gives memory back when L1 makes better use of it"
      + " (docs/design/kv-cache.md).");
  public static final Knob<Double> KVCACHE_MAX_FRACTION = Knob.ofDouble("bellows.kvcache.max.fraction", ENGINE,
      0.9, 0.0, 0.9, "Largest share of the on-heap block cache's budget the KV cache may take; the two together never"
      + " exceed that budget. By default L1 holds no data blocks (bellows.blockcache.l1.admission=NONE), so the KV"
      + " cache may take nearly all of it.");
  public static final Knob<KvCachePolicy> KVCACHE_POLICY = Knob.ofEnum("bellows.kvcache.policy", ENGINE,
      KvCachePolicy.class, KvCachePolicy.WEIGHTED, "Which cached rows the KV cache drops when full: WEIGHTED (the"
      + " paper's frequency / (size x age) weight), LRU, or TINYLFU (Caffeine's W-TinyLFU). Compared in"
      + " BENCHMARKS.md.");
  public static final Knob<Integer> KVCACHE_PROMOTE_MIN_ACCESSES = Knob.ofInt("bellows.kvcache.promote.min.accesses",
      ENGINE, 4, 1, 1 << 20, "gets", "A row of a cached data block is promoted to the KV cache once gets have read it"
      + " more than this many times and more than the block's mean + one standard deviation.");
  public static final Knob<Double> KVCACHE_WEIGHT_FREQUENCY_EXPONENT = Knob.ofDouble(
      "bellows.kvcache.weight.frequency.exponent", ENGINE, 1.0, 0.0, 4.0,
      "The WEIGHTED policy's f: how much access frequency counts in a row's weight.");
  public static final Knob<Double> KVCACHE_WEIGHT_SIZE_EXPONENT = Knob.ofDouble("bellows.kvcache.weight.size.exponent",
      ENGINE, 1.0, 0.0, 4.0, "The WEIGHTED policy's d: how much a row's size counts against it.");

  // ---------------------------------------------------------------- table
  public static final Knob<Durability> TABLE_DURABILITY = Knob.ofEnum("DURABILITY", TABLE, Durability.class,
      Durability.USE_DEFAULT, "Durability of this table's mutations unless a mutation says otherwise.");
  public static final Knob<Long> MEMSTORE_FLUSHSIZE = Knob.ofLong("MEMSTORE_FLUSHSIZE", TABLE,
      128 * MIB, 64 * KIB, 64 * GIB, "bytes", "A store flushes its memory store to a sorted file when the memory store's footprint reaches this size.");
  public static final Knob<FlushPolicy> FLUSH_POLICY = Knob.ofEnum("FLUSH_POLICY", TABLE, FlushPolicy.class,
      FlushPolicy.STORES, "When a store of a region reaches the flush size: STORES flushes the stores at or over it only"
      + " (small families keep their data in memory), REGION flushes every store of the region with data (HBase's"
      + " flush-all; small families write small files). Measured in BENCHMARKS.md.");
  public static final Knob<Long> MAX_FILESIZE = Knob.ofLong("MAX_FILESIZE", TABLE,
      10 * GIB, 64 * KIB, Long.MAX_VALUE, "bytes", "A region splits in two, in the background after a flush or compaction, when the sorted files of its largest store reach this size (HBase's ConstantSizeRegionSplitPolicy); it splits at its middle key.");

  // ---------------------------------------------------------------- family
  public static final Knob<Integer> VERSIONS = Knob.ofInt("VERSIONS", FAMILY, 1, 1, Integer.MAX_VALUE, "versions",
      "Most versions of a column kept and returned.");
  public static final Knob<Integer> MIN_VERSIONS = Knob.ofInt("MIN_VERSIONS", FAMILY, 0, 0, Integer.MAX_VALUE,
      "versions", "Versions of a column kept even after they expire by TTL.");
  public static final Knob<Long> TTL = Knob.ofLong("TTL", FAMILY, Long.MAX_VALUE, 1, Long.MAX_VALUE, "seconds",
      "Cells older than this (by timestamp) expire; the default means forever.");
  public static final Knob<Durability> FAMILY_DURABILITY = Knob.ofEnum("FAMILY_DURABILITY", FAMILY, Durability.class,
      Durability.USE_DEFAULT, "Durability of mutations touching this family that ask for none (the strongest of the touched"
      + " families applies; a family without its own counts as the table's DURABILITY).");
  public static final Knob<Integer> BLOCKSIZE = Knob.ofInt("BLOCKSIZE", FAMILY, 64 * 1024, 1024, 16 * 1024 * 1024,
      "bytes", "The largest data block of a sorted file (before compression): by default blocks are dynamic"
      + " (MAX_ENTRIES_PER_BLOCK) and hold between MIN_BLOCKSIZE and BLOCKSIZE plus one cell. A family that sets"
      + " BLOCKSIZE and not MAX_ENTRIES_PER_BLOCK gets static blocks of this size, as in HBase (the HBase adapter"
      + " always sets it).");
  public static final Knob<Compression> COMPRESSION = Knob.ofEnum("COMPRESSION", FAMILY, Compression.class,
      Compression.LZ4, "Compression of sorted-file data blocks. LZ4 by default: in the 8M-row write suite, on values"
      + " of random bytes, it wrote 21% fewer flush bytes and 16-40% fewer flush and compaction bytes than NONE, at"
      + " NONE's throughput on Zipf keys and 4-10% under it on uniform keys; ZSTD wrote half of NONE's bytes at 9-14%"
      + " less throughput (see BENCHMARKS.md).");
  public static final Knob<CompactionCompression> COMPRESSION_COMPACT = Knob.ofEnum("COMPRESSION_COMPACT", FAMILY,
      CompactionCompression.class, CompactionCompression.SAME, "Compression of sorted files written by compactions"
      + " (HBase's attribute of the same name); SAME: the family's COMPRESSION. Flushes always use COMPRESSION. Measured"
      + " with ZSTD in the 8M-row write suite: 25-41% fewer flush and compaction bytes, throughput -5% to +4%, but"
      + " fewer compactions finished and 19-28 files were left against 8-19 (BENCHMARKS.md).");
  public static final Knob<CompactionCompression> COMPRESSION_COMPACT_MINOR = Knob.ofEnum("COMPRESSION_COMPACT_MINOR",
      FAMILY, CompactionCompression.class, CompactionCompression.SAME, "Compression of sorted files written by minor"
      + " compactions; SAME: COMPRESSION_COMPACT.");
  public static final Knob<CompactionCompression> COMPRESSION_COMPACT_MAJOR = Knob.ofEnum("COMPRESSION_COMPACT_MAJOR",
      FAMILY, CompactionCompression.class, CompactionCompression.SAME, "Compression of sorted files written by major"
      + " compactions, which put a store's data in one file (ZSTD for the oldest data is a common choice);"
      + " SAME: COMPRESSION_COMPACT.");
  public static final Knob<BloomType> BLOOMFILTER = Knob.ofEnum("BLOOMFILTER", FAMILY, BloomType.class, BloomType.ROW,
      "Bloom filter of sorted files: by row, by row and column, or none.");
  public static final Knob<Double> BLOOMFILTER_ERROR_RATE = Knob.ofDouble("BLOOMFILTER_ERROR_RATE", FAMILY, 0.01,
      0.0001, 0.5, "Target false-positive rate of the Bloom filter. Its one-cache-line layout is sized until its"
          + " expected rate meets it: 10.2 bits per distinct key at 0.01, 16.2 at 0.001 (docs/FORMAT.md).");
  public static final Knob<MemStorePolicy> IN_MEMORY_COMPACTION = Knob.ofEnum("IN_MEMORY_COMPACTION", FAMILY,
      MemStorePolicy.class, MemStorePolicy.ADAPTIVE,
      "Memory store: NONE (classic skiplist of cell objects) or the Accordion policies BASIC, EAGER, ADAPTIVE (the"
      + " default: in the write suite at 8M rows 1.66-1.79x the throughput of NONE at the same 64 MiB flush size on"
      + " Zipf keys and 1.34-1.50x on uniform keys, with less than half the disk flushes on Zipf keys; see"
      + " BENCHMARKS.md).");
  public static final Knob<Double> IN_MEMORY_FLUSH_FRACTION = Knob.ofDouble("IN_MEMORY_FLUSH_FRACTION", FAMILY,
      0.02, 0.001, 0.9, "Accordion's A: the active segment is flushed in memory when it reaches this fraction of the flush size (the paper's best without MSLAB; with MSLAB each segment holds at least one chunk, so prefer A × flush size >= the chunk size)."
          + " A table read hard while it is written, on few cores, may prefer 0.05: fewer in-memory merges leave its"
          + " readers more CPU (gets while writing at a median 1.08x RocksDB's, against 0.77x at 0.02), for 3-13%"
          + " fewer rows written per second and up to a third more bytes flushed (BENCHMARKS.md).");
  public static final Knob<Integer> PIPELINE_MAX_SEGMENTS = Knob.ofInt("PIPELINE_MAX_SEGMENTS", FAMILY, 4, 1, 64,
      "segments", "Accordion's S: most immutable segments in the pipeline before they are merged or compacted (the paper: 2 favours reads, 5 writes; per-segment row filters make extra segments cheap for gets).");
  public static final Knob<Double> ADAPTIVE_THRESHOLD = Knob.ofDouble("ADAPTIVE_THRESHOLD", FAMILY, 0.05, 0.0, 1.0,
      "Accordion's R: ADAPTIVE compacts (rather than merges) when the estimated redundancy 1-u exceeds it. The"
      + " paper studied 0.2, 0.35 and 0.5; 0.05 was chosen from YCSB A, where compacting more pairs drops versions"
      + " of hot rows that gets would skip (read p99 0.3 ms against 1-4 ms at 0.2); on the write suite R makes no"
      + " difference beyond the run-to-run spread (BENCHMARKS.md).");
  public static final Knob<SegmentIndexType> SEGMENT_INDEX = Knob.ofEnum("SEGMENT_INDEX", FAMILY,
      SegmentIndexType.class, SegmentIndexType.CHUNK, "Index of immutable memory segments: CHUNK (the default: cells"
      + " serialized into chunks in key order when the active segment is flattened, 20 bytes of index per cell and no"
      + " object per cell: 28% fewer disk flushes and a tenth of the GC time of ARRAY, measured) or ARRAY (cell objects"
      + " in an array, the writers' own; the flatten copies nothing).");
  public static final Knob<ActiveIndexType> ACTIVE_INDEX = Knob.ofEnum("ACTIVE_INDEX", FAMILY, ActiveIndexType.class,
      ActiveIndexType.OBJECT_SKIPLIST, "Index of the active memory segment: OBJECT_SKIPLIST or CHUNK_SKIPLIST (in chunk memory).");
  public static final Knob<Boolean> MSLAB = Knob.ofBoolean("MSLAB", FAMILY, false,
      "Copy cell data into memory-store chunks (MSLAB) instead of keeping the writer's arrays.");
  public static final Knob<Boolean> BLOCKCACHE = Knob.ofBoolean("BLOCKCACHE", FAMILY, true,
      "Keep this family's data blocks in the engine's block cache when they are read (index and Bloom filters are"
      + " held by each open file whatever this says).");
  public static final Knob<Boolean> IN_MEMORY = Knob.ofBoolean("IN_MEMORY", FAMILY, false,
      "Give this family's cached blocks the in-memory area of the on-heap cache (a quarter of it), where single"
      + " reads of other families cannot push them out.");
  public static final Knob<Integer> MIN_BLOCKSIZE = Knob.ofInt("MIN_BLOCKSIZE", FAMILY, 4 * 1024, 64, 16 * 1024 * 1024,
      "bytes", "With MAX_ENTRIES_PER_BLOCK set, a data block closes once it is past this size and holds more than"
      + " MAX_ENTRIES_PER_BLOCK cells (the SAC 2024 paper's dynamic block size); BLOCKSIZE stays the maximum.");
  public static final Knob<Integer> MAX_ENTRIES_PER_BLOCK = Knob.ofInt("MAX_ENTRIES_PER_BLOCK", FAMILY, 32, 0,
      1 << 24, "cells", "The SAC 2024 paper's MaxNumData: a data block past MIN_BLOCKSIZE closes once it holds more"
      + " cells than this, so small cells go to small blocks and large ones to large blocks; 0 sizes blocks by"
      + " BLOCKSIZE alone. 32 (the paper's choice) unless the family sets BLOCKSIZE alone: 0 then. Against static"
      + " 64 KiB blocks, the default before 2026-11-29: the read suite ran about twice as fast, gets while writing"
      + " 1.5-1.7x as many on uniform keys (0.87-1.10x RocksDB's) with 40% less GC, and as many on Zipf keys"
      + " (docs/bench/log/2026-11-29-dynamic-blocks-default.md). Small blocks cost memory: an open file holds its"
      + " index, about a key and 24 bytes a block (1-2% of the data at 4 KiB blocks of small cells, 16 times what"
      + " 64 KiB blocks cost).");
  public static final Knob<Boolean> KVCACHE = Knob.ofBoolean("KVCACHE", FAMILY, true,
      "Let gets promote this family's hot rows from cached data blocks to the engine's KV cache (needs BLOCKCACHE"
      + " on and bellows.kvcache.initial.size above 0).");
  public static final Knob<Boolean> SEGMENT_ROW_FILTER = Knob.ofBoolean("SEGMENT_ROW_FILTER", FAMILY, true,
      "Build a row Bloom filter and a table of where each row starts (about 1.2 + 6 bytes per row) for each immutable"
      + " memory segment, and keep a row filter in an Accordion store's active segment (sized from the in-memory flush"
      + " threshold, at most 1 MiB), so gets skip segments without the row and find it without a binary search.");

  /** Every knob, in documentation order. */
  public static final List<Knob<?>> ALL = List.of(
      DEFAULT_DURABILITY, WAL_ROLL_SIZE, WAL_ASYNC_SYNC_PERIOD_MS, WAL_MAX_FILES, MAX_VALUE_SIZE, MEMSTORE_BLOCK_MULTIPLIER,
      MEMSTORE_GLOBAL_FRACTION, MEMSTORE_GLOBAL_SIZE, MEMSTORE_GLOBAL_LOWER_FRACTION, WRITE_DELAYED_RATE,
      BLOCKING_STORE_FILES, BLOCKING_WAIT_MS, FLUSH_FAILURES_STOP_WRITES, CORRUPTION_QUARANTINE, COMPACTION_MIN_FILES, COMPACTION_MAX_FILES, COMPACTION_RATIO,
      FLUSH_THREADS, COMPACTION_THREADS, IN_MEMORY_COMPACTION_THREADS, CHUNK_SIZE, CHUNK_POOL_MAX_BYTES, CHUNK_POOLED_TAILS,
      CHUNK_OFF_HEAP, BLOCKCACHE_L1_FRACTION, BLOCKCACHE_L1_SIZE, BLOCKCACHE_L1_ADMISSION, BLOCKCACHE_L2_SIZE, BLOCKCACHE_L2_FRACTION,
      BLOCKCACHE_CACHE_ON_WRITE,
      KVCACHE_INITIAL_SIZE, KVCACHE_MAX_FRACTION, KVCACHE_POLICY, KVCACHE_PROMOTE_MIN_ACCESSES,
      KVCACHE_WEIGHT_FREQUENCY_EXPONENT, KVCACHE_WEIGHT_SIZE_EXPONENT,
      TABLE_DURABILITY, MEMSTORE_FLUSHSIZE, FLUSH_POLICY, MAX_FILESIZE,
      VERSIONS, MIN_VERSIONS, TTL, FAMILY_DURABILITY, BLOCKSIZE, MIN_BLOCKSIZE, MAX_ENTRIES_PER_BLOCK, COMPRESSION,
      COMPRESSION_COMPACT, COMPRESSION_COMPACT_MINOR, COMPRESSION_COMPACT_MAJOR, BLOOMFILTER, BLOOMFILTER_ERROR_RATE,
      IN_MEMORY_COMPACTION, IN_MEMORY_FLUSH_FRACTION, PIPELINE_MAX_SEGMENTS, ADAPTIVE_THRESHOLD, SEGMENT_INDEX,
      ACTIVE_INDEX, MSLAB, SEGMENT_ROW_FILTER, BLOCKCACHE, IN_MEMORY, KVCACHE);

  /** Finds a knob of a scope by name (case-insensitive); null if there is none. */
  public static Knob<?> find(Knob.Scope scope, String name) {
    for (Knob<?> k : ALL) {
      if (k.scope() == scope && k.name().equalsIgnoreCase(name)) {
        return k;
      }
    }
    return null;
  }
}
