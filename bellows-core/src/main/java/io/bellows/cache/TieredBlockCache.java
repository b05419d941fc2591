package io.bellows.cache;

import io.bellows.config.L1Admission;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's block cache: the on-heap L1 and, if configured, the off-heap L2 behind it. Either
 * level may be absent (size 0). Thread-safe, as its levels are.
 *
 * <ul>
 *   <li>Lookup: L1, then (data blocks only) L2; an L2 hit is copied back into L1, since it is being
 *       read again (not with {@link L1Admission#NONE}). A get's lookup reads an L2 block where it
 *       lies, without a copy, when L1 would not take the copy ({@link #readInPlace}).
 *   <li>With {@link L1Admission#NONE}, data blocks (but those of {@code IN_MEMORY} families) go to
 *       L2 only, as without an L1: L1's budget is the KV cache's.
 *   <li>Read path puts go to L1 (with {@link L1Admission#READ_AGAIN}, only a block missed again
 *       while the {@link ReadAgainFilter} remembers it, or one of an {@code IN_MEMORY} family); data
 *       blocks L1 evicts go down to L2 (a victim cache). Without an L1, data blocks go to L2
 *       directly; index and Bloom blocks never go to L2.
 *   <li>Blocks written by a flush (cache-on-write) go to L2 if there is one, so fresh blocks that
 *       may never be read do not push read blocks out of the heap; blocks of {@code IN_MEMORY}
 *       families always go to L1's in-memory area.
 *   <li>A closed file's blocks leave both levels ({@link #evictFile}), L1 first, then, once no L1
 *       eviction run can still be handing one of them down, L2.
 * </ul>
 */
public final class TieredBlockCache implements BlockCache {
  private final LruBlockCache l1;
  private final BucketCache l2;
  /** Null: L1 takes every block read ({@link L1Admission#ALL}), or none ({@link #l1TakesNoData}). */
  private final ReadAgainFilter admission;
  /** {@link L1Admission#NONE}: L1 takes only blocks of IN_MEMORY families. */
  private final boolean l1TakesNoData;
  private final LongAdder notAdmitted = new LongAdder();

  /** A cache with an L1 of {@code l1Bytes} heap bytes and an L2 of {@code l2Bytes} direct bytes; 0 means none. */
  public static BlockCache create(long l1Bytes, long l2Bytes) {
    return create(l1Bytes, l2Bytes, L1Admission.ALL);
  }

  /** As {@link #create(long, long)}, with L1 taking in the blocks read as {@code admission} says. */
  public static BlockCache create(long l1Bytes, long l2Bytes, L1Admission admission) {
    if (l1Bytes <= 0 && l2Bytes <= 0) {
      return BlockCache.NONE;
    }
    BucketCache l2 = l2Bytes > 0 ? new BucketCache(l2Bytes) : null;
    LruBlockCache l1 = l1Bytes > 0 ? new LruBlockCache(l1Bytes, l2 == null ? null : (k, b) -> l2.put(k, b, false)) : null;
    ReadAgainFilter filter = l1 != null && admission == L1Admission.READ_AGAIN ? ReadAgainFilter.forCache(l1Bytes) : null;
    return new TieredBlockCache(l1, l2, filter, admission == L1Admission.NONE && l2 != null); // no L2: NONE is ALL
  }

  TieredBlockCache(LruBlockCache l1, BucketCache l2) {
    this(l1, l2, null, false);
  }

  TieredBlockCache(LruBlockCache l1, BucketCache l2, ReadAgainFilter admission, boolean l1TakesNoData) {
    this.l1 = l1;
    this.l2 = l2;
    this.admission = admission;
    this.l1TakesNoData = l1TakesNoData;
  }

  /** The L1 level, or null. */
  public LruBlockCache l1() {
    return l1;
  }

  /** The L2 level, or null. */
  public BucketCache l2() {
    return l2;
  }

  @Override
  public CachedBlock get(BlockKey key, BlockKind kind) {
    CachedBlock b = l1 == null ? null : l1.get(key, kind);
    if (b != null || l2 == null || kind != BlockKind.DATA) {
      return b;
    }
    b = l2.get(key, kind);
    if (b != null && l1 != null && !l1TakesNoData) {
      l1.put(key, b, false);
    }
    return b;
  }

  /**
   * L1's heap copy; else, where L1 would not take L2's copy (no L1, or {@link L1Admission#NONE}),
   * the block read where L2 holds it (no copy to the heap); else L2's copy, which goes back into L1
   * as {@link #get}'s does.
   */
  @Override
  public <T> InPlaceRead<T> readInPlace(BlockKey key, BlockKind kind, PayloadReader<T> reader) {
    if (l2 == null || kind != BlockKind.DATA || (l1 != null && !l1TakesNoData)) {
      return BlockCache.super.readInPlace(key, kind, reader);
    }
    CachedBlock b = l1 == null ? null : l1.get(key, kind); // an IN_MEMORY family's block
    if (b != null) {
      return new InPlaceRead<>(reader.read(ByteBuffer.wrap(b.payload())), b);
    }
    return l2.readInPlace(key, kind, reader);
  }

  @Override
  public void put(BlockKey key, CachedBlock block, boolean inMemory) {
    if (l1 != null && l1TakesNoData && !inMemory) {
      if (l2 != null && block.kind() == BlockKind.DATA) {
        l2.put(key, block, false);
      } else {
        notAdmitted.increment();
      }
    } else if (l1 != null) {
      if (inMemory || admission == null || admission.missedAgain(key)) {
        l1.put(key, block, inMemory);
      } else {
        notAdmitted.increment();
      }
    } else if (l2 != null && block.kind() == BlockKind.DATA) {
      l2.put(key, block, inMemory);
    }
  }

  /** Cache-on-write: a block a flush just wrote (see the class comment for where it goes). */
  @Override
  public void putWritten(BlockKey key, CachedBlock block, boolean inMemory) {
    if (l2 != null && block.kind() == BlockKind.DATA && !inMemory) {
      l2.put(key, block, false);
    } else if (l1 != null) {
      l1.put(key, block, inMemory);
    }
  }

  @Override
  public void evictFile(long file) {
    if (l1 != null) {
      l1.evictFile(file);
    }
    if (l2 != null) {
      if (l1 != null) {
        // An eviction run may have taken one of the file's blocks out of L1 just before and be
        // about to hand it to L2: let it finish, so L2's eviction below finds the block.
        l1.awaitEvictionRun();
      }
      l2.evictFile(file);
    }
  }

  @Override
  public Map<String, Number> metrics() {
    Map<String, Number> m = new TreeMap<>();
    if (l1 != null) {
      m.putAll(l1.metrics());
      m.put("cache.l1.not.admitted", notAdmitted.sum());
    }
    if (l2 != null) {
      m.putAll(l2.metrics());
    }
    return m;
  }

  @Override
  public void close() {
    if (l1 != null) {
      l1.close();
    }
    if (l2 != null) {
      l2.close();
    }
  }
}
