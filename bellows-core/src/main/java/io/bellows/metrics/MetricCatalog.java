package io.bellows.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Every metric the engine reports (in {@code Engine.metrics()} and per store in {@code
 * storeMetrics}): its kind, its unit and what it means, in one place. Exporters use it to type
 * metrics (a Prometheus counter ends in {@code _total}, a time is in seconds); {@code MetricTable}
 * renders it as docs/METRICS.md; a test fails when the engine reports a metric missing here.
 *
 * <p>A name may hold a placeholder matching one dotted part: {@code {level}} (l1, l2), {@code
 * {block}} (data, index, bloom), {@code {area}} (single, multi, memory), {@code {segment}} (array,
 * chunk, chunk_skiplist, skiplist), {@code {cause}} (why writes waited).
 */
public final class MetricCatalog {
  /** How a metric's value behaves. */
  public enum Kind {
    /** Only grows (from 0 at open). */
    COUNTER,
    /** Goes up and down: a current amount or state. */
    GAUGE,
    /** An identity or position, not a measure (not exported as a time series). */
    INFO
  }

  /** What a value counts; times are reported by the engine in nanoseconds or milliseconds. */
  public enum Unit {
    NONE(""), BYTES("bytes"), NANOSECONDS("seconds"), MILLISECONDS("seconds"), RATIO("ratio");

    /** The base unit's name as Prometheus spells it in a metric name. */
    public final String baseName;

    Unit(String baseName) {
      this.baseName = baseName;
    }

    /** The engine's value in the base unit (seconds for times). */
    public double toBase(double value) {
      return switch (this) {
        case NANOSECONDS -> value / 1e9;
        case MILLISECONDS -> value / 1e3;
        default -> value;
      };
    }
  }

  /** One metric, or a family of them when the name has placeholders. */
  public record Entry(String name, Kind kind, Unit unit, String meaning, Pattern pattern) {
    public boolean matches(String metric) {
      return pattern.matcher(metric).matches();
    }
  }

  private static final List<Entry> ALL = new ArrayList<>();

  static {
    // Engine and background work.
    add("engine.instance.id", Kind.INFO, Unit.NONE, "Random id of this engine instance (changes at each open).");
    add("tables", Kind.GAUGE, Unit.NONE, "Tables in the catalog.");
    add("regions.open", Kind.GAUGE, Unit.NONE, "Regions open.");
    add("regions.split", Kind.COUNTER, Unit.NONE, "Regions split since open.");
    add("file.number.next", Kind.INFO, Unit.NONE, "The next engine-wide file number.");
    add("background.error.state", Kind.GAUGE, Unit.NONE,
        "Background-error state: 0 none, 1 work failing and retried or a store refusing writes for a damaged file, 2 all writes stopped.");
    add("background.work.failing", Kind.GAUGE, Unit.NONE, "Background jobs (flushes, compactions) now failing and retried.");
    add("corruption.files.found", Kind.COUNTER, Unit.NONE,
        "Damaged sorted files met by background compactions (each a CORRUPTION background error, never retried).");
    add("corruption.files.quarantined", Kind.COUNTER, Unit.NONE,
        "Damaged sorted files set aside online in damaged/ (bellows.corruption.quarantine).");
    add("corruption.stores.damaged", Kind.GAUGE, Unit.NONE,
        "Stores refusing writes because a compaction met a damaged file of theirs (until bellows repair --fix).");
    add("event.listener.failures", Kind.COUNTER, Unit.NONE, "Exceptions thrown by event listeners (logged, ignored).");
    add("jvm.gc.count", Kind.COUNTER, Unit.NONE, "Garbage collections of this JVM.");
    add("jvm.gc.time.ms", Kind.COUNTER, Unit.MILLISECONDS, "Time this JVM spent in garbage collection.");
    add("jvm.heap.used", Kind.GAUGE, Unit.BYTES, "Heap in use.");

    // Writes: WAL, back pressure.
    add("wal.bytes.appended", Kind.COUNTER, Unit.BYTES, "Bytes appended to the WAL.");
    add("wal.records.appended", Kind.COUNTER, Unit.NONE, "Records appended to the WAL (a record holds one batch).");
    add("wal.syncs", Kind.COUNTER, Unit.NONE, "WAL writes to the OS that made records durable to SYNC_WAL (group commits).");
    add("wal.forces", Kind.COUNTER, Unit.NONE, "fsyncs of WAL files (FSYNC_WAL group commits and closes).");
    add("wal.files", Kind.GAUGE, Unit.NONE, "WAL files kept (the live one and those holding unflushed edits).");
    add("wal.files.rolled", Kind.COUNTER, Unit.NONE, "WAL files rolled (closed, a new one started).");
    add("wal.files.deleted", Kind.COUNTER, Unit.NONE, "WAL files deleted once every edit in them was flushed.");
    add("wal.files.fenced", Kind.COUNTER, Unit.NONE, "WAL files whose write or force failed: each was fenced (never written again) and what it had not forced was rewritten to a new file (the log heals itself; see docs/design/wal.md).");
    add("wal.edits.replayed", Kind.COUNTER, Unit.NONE, "WAL edits replayed into memory stores at open.");
    add("wal.edits.skipped", Kind.COUNTER, Unit.NONE, "WAL edits skipped at open because sorted files already held them.");
    add("writes.refused", Kind.COUNTER, Unit.NONE, "Writes refused because writes were stopped by a background error.");
    add("writes.blocked.count", Kind.COUNTER, Unit.NONE, "Writes that had to wait for memory or files.");
    add("writes.blocked.now", Kind.GAUGE, Unit.NONE, "Writers waiting now for memory or files (stalled).");
    add("writes.delayed.now", Kind.GAUGE, Unit.NONE, "Writers being paced now (delayed a little before a stall).");
    add("writes.blocked.nanos", Kind.COUNTER, Unit.NANOSECONDS, "Time writes waited, all causes.");
    add("writes.blocked.nanos.{cause}", Kind.COUNTER, Unit.NANOSECONDS,
        "Time writes waited, by cause: global.memory.full, memstore.full, too.many.files.");
    add("writes.delayed.count.{cause}", Kind.COUNTER, Unit.NONE,
        "Writes paced (delayed a little) before a stall, by cause: global.memory, store.memory, store.files.");
    add("writes.delayed.nanos.{cause}", Kind.COUNTER, Unit.NANOSECONDS, "Time writes were paced, by cause.");
    add("flush.requested.by.wal.size", Kind.COUNTER, Unit.NONE, "Flushes asked for because the WAL grew past its limit.");
    add("flush.forced.global.memory", Kind.COUNTER, Unit.NONE, "Flushes forced because all memory stores together were full.");

    // Memory stores, engine-wide.
    add("memstore.global.limit.bytes", Kind.GAUGE, Unit.BYTES, "Bytes all memory stores together may hold.");
    add("memstore.global.used.bytes", Kind.GAUGE, Unit.BYTES, "Bytes all memory stores together hold.");
    add("chunks.in.use", Kind.GAUGE, Unit.NONE, "Memory-store chunks in use (engine-wide pool).");
    add("chunks.pooled", Kind.GAUGE, Unit.NONE, "Free chunks kept in the pool for reuse.");
    add("chunks.created", Kind.COUNTER, Unit.NONE, "Chunks allocated.");
    add("chunks.bytes.in.use", Kind.GAUGE, Unit.BYTES, "Bytes of chunks in use.");
    add("chunks.offheap.bytes.in.use", Kind.GAUGE, Unit.BYTES, "Bytes of off-heap chunks in use.");
    add("chunks.bytes.pooled", Kind.GAUGE, Unit.BYTES, "Bytes of free pooled chunks.");
    add("chunks.jumbo.in.use", Kind.GAUGE, Unit.NONE, "Jumbo chunks (one oversized cell each) in use.");
    add("chunks.jumbo.created", Kind.COUNTER, Unit.NONE, "Jumbo chunks allocated.");

    // Memory store, per store (the engine's map has their sums over stores).
    add("memstore.data.bytes", Kind.GAUGE, Unit.BYTES, "Bytes of cell data in memory (active, pipeline, snapshot).");
    add("memstore.overhead.bytes", Kind.GAUGE, Unit.BYTES, "Bytes of index and object overhead in memory.");
    add("memstore.offheap.bytes", Kind.GAUGE, Unit.BYTES, "Bytes of the memory store held off heap.");
    add("memstore.cells", Kind.GAUGE, Unit.NONE, "Cells in memory.");
    add("memstore.active.bytes", Kind.GAUGE, Unit.BYTES, "Footprint of the active (mutable) segment.");
    add("memstore.pipeline.bytes", Kind.GAUGE, Unit.BYTES, "Footprint of the pipeline's immutable segments.");
    add("memstore.pipeline.segments", Kind.GAUGE, Unit.NONE, "Immutable segments in the pipeline.");
    add("memstore.pipeline.version", Kind.INFO, Unit.NONE, "Version of the pipeline (changes at each in-memory flush or merge).");
    add("memstore.snapshot.bytes", Kind.GAUGE, Unit.BYTES, "Footprint of the snapshot being flushed to disk.");
    add("memstore.footprint.{segment}", Kind.GAUGE, Unit.BYTES, "Footprint of segments by index form.");
    add("memstore.in.memory.flushes", Kind.COUNTER, Unit.NONE, "In-memory flushes (active segment into the pipeline).");
    add("memstore.flattens", Kind.COUNTER, Unit.NONE, "Segments flattened (skiplist to array or chunk index).");
    add("memstore.merges", Kind.COUNTER, Unit.NONE, "In-memory merges (indexes merged, no data dropped).");
    add("memstore.compactions", Kind.COUNTER, Unit.NONE, "In-memory compactions (redundant versions dropped).");
    add("memstore.compactions.aborted", Kind.COUNTER, Unit.NONE, "In-memory compactions abandoned (a flush came first).");
    add("memstore.cells.eliminated", Kind.COUNTER, Unit.NONE, "Cells dropped by in-memory compactions.");
    add("memstore.bytes.eliminated", Kind.COUNTER, Unit.BYTES, "Bytes dropped by in-memory compactions.");
    add("memstore.bytes.relocated", Kind.COUNTER, Unit.BYTES, "Bytes copied into new chunks by in-memory compactions.");
    add("memstore.snapshots", Kind.COUNTER, Unit.NONE, "Snapshots taken for disk flushes.");
    add("memstore.mslab", Kind.GAUGE, Unit.NONE, "1 when cell data is copied into chunks (MSLAB), else 0.");
    add("memstore.adaptive.throttle", Kind.GAUGE, Unit.RATIO, "ADAPTIVE: share of in-memory flushes now followed by a merge or compaction.");
    add("memstore.adaptive.uniqueness", Kind.GAUGE, Unit.RATIO, "ADAPTIVE: estimated share of unique keys in the pipeline.");
    add("memstore.chunks.in.use", Kind.GAUGE, Unit.NONE, "Chunks in use (the engine-wide pool, seen from the store).");
    add("memstore.chunks.pooled", Kind.GAUGE, Unit.NONE, "Free pooled chunks (engine-wide pool).");
    add("memstore.chunks.created", Kind.COUNTER, Unit.NONE, "Chunks allocated (engine-wide pool).");
    add("memstore.chunks.bytes.in.use", Kind.GAUGE, Unit.BYTES, "Bytes of chunks in use (engine-wide pool).");
    add("memstore.chunks.offheap.bytes.in.use", Kind.GAUGE, Unit.BYTES, "Bytes of off-heap chunks in use (engine-wide pool).");
    add("memstore.chunks.bytes.pooled", Kind.GAUGE, Unit.BYTES, "Bytes of free pooled chunks (engine-wide pool).");
    add("memstore.chunks.jumbo.in.use", Kind.GAUGE, Unit.NONE, "Jumbo chunks in use (engine-wide pool).");

    // Flushes, compactions, sorted files.
    add("flush.count", Kind.COUNTER, Unit.NONE, "Flushes of memory stores to sorted files.");
    add("flush.cells", Kind.COUNTER, Unit.NONE, "Cells written by flushes.");
    add("flush.bytes.written", Kind.COUNTER, Unit.BYTES, "Bytes of sorted files written by flushes.");
    add("flush.failures", Kind.COUNTER, Unit.NONE, "Flush attempts that failed (each is retried).");
    add("compaction.count", Kind.COUNTER, Unit.NONE, "Compactions of sorted files (minor and major).");
    add("compaction.major.count", Kind.COUNTER, Unit.NONE, "Major compactions.");
    add("compaction.bytes.read", Kind.COUNTER, Unit.BYTES, "Bytes of sorted files read by compactions.");
    add("compaction.bytes.written", Kind.COUNTER, Unit.BYTES, "Bytes of sorted files written by compactions.");
    add("compaction.cells.dropped", Kind.COUNTER, Unit.NONE, "Cells dropped by compactions (old versions, deleted, expired).");
    add("compaction.failures", Kind.COUNTER, Unit.NONE, "Compaction attempts that failed (each is retried).");
    add("flush.running", Kind.GAUGE, Unit.NONE, "Flushes in progress (per store 0 or 1; engine-wide, the sum).");
    add("compaction.running", Kind.GAUGE, Unit.NONE, "Compactions in progress (per store 0 or 1; engine-wide, the sum).");
    add("store.files", Kind.GAUGE, Unit.NONE, "Live sorted files.");
    add("store.files.bytes", Kind.GAUGE, Unit.BYTES, "Bytes of live sorted files.");
    add("store.files.blocks.read", Kind.COUNTER, Unit.NONE, "Blocks read from sorted files (cache misses and uncached reads).");
    add("store.files.bytes.read", Kind.COUNTER, Unit.BYTES, "Bytes read from sorted files.");
    add("store.files.pages.read", Kind.COUNTER, Unit.NONE, "4 KiB pages of sorted files that reads touched (each read counts the pages it spans): the numerator of read amplification.");
    add("read.gets", Kind.COUNTER, Unit.NONE, "Rows asked for by gets (a multi-get counts each row).");
    add("read.returned.bytes", Kind.COUNTER, Unit.BYTES, "Bytes of the cells gets returned: read amplification is store.files.bytes.read over this.");
    add("read.returned.pages", Kind.COUNTER, Unit.NONE, "4 KiB pages of the rows gets returned, each row rounded up (the SAC 2024 paper's denominator of read amplification).");
    add("read.file.lookups", Kind.COUNTER, Unit.NONE, "Sorted files a get read a row from, after key ranges and Bloom filters ruled the others out.");
    add("read.file.lookups.cached", Kind.COUNTER, Unit.NONE, "Of those, reads answered by the KV cache or the block cache without reading the file.");
    add("read.segment.lookups", Kind.COUNTER, Unit.NONE, "Memory segments a get searched for its row, after key, time and row filters ruled the others out.");
    add("read.older.sources.skipped", Kind.COUNTER, Unit.NONE, "Memory segments and files a get of named columns left unread: it had found their newest versions in sources with newer timestamps.");

    // Block caches.
    add("cache.{level}.hits", Kind.COUNTER, Unit.NONE, "Block cache lookups that found the block.");
    add("cache.{level}.misses", Kind.COUNTER, Unit.NONE, "Block cache lookups that did not.");
    add("cache.{level}.evictions", Kind.COUNTER, Unit.NONE, "Blocks evicted to make room.");
    add("cache.{level}.hit.ratio", Kind.GAUGE, Unit.RATIO, "Hits over lookups since open.");
    add("cache.{level}.{block}.hits", Kind.COUNTER, Unit.NONE, "Lookups that found a block of this kind.");
    add("cache.{level}.{block}.misses", Kind.COUNTER, Unit.NONE, "Lookups that missed a block of this kind.");
    add("cache.{level}.{block}.evictions", Kind.COUNTER, Unit.NONE, "Blocks of this kind evicted.");
    add("cache.{level}.{block}.hit.ratio", Kind.GAUGE, Unit.RATIO, "Hits over lookups of this block kind.");
    add("cache.{level}.{block}.bytes", Kind.GAUGE, Unit.BYTES, "Bytes of cached blocks of this kind.");
    add("cache.{level}.bytes", Kind.GAUGE, Unit.BYTES, "Bytes of cached blocks.");
    add("cache.{level}.max.bytes", Kind.GAUGE, Unit.BYTES, "Capacity of the cache.");
    add("cache.{level}.blocks", Kind.GAUGE, Unit.NONE, "Blocks cached.");
    add("cache.l1.{area}.bytes", Kind.GAUGE, Unit.BYTES, "Bytes in an area of the L1 cache: single (read once), multi (read again), memory (IN_MEMORY families).");
    add("cache.l1.not.admitted", Kind.COUNTER, Unit.NONE, "Data blocks read from files that L1 did not take in"
        + " (bellows.blockcache.l1.admission=READ_AGAIN: not missed again while remembered; under NONE, the"
        + " default, data blocks go to L2 and are not counted here).");
    add("cache.l2.slot.bytes", Kind.GAUGE, Unit.BYTES, "Bytes of L2 bucket slots in use (blocks round up to a slot size).");
    add("cache.l2.direct.bytes", Kind.GAUGE, Unit.BYTES, "Off-heap memory the L2 cache has allocated.");
    add("cache.l2.puts.skipped", Kind.COUNTER, Unit.NONE, "Blocks L2 did not take because another thread was putting"
        + " or evicting: a put never waits for L2's lock.");
    add("cache.l2.buckets.free", Kind.GAUGE, Unit.NONE, "L2 buckets not yet given to a slot size.");
    add("kvcache.hits", Kind.COUNTER, Unit.NONE, "KV cache lookups (one per file a get reads) that found the row.");
    add("kvcache.misses", Kind.COUNTER, Unit.NONE, "KV cache lookups that did not.");
    add("kvcache.hit.ratio", Kind.GAUGE, Unit.RATIO, "KV cache hits over lookups since open.");
    add("kvcache.promotions", Kind.COUNTER, Unit.NONE, "Rows promoted from cached data blocks to the KV cache.");
    add("kvcache.evictions", Kind.COUNTER, Unit.NONE, "Rows the KV cache's replacement policy dropped.");
    add("kvcache.bytes", Kind.GAUGE, Unit.BYTES, "Heap bytes of the rows held (cells plus per-entry overheads).");
    add("kvcache.max.bytes", Kind.GAUGE, Unit.BYTES, "The KV cache's current size limit within L1's budget.");
    add("kvcache.reserved.bytes", Kind.GAUGE, Unit.BYTES,
        "L1 budget the KV cache holds now: taken a step at a time as rows fill it, up to its limit.");
    add("kvcache.entries", Kind.GAUGE, Unit.NONE, "Rows held.");
    add("kvcache.grows", Kind.COUNTER, Unit.NONE, "Times the KV cache raised its size limit by a step.");
    add("kvcache.shrinks", Kind.COUNTER, Unit.NONE, "Times it lowered its limit by a step (giving L1 back what it held above it).");
  }

  private MetricCatalog() {}

  private static void add(String name, Kind kind, Unit unit, String meaning) {
    String regex = Pattern.quote(name)
        .replace("{level}", "\\E(l1|l2)\\Q")
        .replace("{block}", "\\E(data|index|bloom)\\Q")
        .replace("{area}", "\\E(single|multi|memory)\\Q")
        .replace("{segment}", "\\E(array|chunk|chunk_skiplist|skiplist)\\Q")
        .replace("{cause}", "\\E([a-z]+(?:\\.[a-z]+)*)\\Q");
    ALL.add(new Entry(name, kind, unit, meaning, Pattern.compile(regex)));
  }

  /** Every entry, in documentation order. */
  public static List<Entry> entries() {
    return Collections.unmodifiableList(ALL);
  }

  /**
   * The metric's name in Prometheus's conventions, without the exporter's prefix: underscores, the
   * unit's base name last ({@code _bytes}, {@code _seconds}, {@code _ratio}), and {@code _total} for
   * a counter — {@code wal.bytes.appended} is {@code wal_appended_bytes_total}, {@code
   * writes.blocked.nanos} is {@code writes_blocked_seconds_total}.
   */
  public static String exportName(String metric, Entry e) {
    List<String> parts = new ArrayList<>();
    for (String p : metric.split("\\.")) {
      boolean unitWord = (e.unit() == Unit.BYTES && p.equals("bytes"))
          || (e.unit() == Unit.NANOSECONDS && p.equals("nanos"))
          || (e.unit() == Unit.MILLISECONDS && p.equals("ms"))
          || (e.kind() == Kind.COUNTER && p.equals("count"));
      if (!unitWord) {
        parts.add(p.replaceAll("[^a-z0-9_{}]", "_"));
      }
    }
    String name = String.join("_", parts);
    if (!e.unit().baseName.isEmpty() && !name.endsWith("_" + e.unit().baseName)) {
      name += "_" + e.unit().baseName;
    }
    return e.kind() == Kind.COUNTER ? name + "_total" : name;
  }

  /** The entry of a reported metric: the first that matches. */
  public static Optional<Entry> find(String metric) {
    for (Entry e : ALL) {
      if (e.matches(metric)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }
}
