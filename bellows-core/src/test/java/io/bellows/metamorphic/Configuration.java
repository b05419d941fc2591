package io.bellows.metamorphic;

import io.bellows.config.BloomType;
import io.bellows.config.CompactionCompression;
import io.bellows.config.Compression;
import io.bellows.config.EngineOptions;
import io.bellows.config.FlushPolicy;
import io.bellows.config.Knobs;
import io.bellows.engine.EngineConfigurations;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * One way to set up the engine for the metamorphic test. Every setting here may change how the
 * engine stores and finds data, never what a read returns.
 *
 * <p>The dimensions: the memory-store layout ({@link EngineConfigurations}: policy, active and
 * segment index, MSLAB, off-heap chunks), data block size, compression (a compressed one has its
 * compactions write the other two codecs), Bloom filter type, block
 * cache (L1 off, small, default; L2 behind or alone; cache-on-write; BLOCKCACHE off), regions (one,
 * pre-split, splitting by size in the background), Accordion's in-memory flush threshold and
 * pipeline length, the flush size and the flush policy.
 */
public record Configuration(String name, EngineConfigurations layout, int blockSize, Compression compression,
    BloomType bloom, Cache cache, Regions regions, InMemory inMemory, long flushSize, FlushPolicy flushPolicy) {
  static final String TABLE = "t";

  /** Block cache settings. */
  enum Cache {
    DEFAULT, L1_OFF, L1_SMALL, L1_OFF_L2, L1_SMALL_L2_CACHE_ON_WRITE, BLOCKCACHE_OFF;

    void apply(EngineOptions.Builder b) {
      switch (this) {
        case DEFAULT, BLOCKCACHE_OFF -> b.set(Knobs.BLOCKCACHE_L1_SIZE, 0L);
        case L1_OFF -> b.set(Knobs.BLOCKCACHE_L1_SIZE, 0L).set(Knobs.BLOCKCACHE_L1_FRACTION, 0.0);
        case L1_SMALL -> b.set(Knobs.BLOCKCACHE_L1_SIZE, 16L * 1024);
        case L1_OFF_L2 -> b.set(Knobs.BLOCKCACHE_L1_SIZE, 0L).set(Knobs.BLOCKCACHE_L1_FRACTION, 0.0)
            .set(Knobs.BLOCKCACHE_L2_SIZE, 1028L * 1024);
        case L1_SMALL_L2_CACHE_ON_WRITE -> b.set(Knobs.BLOCKCACHE_L1_SIZE, 32L * 1024)
            .set(Knobs.BLOCKCACHE_L2_SIZE, 2L * 1028 * 1024).set(Knobs.BLOCKCACHE_CACHE_ON_WRITE, true);
      }
    }
  }

  /** How the table is cut into regions (the operations also split it at random rows). */
  enum Regions {
    ONE(), PRE_SPLIT_4("ab", "r03", "r08"), PRE_SPLIT_7("a", "abc", "r01", "r02", "r05", "r10"), AUTOSPLIT();

    private final List<byte[]> keys = new ArrayList<>();

    Regions(String... keys) {
      for (String k : keys) {
        this.keys.add(Bytes.of(k));
      }
    }

    List<byte[]> splitKeys() {
      return keys;
    }
  }

  /** Accordion's in-memory flush threshold (fraction of the flush size) and pipeline length. */
  enum InMemory {
    DEFAULT(0.02, 4), EAGER_SHORT(0.005, 1), LAZY_LONG(0.25, 8);

    final double fraction;
    final int segments;

    InMemory(double fraction, int segments) {
      this.fraction = fraction;
      this.segments = segments;
    }
  }

  /** The plainest configuration, whose answers the others are compared with. */
  public static Configuration reference() {
    return new Configuration("reference", EngineConfigurations.all().get(0), 65536, Compression.NONE, BloomType.NONE,
        Cache.DEFAULT, Regions.ONE, InMemory.DEFAULT, 64 * 1024, FlushPolicy.STORES);
  }

  /**
   * The reference, then {@code count} configurations: every memory-store layout in turn, each with
   * a value of every other dimension dealt from a shuffled deck (fixed shuffle, so a configuration's
   * name always means the same settings), so every value of every dimension occurs and they combine
   * differently.
   */
  public static List<Configuration> all(int count) {
    List<EngineConfigurations> layouts = EngineConfigurations.all();
    List<Integer> blockSizes = deck(count, 1, 1024, 4096, 65536);
    List<Compression> compressions = deck(count, 2, Compression.values());
    List<BloomType> blooms = deck(count, 3, BloomType.values());
    List<Cache> caches = deck(count, 4, Cache.values());
    List<Regions> regions = deck(count, 5, Regions.values());
    List<InMemory> inMemory = deck(count, 6, InMemory.values());
    List<Long> flushSizes = deck(count, 7, 64L * 1024, 64L * 1024, 1024L * 1024);
    List<FlushPolicy> policies = deck(count, 8, FlushPolicy.values());
    List<Configuration> out = new ArrayList<>();
    out.add(reference());
    for (int i = 0; i < count; i++) {
      EngineConfigurations layout = layouts.get(i % layouts.size());
      String name = String.format("#%d %s/%dK/%s/%s/%s/%s/%s/%dK/%s", i + 1, layout, blockSizes.get(i) / 1024,
          compressions.get(i), blooms.get(i), caches.get(i), regions.get(i), inMemory.get(i),
          flushSizes.get(i) / 1024, policies.get(i));
      out.add(new Configuration(name, layout, blockSizes.get(i), compressions.get(i), blooms.get(i), caches.get(i),
          regions.get(i), inMemory.get(i), flushSizes.get(i), policies.get(i)));
    }
    return out;
  }

  @SafeVarargs
  private static <T> List<T> deck(int count, long shuffle, T... values) {
    List<T> out = new ArrayList<>();
    while (out.size() < count) {
      out.addAll(List.of(values));
    }
    Collections.shuffle(out, new Random(shuffle));
    return out.subList(0, count);
  }

  /** Applies the engine-wide settings. */
  void engine(EngineOptions.Builder b) {
    layout.engine(b);
    cache.apply(b);
  }

  /**
   * The table: three families of different retention, so that versions, MIN_VERSIONS and TTL all
   * matter: "a" keeps 3 versions, "b" 1, "c" 2 with MIN_VERSIONS 1 and a 3 s TTL.
   */
  TableDescriptor table() {
    TableDescriptor.Builder t = TableDescriptor.builder(TABLE).flushSize(flushSize)
        .set(Knobs.FLUSH_POLICY, flushPolicy);
    if (regions == Regions.AUTOSPLIT) {
      t.set(Knobs.MAX_FILESIZE, 64L * 1024);
    }
    return t.family(family("a").maxVersions(3).build())
        .family(family("b").maxVersions(1).build())
        .family(family("c").maxVersions(2).minVersions(1).ttlSeconds(3).build())
        .build();
  }

  private ColumnFamilyDescriptor.Builder family(String name) {
    ColumnFamilyDescriptor.Builder f = layout.family(name).blockSize(blockSize).compression(compression)
        .bloomType(bloom)
        .set(Knobs.IN_MEMORY_FLUSH_FRACTION, inMemory.fraction)
        .set(Knobs.PIPELINE_MAX_SEGMENTS, inMemory.segments);
    if (cache == Cache.BLOCKCACHE_OFF) {
      f.set(Knobs.BLOCKCACHE, false);
    }
    if (compression != Compression.NONE) {
      // Compactions write the other two codecs, so stores mix three codecs (the reference keeps NONE).
      Compression[] all = Compression.values();
      f.set(Knobs.COMPRESSION_COMPACT_MINOR, CompactionCompression.of(all[(compression.ordinal() + 1) % all.length]))
          .set(Knobs.COMPRESSION_COMPACT_MAJOR, CompactionCompression.of(all[(compression.ordinal() + 2) % all.length]));
    }
    return f;
  }

  @Override
  public String toString() {
    return name;
  }
}
