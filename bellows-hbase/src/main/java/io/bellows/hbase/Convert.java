package io.bellows.hbase;

import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.BloomType;
import io.bellows.config.CompactionCompression;
import io.bellows.config.Compression;
import io.bellows.config.Durability;
import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import io.bellows.engine.RowMutation;
import io.bellows.filter.ByteComparator;
import io.bellows.filter.ColumnPrefixFilter;
import io.bellows.filter.ColumnRangeFilter;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.FamilyFilter;
import io.bellows.filter.Filter;
import io.bellows.filter.FilterList;
import io.bellows.filter.FirstKeyOnlyFilter;
import io.bellows.filter.KeyOnlyFilter;
import io.bellows.filter.MultipleColumnPrefixFilter;
import io.bellows.filter.PageFilter;
import io.bellows.filter.PrefixFilter;
import io.bellows.filter.QualifierFilter;
import io.bellows.filter.RowFilter;
import io.bellows.filter.SingleColumnValueFilter;
import io.bellows.filter.TimestampsFilter;
import io.bellows.filter.ValueFilter;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.CompareFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.io.compress.Compression.Algorithm;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.KeepDeletedCells;

/**
 * HBase's client objects to Bellows' and back: mutations to {@link RowMutation}s, gets and scans
 * to {@link ScanQuery}s (with filters), cells to HBase {@link KeyValue}s in a {@link Result}, and
 * table descriptors both ways. What has no Bellows meaning throws {@link
 * UnsupportedOperationException} saying what.
 */
final class Convert {
  private Convert() {}

  // ------------------------------------------------------------------ mutations

  static RowMutation mutation(Mutation m) {
    if (m instanceof Put p) {
      return new RowMutation(p.getRow(), cells(p), -1, durability(p.getDurability()));
    }
    if (m instanceof Delete d) {
      if (d.getFamilyCellMap().isEmpty()) {
        return new RowMutation(d.getRow(), List.of(), d.getTimestamp(), durability(d.getDurability()));
      }
      return new RowMutation(d.getRow(), cells(d), -1, durability(d.getDurability()));
    }
    throw new UnsupportedOperationException(m.getClass().getSimpleName() + " cannot be applied as a plain mutation");
  }

  /** Each cell copied once, from the HBase cell's arrays straight into the engine's layout. */
  private static List<io.bellows.cell.Cell> cells(Mutation m) {
    List<io.bellows.cell.Cell> out = new ArrayList<>();
    for (Map.Entry<byte[], List<Cell>> e : m.getFamilyCellMap().entrySet()) {
      byte[] family = e.getKey(); // a mutation files its cells under their family
      for (Cell c : e.getValue()) {
        out.add(Cells.create(c.getRowArray(), c.getRowOffset(), c.getRowLength(), family, c.getQualifierArray(),
            c.getQualifierOffset(), c.getQualifierLength(), c.getTimestamp(), type(c), c.getValueArray(), c.getValueOffset(),
            c.getValueLength()));
      }
    }
    return out;
  }

  private static CellType type(Cell c) {
    switch (c.getType()) {
      case Put: return CellType.PUT;
      case Delete: return CellType.DELETE;
      case DeleteColumn: return CellType.DELETE_COLUMN;
      case DeleteFamily: return CellType.DELETE_FAMILY;
      default:
        throw new UnsupportedOperationException("cell type " + c.getType() + " is not supported by Bellows");
    }
  }

  static Durability durability(org.apache.hadoop.hbase.client.Durability d) {
    switch (d) {
      case SKIP_WAL: return Durability.SKIP_WAL;
      case ASYNC_WAL: return Durability.ASYNC_WAL;
      case SYNC_WAL: return Durability.SYNC_WAL;
      case FSYNC_WAL: return Durability.FSYNC_WAL;
      default: return Durability.USE_DEFAULT;
    }
  }

  // ------------------------------------------------------------------ reads

  static ScanQuery query(Get g) {
    ScanQuery.Builder b = ScanQuery.builder().singleRow(g.getRow());
    columns(b, g.getFamilyMap());
    if (!g.getColumnFamilyTimeRange().isEmpty()) {
      throw new UnsupportedOperationException("Get.setColumnFamilyTimeRange is not supported by Bellows");
    }
    if (g.getMaxResultsPerColumnFamily() >= 0 || g.getRowOffsetPerColumnFamily() > 0) {
      throw new UnsupportedOperationException("Get.setMaxResultsPerColumnFamily/setRowOffsetPerColumnFamily are not supported by Bellows");
    }
    timeRange(b, g.getTimeRange());
    consistency(b, g.getConsistency());
    return b.maxVersions(g.getMaxVersions()).filter(filter(g.getFilter())).build();
  }

  static ScanQuery query(Scan s) {
    ScanQuery.Builder b = ScanQuery.builder();
    if (s.isRaw()) {
      throw new UnsupportedOperationException("Scan.setRaw is not supported by Bellows");
    }
    if (!s.getColumnFamilyTimeRange().isEmpty()) {
      throw new UnsupportedOperationException("Scan.setColumnFamilyTimeRange is not supported by Bellows");
    }
    if (s.getMaxResultsPerColumnFamily() >= 0 || s.getRowOffsetPerColumnFamily() > 0) {
      throw new UnsupportedOperationException("Scan.setMaxResultsPerColumnFamily/setRowOffsetPerColumnFamily are not supported by Bellows");
    }
    if (s.isReversed()) { // the engine takes the range low to high
      b.startRow(s.getStopRow(), s.includeStopRow()).stopRow(s.getStartRow(), s.includeStartRow()).reversed(true);
    } else {
      b.startRow(s.getStartRow(), s.includeStartRow()).stopRow(s.getStopRow(), s.includeStopRow());
    }
    columns(b, s.getFamilyMap());
    timeRange(b, s.getTimeRange());
    if (s.getLimit() > 0) {
      b.limit(s.getLimit());
    }
    consistency(b, s.getConsistency());
    return b.maxVersions(s.getMaxVersions()).filter(filter(s.getFilter())).build();
  }

  private static void columns(ScanQuery.Builder b, Map<byte[], NavigableSet<byte[]>> families) {
    for (Map.Entry<byte[], NavigableSet<byte[]>> e : families.entrySet()) {
      if (e.getValue() == null || e.getValue().isEmpty()) {
        b.addFamily(e.getKey());
      } else {
        e.getValue().forEach(q -> b.addColumn(e.getKey(), q == null ? new byte[0] : q));
      }
    }
  }

  /**
   * TIMELINE: any replica of the region may answer, from its own state (a cluster's stale read);
   * STRONG, HBase's default, is the engine's too.
   */
  private static void consistency(ScanQuery.Builder b, org.apache.hadoop.hbase.client.Consistency c) {
    if (c == org.apache.hadoop.hbase.client.Consistency.TIMELINE) {
      b.consistency(io.bellows.scan.Consistency.TIMELINE);
    }
  }

  private static void timeRange(ScanQuery.Builder b, TimeRange tr) {
    if (!tr.isAllTime()) {
      b.timeRange(tr.getMin(), tr.getMax());
    }
  }

  static Result result(List<io.bellows.cell.Cell> cells) {
    return result(cells, false);
  }

  /**
   * The cells as HBase's Result; {@code stale}: a TIMELINE read answered by a replica that does not
   * lead the region ({@link Result#isStale()}).
   */
  static Result result(List<io.bellows.cell.Cell> cells, boolean stale) {
    if (cells.isEmpty()) {
      return stale ? Result.create(List.of(), null, true) : Result.EMPTY_RESULT;
    }
    List<Cell> out = new ArrayList<>(cells.size());
    for (io.bellows.cell.Cell c : cells) {
      byte[] b = c.array(); // read in place: the KeyValue's own array is the one copy
      out.add(new KeyValue(b, c.rowOffset(), c.rowLength(), b, c.familyOffset(), c.familyLength(), b, c.qualifierOffset(),
          c.qualifierLength(), c.timestamp(), KeyValue.Type.Put, b, c.valueOffset(), c.valueLength()));
    }
    return Result.create(out, null, stale);
  }

  // ------------------------------------------------------------------ filters

  static Filter filter(org.apache.hadoop.hbase.filter.Filter f) {
    if (f == null) {
      return null;
    }
    Class<?> k = f.getClass();
    if (k == org.apache.hadoop.hbase.filter.PrefixFilter.class) {
      return new PrefixFilter(((org.apache.hadoop.hbase.filter.PrefixFilter) f).getPrefix());
    }
    if (k == org.apache.hadoop.hbase.filter.PageFilter.class) {
      return new PageFilter(((org.apache.hadoop.hbase.filter.PageFilter) f).getPageSize());
    }
    if (k == org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter.class) {
      return new FirstKeyOnlyFilter();
    }
    if (k == org.apache.hadoop.hbase.filter.KeyOnlyFilter.class) {
      return new KeyOnlyFilter(keyOnlyLengthAsValue((org.apache.hadoop.hbase.filter.KeyOnlyFilter) f));
    }
    if (k == org.apache.hadoop.hbase.filter.ColumnPrefixFilter.class) {
      return new ColumnPrefixFilter(((org.apache.hadoop.hbase.filter.ColumnPrefixFilter) f).getPrefix());
    }
    if (k == org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter.class) {
      return new MultipleColumnPrefixFilter(List.of(((org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter) f).getPrefix()));
    }
    if (k == org.apache.hadoop.hbase.filter.ColumnRangeFilter.class) {
      var r = (org.apache.hadoop.hbase.filter.ColumnRangeFilter) f;
      return new ColumnRangeFilter(r.getMinColumn(), r.getMinColumnInclusive(), r.getMaxColumn(), r.getMaxColumnInclusive());
    }
    if (k == org.apache.hadoop.hbase.filter.TimestampsFilter.class) {
      return new TimestampsFilter(((org.apache.hadoop.hbase.filter.TimestampsFilter) f).getTimestamps());
    }
    if (k == org.apache.hadoop.hbase.filter.RowFilter.class) {
      CompareFilter c = (CompareFilter) f;
      return new RowFilter(op(c.getCompareOperator()), comparator(c.getComparator()));
    }
    if (k == org.apache.hadoop.hbase.filter.FamilyFilter.class) {
      CompareFilter c = (CompareFilter) f;
      return new FamilyFilter(op(c.getCompareOperator()), comparator(c.getComparator()));
    }
    if (k == org.apache.hadoop.hbase.filter.QualifierFilter.class) {
      CompareFilter c = (CompareFilter) f;
      return new QualifierFilter(op(c.getCompareOperator()), comparator(c.getComparator()));
    }
    if (k == org.apache.hadoop.hbase.filter.ValueFilter.class) {
      CompareFilter c = (CompareFilter) f;
      return new ValueFilter(op(c.getCompareOperator()), comparator(c.getComparator()));
    }
    if (k == org.apache.hadoop.hbase.filter.SingleColumnValueFilter.class) {
      var s = (org.apache.hadoop.hbase.filter.SingleColumnValueFilter) f;
      return new SingleColumnValueFilter(s.getFamily(), s.getQualifier(), op(s.getCompareOperator()),
          comparator(s.getComparator())).setFilterIfMissing(s.getFilterIfMissing())
          .setLatestVersionOnly(s.getLatestVersionOnly());
    }
    if (k == org.apache.hadoop.hbase.filter.FilterList.class) {
      var l = (org.apache.hadoop.hbase.filter.FilterList) f;
      List<Filter> parts = new ArrayList<>();
      for (org.apache.hadoop.hbase.filter.Filter p : l.getFilters()) {
        parts.add(filter(p));
      }
      return new FilterList(l.getOperator() == org.apache.hadoop.hbase.filter.FilterList.Operator.MUST_PASS_ALL
          ? FilterList.Operator.MUST_PASS_ALL : FilterList.Operator.MUST_PASS_ONE, parts);
    }
    throw new UnsupportedOperationException("filter " + k.getName() + " is not supported by Bellows");
  }

  private static boolean keyOnlyLengthAsValue(org.apache.hadoop.hbase.filter.KeyOnlyFilter f) {
    try {
      java.lang.reflect.Field lenAsVal = f.getClass().getDeclaredField("lenAsVal");
      lenAsVal.setAccessible(true);
      return lenAsVal.getBoolean(f);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new UnsupportedOperationException("cannot read KeyOnlyFilter's lenAsVal from this HBase version", e);
    }
  }

  private static CompareOperator op(org.apache.hadoop.hbase.CompareOperator op) {
    return CompareOperator.valueOf(op.name());
  }

  private static ByteComparator comparator(org.apache.hadoop.hbase.filter.ByteArrayComparable c) {
    Class<?> k = c.getClass();
    if (k == BinaryComparator.class) {
      return ByteComparator.binary(c.getValue());
    }
    if (k == BinaryPrefixComparator.class) {
      return ByteComparator.binaryPrefix(c.getValue());
    }
    if (k == RegexStringComparator.class) {
      // The pattern's flags are not exposed; HBase's default, DOTALL, is used.
      return ByteComparator.regex(new String(c.getValue(), java.nio.charset.StandardCharsets.UTF_8));
    }
    if (k == SubstringComparator.class) {
      return ByteComparator.substring(new String(c.getValue(), java.nio.charset.StandardCharsets.UTF_8));
    }
    throw new UnsupportedOperationException("comparator " + k.getName() + " is not supported by Bellows");
  }

  // ------------------------------------------------------------------ descriptors

  static TableDescriptor descriptor(org.apache.hadoop.hbase.client.TableDescriptor d) {
    TableDescriptor.Builder b = TableDescriptor.builder(name(d.getTableName()));
    if (d.getDurability() != org.apache.hadoop.hbase.client.Durability.USE_DEFAULT) {
      b.durability(durability(d.getDurability()));
    }
    if (d.isReadOnly()) {
      throw new UnsupportedOperationException("READONLY tables are not supported by Bellows");
    }
    if (d.getMemStoreFlushSize() > 0) { // -1: unset
      b.flushSize(d.getMemStoreFlushSize());
    }
    if (d.getMaxFileSize() > 0) {
      b.set(Knobs.MAX_FILESIZE, d.getMaxFileSize());
    }
    for (org.apache.hadoop.hbase.client.ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      b.family(family(f));
    }
    return b.build();
  }

  private static ColumnFamilyDescriptor family(org.apache.hadoop.hbase.client.ColumnFamilyDescriptor f) {
    if (f.getKeepDeletedCells() != KeepDeletedCells.FALSE) {
      throw new UnsupportedOperationException("KEEP_DELETED_CELLS is not supported by Bellows");
    }
    // What changes what reads return, or how data is protected, is refused; HBase's storage and
    // caching hints for its own file format and HDFS (DATA_BLOCK_ENCODING, CACHE_*_ON_WRITE, MOB,
    // REPLICATION_SCOPE, ...) are accepted and have no effect (README).
    if (f.isNewVersionBehavior()) {
      throw new UnsupportedOperationException("NEW_VERSION_BEHAVIOR is not supported by Bellows");
    }
    if (f.getEncryptionType() != null) {
      throw new UnsupportedOperationException("ENCRYPTION is not supported by Bellows: the family would be stored"
          + " unencrypted");
    }
    ColumnFamilyDescriptor.Builder b = ColumnFamilyDescriptor.builder(f.getNameAsString())
        .maxVersions(f.getMaxVersions()).minVersions(f.getMinVersions()).blockSize(f.getBlocksize());
    if (f.getTimeToLive() != HConstants.FOREVER) {
      b.ttlSeconds(f.getTimeToLive());
    }
    b.compression(compression(f.getCompressionType()));
    for (Knob<CompactionCompression> k : COMPACTION_COMPRESSIONS) {
      String v = f.getValue(k.name()); // HBase stores the algorithm's name; unset means "as COMPRESSION"
      if (v != null) {
        b.set(k, CompactionCompression.of(compression(Algorithm.valueOf(v.trim().toUpperCase(Locale.ROOT)))));
      }
    }
    switch (f.getBloomFilterType()) {
      case NONE: b.bloomType(BloomType.NONE); break;
      case ROW: b.bloomType(BloomType.ROW); break;
      case ROWCOL: b.bloomType(BloomType.ROWCOL); break;
      default: throw new UnsupportedOperationException("bloom type " + f.getBloomFilterType() + " is not supported by Bellows");
    }
    MemoryCompactionPolicy p = f.getInMemoryCompaction();
    if (p != null) {
      b.memStorePolicy(MemStorePolicy.valueOf(p.name()));
    }
    b.set(Knobs.IN_MEMORY, f.isInMemory()).set(Knobs.BLOCKCACHE, f.isBlockCacheEnabled());
    for (Knob<Integer> k : PASSED_AS_VALUES) {
      String v = f.getValue(k.name());
      if (v != null) {
        b.set(k.name(), v); // parsed and checked by the knob, as the shell's create does
      }
    }
    return b.build(); // refuses MIN_BLOCKSIZE above BLOCKSIZE in dynamic mode, naming the family
  }

  /**
   * Bellows family settings without a ColumnFamilyDescriptor property of their own: an HBase client
   * sets them with {@code ColumnFamilyDescriptorBuilder.setValue(name, value)}.
   */
  private static final List<Knob<Integer>> PASSED_AS_VALUES = List.of(Knobs.MIN_BLOCKSIZE, Knobs.MAX_ENTRIES_PER_BLOCK);

  /** HBase's family attributes of the same names (2.5 on), each falling back as in HBase. */
  private static final List<Knob<CompactionCompression>> COMPACTION_COMPRESSIONS = List.of(Knobs.COMPRESSION_COMPACT,
      Knobs.COMPRESSION_COMPACT_MINOR, Knobs.COMPRESSION_COMPACT_MAJOR);

  private static Compression compression(Algorithm a) {
    switch (a) {
      case NONE: return Compression.NONE;
      case LZ4: return Compression.LZ4;
      case ZSTD: return Compression.ZSTD;
      default: throw new UnsupportedOperationException("compression " + a + " is not supported by Bellows (NONE, LZ4, ZSTD are)");
    }
  }

  static org.apache.hadoop.hbase.client.TableDescriptor descriptor(TableDescriptor d) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf(d.name()));
    if (d.durability() != Durability.USE_DEFAULT) {
      b.setDurability(org.apache.hadoop.hbase.client.Durability.valueOf(d.durability().name()));
    }
    if (d.explicitValues().containsKey(Knobs.MEMSTORE_FLUSHSIZE)) {
      b.setMemStoreFlushSize(d.flushSize());
    }
    if (d.explicitValues().containsKey(Knobs.MAX_FILESIZE)) {
      b.setMaxFileSize(d.get(Knobs.MAX_FILESIZE));
    }
    for (ColumnFamilyDescriptor f : d.families()) {
      ColumnFamilyDescriptorBuilder fb = ColumnFamilyDescriptorBuilder.newBuilder(f.nameBytes())
          .setMaxVersions(f.maxVersions()).setMinVersions(f.minVersions())
          .setBlocksize(f.get(Knobs.BLOCKSIZE))
          .setCompressionType(Algorithm.valueOf(f.get(Knobs.COMPRESSION).name()))
          .setBloomFilterType(org.apache.hadoop.hbase.regionserver.BloomType.valueOf(f.get(Knobs.BLOOMFILTER).name()))
          .setInMemory(f.get(Knobs.IN_MEMORY)).setBlockCacheEnabled(f.get(Knobs.BLOCKCACHE));
      if (f.explicitValues().containsKey(Knobs.IN_MEMORY_COMPACTION)) { // HBase shows a set one as METADATA
        fb.setInMemoryCompaction(MemoryCompactionPolicy.valueOf(f.memStorePolicy().name()));
      }
      long ttl = f.get(Knobs.TTL);
      fb.setTimeToLive(ttl >= HConstants.FOREVER ? HConstants.FOREVER : (int) ttl);
      for (Knob<Integer> k : PASSED_AS_VALUES) {
        if (f.explicitValues().containsKey(k)) {
          fb.setValue(k.name(), String.valueOf(f.get(k)));
        }
      }
      // A family with dynamic blocks by default shows its entry count: HBase's descriptor always
      // carries a BLOCKSIZE, and a BLOCKSIZE alone means static blocks, so without it a descriptor
      // read, changed and sent back would turn the family's blocks static.
      if (!f.explicitValues().containsKey(Knobs.MAX_ENTRIES_PER_BLOCK) && f.maxEntriesPerBlock() > 0) {
        fb.setValue(Knobs.MAX_ENTRIES_PER_BLOCK.name(), String.valueOf(f.maxEntriesPerBlock()));
      }
      for (Knob<CompactionCompression> k : COMPACTION_COMPRESSIONS) {
        if (f.get(k) != CompactionCompression.SAME) {
          fb.setValue(k.name(), f.get(k).name()); // the key and value HBase's typed setters write
        }
      }
      b.setColumnFamily(fb.build());
    }
    return b.build();
  }

  /** Bellows' regions of table {@code t} as HBase's, in key order. */
  static List<org.apache.hadoop.hbase.client.RegionInfo> regions(TableName t, List<io.bellows.engine.RegionInfo> regions) {
    List<org.apache.hadoop.hbase.client.RegionInfo> out = new ArrayList<>();
    for (io.bellows.engine.RegionInfo r : regions) {
      out.add(org.apache.hadoop.hbase.client.RegionInfoBuilder.newBuilder(t).setStartKey(r.startKey())
          .setEndKey(r.endKey()).setRegionId(r.id()).build());
    }
    return out;
  }

  /** Whether {@code t} is in HBase's default namespace, the only one whose tables Bellows holds. */
  static boolean inDefaultNamespace(TableName t) {
    return t.getNamespaceAsString().equals("default");
  }

  /** Bellows table names carry no namespace: "default" maps to the bare name, others are refused. */
  static String name(TableName t) {
    if (!inDefaultNamespace(t)) {
      throw new UnsupportedOperationException("namespaces are not supported by Bellows: " + t);
    }
    return t.getQualifierAsString();
  }
}
