package io.bellows.cache;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The off-heap cache's slot ids grouped by file, so that dropping a closed file's blocks costs the
 * number of its blocks rather than a walk of every slot: one growable int array per file, not a node
 * per block. Not thread-safe: used under the cache's lock.
 *
 * <p>An evicted block's id stays in its file's list (removing it would cost a search); the list is
 * compacted to the ids still holding the file's blocks when it grows past twice their number, and
 * dropped when the file has no block left. Callers check each id they are handed.
 */
final class FileSlots {
  private static final class Ids {
    int[] ids = new int[4];
    int size;
    int live;
  }

  private final Map<Long, Ids> byFile = new HashMap<>();

  void added(long file, int id) {
    Ids f = byFile.computeIfAbsent(file, k -> new Ids());
    if (f.size == f.ids.length) {
      f.ids = Arrays.copyOf(f.ids, f.size * 2);
    }
    f.ids[f.size++] = id;
    f.live++;
  }

  /**
   * One of the file's blocks left the cache; {@code holdsFile} tells whether an id still holds one
   * of the file's blocks (for the compaction).
   */
  void removed(long file, IntPredicate holdsFile) {
    Ids f = byFile.get(file);
    if (f == null) {
      return;
    }
    if (--f.live == 0) {
      byFile.remove(file);
    } else if (f.size > 2 * f.live + 8) {
      compact(f, holdsFile);
    }
  }

  /** Keeps the ids that still hold the file's blocks, each once (an id reused for the same file was added twice). */
  private static void compact(Ids f, IntPredicate holdsFile) {
    int n = 0;
    for (int i = 0; i < f.size; i++) {
      if (holdsFile.test(f.ids[i])) {
        f.ids[n++] = f.ids[i];
      }
    }
    Arrays.sort(f.ids, 0, n);
    int unique = 0;
    for (int i = 0; i < n; i++) {
      if (unique == 0 || f.ids[unique - 1] != f.ids[i]) {
        f.ids[unique++] = f.ids[i];
      }
    }
    f.size = unique;
  }

  /** Takes out the file's ids (some may no longer hold its blocks); empty if none. */
  int[] takeFile(long file) {
    Ids f = byFile.remove(file);
    return f == null ? new int[0] : Arrays.copyOf(f.ids, f.size);
  }

  /** Files with ids, for tests. */
  int fileCount() {
    return byFile.size();
  }
}
