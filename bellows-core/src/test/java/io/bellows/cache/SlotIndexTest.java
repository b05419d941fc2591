package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * L2's slot records, key index and per-file ids against a plain map: random puts and removals of
 * blocks in random slots, through enough churn for tombstones to force rebuilds and for a file's id
 * list to be compacted.
 */
@ExtendWith(SeedExtension.class)
class SlotIndexTest {
  private static final int BUCKETS = 8;

  private static CachedBlock block(int length) {
    return new CachedBlock(BlockKind.DATA, length + 9, new byte[length]);
  }

  @Test
  void theIndexFindsExactlyTheLiveSlotsThroughChurn(Seed seed) {
    Random rnd = seed.random();
    BlockSlots slots = new BlockSlots(BUCKETS);
    SlotIndex index = new SlotIndex();
    FileSlots files = new FileSlots();
    Map<BlockKey, Integer> model = new HashMap<>();
    List<Integer> freeIds = new ArrayList<>();
    for (int b = 0; b < BUCKETS; b++) {
      slots.ensurePage(b);
      for (int s = 0; s < BucketAllocator.SLOTS_PER_BUCKET; s++) {
        freeIds.add(BucketAllocator.id(b, s));
      }
    }
    long stamp = 0;
    for (int step = 0; step < 60_000; step++) {
      boolean put = model.isEmpty() || (rnd.nextInt(100) < 55 && !freeIds.isEmpty());
      if (put) {
        BlockKey k = new BlockKey(rnd.nextInt(6), rnd.nextInt(4000) * 4096L);
        if (model.containsKey(k)) {
          continue;
        }
        int id = freeIds.remove(rnd.nextInt(freeIds.size()));
        slots.publish(id, k.file(), k.offset(), block(100 + rnd.nextInt(4000)), 0, ++stamp);
        index.add(k.file(), k.offset(), id, slots);
        files.added(k.file(), id);
        model.put(k, id);
      } else {
        List<BlockKey> keys = new ArrayList<>(model.keySet());
        BlockKey k = keys.get(rnd.nextInt(keys.size()));
        int id = model.remove(k);
        long word = slots.free(id);
        assertThat(BlockSlots.live(word)).as("seed %d step %d", seed.value(), step).isTrue();
        index.remove(k.file(), k.offset(), id);
        files.removed(k.file(), other -> BlockSlots.live(slots.word(other)) && slots.file(other) == k.file());
        freeIds.add(id);
      }
      if (step % 1000 == 0) {
        checkAgainst(model, slots, index, files, seed, step, rnd);
      }
    }
    checkAgainst(model, slots, index, files, seed, -1, rnd);
  }

  private static void checkAgainst(Map<BlockKey, Integer> model, BlockSlots slots, SlotIndex index,
      FileSlots files, Seed seed, int step, Random rnd) {
    assertThat(index.size()).as("seed %d step %d", seed.value(), step).isEqualTo(model.size());
    for (Map.Entry<BlockKey, Integer> e : model.entrySet()) {
      assertThat(index.find(e.getKey().file(), e.getKey().offset(), slots))
          .as("seed %d step %d: %s", seed.value(), step, e.getKey()).isEqualTo(e.getValue());
    }
    for (int i = 0; i < 200; i++) {
      BlockKey k = new BlockKey(rnd.nextInt(6), rnd.nextInt(4000) * 4096L);
      int expected = model.getOrDefault(k, -1);
      assertThat(index.find(k.file(), k.offset(), slots)).as("seed %d step %d: %s", seed.value(), step, k)
          .isEqualTo(expected);
    }
    // Each file's ids: every live block of the file among them, and at most twice their number plus slack.
    for (long f = 0; f < 6; f++) {
      final long file = f;
      List<Integer> live = model.entrySet().stream().filter(e -> e.getKey().file() == file).map(Map.Entry::getValue)
          .toList();
      int[] ids = files.takeFile(file); // takes the list out: put back below

      assertThat(ids.length).as("seed %d step %d: file %d", seed.value(), step, file)
          .isLessThanOrEqualTo(2 * live.size() + 8);
      List<Integer> held = new ArrayList<>();
      for (int id : ids) {
        held.add(id);
      }
      assertThat(held).as("seed %d step %d: file %d", seed.value(), step, file).containsAll(live);
      for (int id : live) {
        files.added(file, id);
      }
    }
  }

  @Test
  void aRemovedSlotIsNotFoundAndItsReuseIsSeenByItsVersion() {
    BlockSlots slots = new BlockSlots(1);
    slots.ensurePage(0);
    SlotIndex index = new SlotIndex();
    slots.publish(3, 7, 4096, block(1000), 0, 1);
    index.add(7, 4096, 3, slots);
    long first = slots.word(3);
    assertThat(index.find(7, 4096, slots)).isEqualTo(3);
    assertThat(BlockSlots.live(first)).isTrue();

    assertThat(slots.free(3)).isEqualTo(first);
    index.remove(7, 4096, 3);
    assertThat(index.find(7, 4096, slots)).isEqualTo(-1);
    assertThat(slots.free(3)).as("freed once only").isZero();

    slots.publish(3, 8, 0, block(2000), 0, 2);
    index.add(8, 0, 3, slots);
    long second = slots.word(3);
    assertThat(BlockSlots.version(second)).as("a reader that saw the first block sees the version move")
        .isNotEqualTo(BlockSlots.version(first));
    assertThat(slots.holds(3, 8, 0)).isTrue();
    assertThat(slots.length(3)).isEqualTo(2000);
    assertThat(slots.onDiskSize(3)).isEqualTo(2009);
    assertThat(slots.promote(3, first)).as("a promotion for the old block does not touch the new one").isFalse();
    assertThat(slots.promote(3, second)).isTrue();
    assertThat(BlockSlots.area(slots.word(3))).isEqualTo(BlockSlots.MULTI);
  }
}
