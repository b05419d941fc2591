package io.bellows.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.compaction.CompactionOptions;
import io.bellows.config.ActiveIndexType;
import io.bellows.config.BloomType;
import io.bellows.config.CompactionCompression;
import io.bellows.config.Compression;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import io.bellows.config.SegmentIndexType;
import io.bellows.memstore.MemStoreOptions;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.scan.Retention;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.sstable.SortedFileOptions;
import io.bellows.store.StoreOptions;
import io.bellows.wal.WalOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every knob read below the region reaches its options record, and the records' defaults are the knobs'. */
class OptionsResolverTest {
  @Test
  void defaultsOfTheRecordsAreTheKnobDefaults() {
    ColumnFamilyDescriptor f = ColumnFamilyDescriptor.of("f");
    assertThat(OptionsResolver.wal(EngineOptions.defaults())).isEqualTo(WalOptions.defaults());
    assertThat(OptionsResolver.retention(f)).isEqualTo(Retention.DEFAULT);
    SortedFileOptions resolved = OptionsResolver.sortedFiles(f);
    SortedFileOptions builderDefaults = SortedFileOptions.builder().build();
    assertThat(resolved.blockSize()).isEqualTo(builderDefaults.blockSize()).isEqualTo(Knobs.BLOCKSIZE.defaultValue());
    assertThat(resolved.minBlockSize()).isEqualTo(builderDefaults.minBlockSize())
        .isEqualTo(Knobs.MIN_BLOCKSIZE.defaultValue());
    // Dynamic blocks are the engine's default; the file writer's own default stays static (its
    // golden files and direct users), so here the record's default is not the knob's.
    assertThat(resolved.maxEntriesPerBlock()).isEqualTo(Knobs.MAX_ENTRIES_PER_BLOCK.defaultValue()).isEqualTo(32);
    assertThat(builderDefaults.maxEntriesPerBlock()).isZero();
    assertThat(resolved.compression()).isEqualTo(builderDefaults.compression())
        .isEqualTo(Knobs.COMPRESSION.defaultValue());
    assertThat(resolved.bloomType()).isEqualTo(builderDefaults.bloomType()).isEqualTo(Knobs.BLOOMFILTER.defaultValue());
    assertThat(resolved.bloomErrorRate()).isEqualTo(builderDefaults.bloomErrorRate())
        .isEqualTo(Knobs.BLOOMFILTER_ERROR_RATE.defaultValue());
    assertThat(OptionsResolver.memStore(f)).isEqualTo(new MemStoreOptions(MemStorePolicy.ADAPTIVE, 0.02, 4, 0.05,
        ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, false, true));
    assertThat(OptionsResolver.compaction(EngineOptions.defaults())).isEqualTo(new CompactionOptions(3, 10, 1.2, 32));
    ChunkAllocator chunks = OptionsResolver.chunkAllocator(EngineOptions.defaults());
    assertThat(chunks.chunkSize()).isEqualTo(2 * 1024 * 1024 - 64);
    assertThat(chunks.offHeap()).isFalse();
  }

  @Test
  void everyFamilyKnobReachesItsRecord() {
    ColumnFamilyDescriptor f = ColumnFamilyDescriptor.builder("f")
        .maxVersions(5).minVersions(2).ttlSeconds(90)
        .blockSize(4096).compression(Compression.ZSTD).bloomType(BloomType.ROWCOL)
        .set(Knobs.MIN_BLOCKSIZE, 1024).set(Knobs.MAX_ENTRIES_PER_BLOCK, 24)
        .set(Knobs.BLOOMFILTER_ERROR_RATE, 0.05)
        .memStorePolicy(MemStorePolicy.EAGER)
        .set(Knobs.IN_MEMORY_FLUSH_FRACTION, 0.1)
        .set(Knobs.PIPELINE_MAX_SEGMENTS, 7)
        .set(Knobs.ADAPTIVE_THRESHOLD, 0.5)
        .set(Knobs.ACTIVE_INDEX, ActiveIndexType.CHUNK_SKIPLIST)
        .set(Knobs.SEGMENT_INDEX, SegmentIndexType.CHUNK)
        .set(Knobs.MSLAB, true)
        .set(Knobs.SEGMENT_ROW_FILTER, false)
        .set(Knobs.BLOCKCACHE, false)
        .set(Knobs.IN_MEMORY, true)
        .build();
    TableDescriptor t = TableDescriptor.builder("t").family(f).flushSize(1 << 20).build();
    EngineOptions e = EngineOptions.builder()
        .set(Knobs.COMPACTION_MIN_FILES, 4).set(Knobs.COMPACTION_MAX_FILES, 6)
        .set(Knobs.COMPACTION_RATIO, 2.5).set(Knobs.BLOCKING_STORE_FILES, 30)
        .set(Knobs.BLOCKCACHE_CACHE_ON_WRITE, true)
        .build();

    StoreOptions o = OptionsResolver.store(e, t, f);

    assertThat(o.flushSize()).isEqualTo(1 << 20);
    assertThat(o.retention()).isEqualTo(new Retention(5, 2, 90_000));
    assertThat(o.memStore()).isEqualTo(new MemStoreOptions(MemStorePolicy.EAGER, 0.1, 7, 0.5,
        ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.CHUNK, true, false));
    assertThat(o.files().blockSize()).isEqualTo(4096);
    assertThat(o.files().minBlockSize()).isEqualTo(1024);
    assertThat(o.files().maxEntriesPerBlock()).isEqualTo(24);
    assertThat(o.files().compression()).isEqualTo(Compression.ZSTD);
    assertThat(o.files().bloomType()).isEqualTo(BloomType.ROWCOL);
    assertThat(o.files().bloomErrorRate()).isEqualTo(0.05);
    assertThat(o.compaction()).isEqualTo(new CompactionOptions(4, 6, 2.5, 30));
    assertThat(o.blockingFiles()).isEqualTo(30);
    assertThat(o.cache()).isEqualTo(new io.bellows.cache.CachePolicy(false, true, true));
  }

  @Test
  void compactionCompressionFallsBackFromMinorAndMajorToCompactToCompression() {
    TableDescriptor t = TableDescriptor.builder("t").family("f").build();
    EngineOptions e = EngineOptions.defaults();
    StoreOptions unset = OptionsResolver.store(e, t, ColumnFamilyDescriptor.builder("f").compression(Compression.ZSTD).build());
    assertThat(List.of(unset.compressionOf(true, false), unset.compressionOf(false, false), unset.compressionOf(false, true)))
        .as("flush, minor, major").containsOnly(Compression.ZSTD);

    StoreOptions compact = OptionsResolver.store(e, t, ColumnFamilyDescriptor.builder("f")
        .set(Knobs.COMPRESSION_COMPACT, CompactionCompression.ZSTD).set(Knobs.COMPRESSION_COMPACT_MINOR, CompactionCompression.NONE)
        .build());
    assertThat(compact.compressionOf(true, false)).as("flush: COMPRESSION").isEqualTo(Compression.LZ4);
    assertThat(compact.compressionOf(false, false)).as("minor: its own").isEqualTo(Compression.NONE);
    assertThat(compact.compressionOf(false, true)).as("major: COMPRESSION_COMPACT").isEqualTo(Compression.ZSTD);

    StoreOptions major = OptionsResolver.store(e, t, ColumnFamilyDescriptor.builder("f")
        .set("compression_compact_major", "zstd").build());
    assertThat(List.of(major.compressionOf(true, false), major.compressionOf(false, false), major.compressionOf(false, true)))
        .containsExactly(Compression.LZ4, Compression.LZ4, Compression.ZSTD);
  }

  @Test
  void blockCacheSizesComeFromTheEngineKnobs() {
    assertThat(OptionsResolver.cachePolicy(EngineOptions.defaults(), ColumnFamilyDescriptor.of("f")))
        .isEqualTo(io.bellows.cache.CachePolicy.DEFAULT);
    // By default L1 is 2% of the heap (20 MiB of 1000), of which the KV cache may hold 10 MiB and
    // reserves one step at open; data blocks go to an L2 of a quarter of the heap.
    var withKv = (io.bellows.kvcache.KvCachingBlockCache) OptionsResolver.blockCache(EngineOptions.defaults(), 1000L << 20);
    assertThat(withKv.kvCache().limit()).isEqualTo(10L << 20);
    assertThat(withKv.kvCache().metrics().get("kvcache.max.bytes")).isEqualTo(10L << 20);
    assertThat(withKv.kvCache().capacity()).isEqualTo(io.bellows.kvcache.KvCache.firstReservation(20L << 20, 10L << 20));
    assertThat(withKv.metrics().get("cache.l2.max.bytes")).isEqualTo((250L << 20) / (1028L << 10) * (1028L << 10));
    withKv.close();
    var l1Only = (io.bellows.cache.TieredBlockCache) OptionsResolver.blockCache(EngineOptions.builder()
        .set(Knobs.KVCACHE_INITIAL_SIZE, 0L).set(Knobs.BLOCKCACHE_L2_FRACTION, 0.0).build(), 1000L << 20);
    assertThat(l1Only.l1().maxSize()).isEqualTo(20L << 20); // 2% of the heap
    assertThat(l1Only.l2()).isNull();
    // An L2 sized from the heap: a quarter of 1000 MiB, in whole buckets of 1028 KiB.
    var fromHeap = (io.bellows.cache.TieredBlockCache) OptionsResolver.blockCache(EngineOptions.builder()
        .set(Knobs.KVCACHE_INITIAL_SIZE, 0L).set(Knobs.BLOCKCACHE_L2_FRACTION, 0.25).build(), 1000L << 20);
    assertThat(fromHeap.l2().metrics().get("cache.l2.max.bytes"))
        .isEqualTo((250L << 20) / (1028L << 10) * (1028L << 10));
    fromHeap.close();
    var both = (io.bellows.cache.TieredBlockCache) OptionsResolver.blockCache(EngineOptions.builder()
        .set(Knobs.KVCACHE_INITIAL_SIZE, 0L)
        .set(Knobs.BLOCKCACHE_L1_SIZE, 1L << 20).set(Knobs.BLOCKCACHE_L2_SIZE, 3L << 20).build(), 1000L << 20);
    assertThat(both.l1().maxSize()).isEqualTo(1L << 20);
    assertThat(both.l2().bucketCount()).isEqualTo(2); // buckets of 1028 KiB
    both.close();
    assertThat(OptionsResolver.blockCache(EngineOptions.builder().set(Knobs.BLOCKCACHE_L1_FRACTION, 0.0)
        .set(Knobs.BLOCKCACHE_L2_FRACTION, 0.0).build(), 1000L << 20)).isSameAs(io.bellows.cache.BlockCache.NONE);
  }

  @Test
  void theL2IsSizedFromTheHeapUnlessItsSizeIsGiven() {
    assertThat(OptionsResolver.l2Bytes(EngineOptions.defaults(), 8000L << 20)).as("a quarter of the heap by default")
        .isEqualTo(2000L << 20);
    assertThat(OptionsResolver.l2Bytes(EngineOptions.builder().set(Knobs.BLOCKCACHE_L2_FRACTION, 0.0).build(),
        8000L << 20)).as("off").isZero();
    assertThat(OptionsResolver.l2Bytes(EngineOptions.builder().set(Knobs.BLOCKCACHE_L2_FRACTION, 0.25).build(),
        8000L << 20)).isEqualTo(2000L << 20);
    assertThat(OptionsResolver.l2Bytes(EngineOptions.builder().set(Knobs.BLOCKCACHE_L2_SIZE, 3L << 20)
        .set(Knobs.BLOCKCACHE_L2_FRACTION, 0.5).build(), 8000L << 20)).as("the size wins").isEqualTo(3L << 20);
  }

  @Test
  void ttlForeverStaysForever() {
    assertThat(OptionsResolver.retention(ColumnFamilyDescriptor.builder("f").ttlSeconds(Long.MAX_VALUE).build())
        .ttlMillis()).isEqualTo(Long.MAX_VALUE);
    assertThat(OptionsResolver.retention(ColumnFamilyDescriptor.builder("f").ttlSeconds(Long.MAX_VALUE / 1000).build())
        .ttlMillis()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void engineKnobsReachTheWalAndTheChunkAllocator() {
    EngineOptions e = EngineOptions.builder()
        .set(Knobs.WAL_ROLL_SIZE, 1L << 20).set(Knobs.WAL_ASYNC_SYNC_PERIOD_MS, 50L)
        .set(Knobs.CHUNK_SIZE, 8192L + 3).set(Knobs.CHUNK_OFF_HEAP, true)
        .build();
    assertThat(OptionsResolver.wal(e)).isEqualTo(new WalOptions(1L << 20, 50));
    ChunkAllocator chunks = OptionsResolver.chunkAllocator(e);
    assertThat(chunks.chunkSize()).as("rounded down to a multiple of 8").isEqualTo(8192);
    assertThat(chunks.offHeap()).isTrue();
  }

  @Test
  void aFileTemplateKeepsTheFamilySettingsWhenCopied() {
    SortedFileOptions template = OptionsResolver.sortedFiles(ColumnFamilyDescriptor.builder("f")
        .blockSize(2048).compression(Compression.LZ4).set(Knobs.MIN_BLOCKSIZE, 512)
        .set(Knobs.MAX_ENTRIES_PER_BLOCK, 8).build());
    SortedFileOptions one = template.toBuilder().expectedCellCount(10).majorCompaction(true).build();
    assertThat(one.blockSize()).isEqualTo(2048);
    assertThat(one.minBlockSize()).isEqualTo(512);
    assertThat(one.maxEntriesPerBlock()).isEqualTo(8);
    assertThat(one.compression()).isEqualTo(Compression.LZ4);
    assertThat(one.expectedCellCount()).isEqualTo(10);
    assertThat(one.majorCompaction()).isTrue();
    assertThat(template.majorCompaction()).isFalse();
  }
}
