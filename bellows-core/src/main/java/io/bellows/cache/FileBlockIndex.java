package io.bellows.cache;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keys a cache level holds, grouped by file, so that dropping a closed file's blocks costs the
 * number of its blocks, not a walk of the whole cache (the walk would run on whichever thread
 * released the file last, possibly a reader's). Thread-safe.
 *
 * <p>A key is added after its block is published in the level's map and removed after it left it.
 * A block that leaves and is put again at once can have its new add land before the old removal:
 * a level whose removals and puts are not under one lock checks its map after removing a key and
 * adds it back if it is mapped again. A file's keys are taken out only when no reader of the file is
 * left ({@link BlockCache#evictFile}), so no put of that file races with it.
 */
final class FileBlockIndex {
  private final ConcurrentHashMap<Long, Set<BlockKey>> byFile = new ConcurrentHashMap<>();

  void added(BlockKey key) {
    byFile.computeIfAbsent(key.file(), f -> ConcurrentHashMap.newKeySet()).add(key);
  }

  void removed(BlockKey key) {
    Set<BlockKey> keys = byFile.get(key.file());
    if (keys != null) {
      keys.remove(key);
    }
  }

  /** Takes out and returns the file's keys (empty if none). */
  Set<BlockKey> takeFile(long file) {
    Set<BlockKey> keys = byFile.remove(file);
    return keys == null ? Set.of() : keys;
  }

  /** Files with keys (or emptied sets not yet taken), for tests. */
  int fileCount() {
    return byFile.size();
  }
}
