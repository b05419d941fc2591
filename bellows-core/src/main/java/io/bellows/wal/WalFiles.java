package io.bellows.wal;

import io.bellows.fs.FileSystem;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The table of the log's files, in number order: the pre-existing ones not yet deleted and those
 * created since open. Not thread-safe: every method is called with the log's {@code appendLock}
 * held (which also guards each {@link WalFile}'s fields).
 */
final class WalFiles {
  private final TreeMap<Long, WalFile> files = new TreeMap<>();

  void add(WalFile f) {
    files.put(f.number, f);
  }

  void remove(WalFile f) {
    files.remove(f.number);
  }

  /**
   * Takes out and returns every file but {@code keep} (null for none) whose edits are known and
   * needed by no region any more.
   */
  List<WalFile> removeObsolete(OldestNeeded oldestNeeded, WalFile keep) {
    List<WalFile> victims = new ArrayList<>();
    for (WalFile f : files.values()) {
      if (f != keep && !f.needed(oldestNeeded)) {
        victims.add(f);
      }
    }
    for (WalFile f : victims) {
      files.remove(f.number);
    }
    return victims;
  }

  /** The regions that still need an edit of the oldest file other than {@code keep}; empty if there is none. */
  Set<Integer> regionsPinningOldest(OldestNeeded oldestNeeded, WalFile keep) {
    Set<Integer> out = new TreeSet<>();
    for (WalFile f : files.values()) {
      if (f == keep) {
        break;
      }
      if (f.seqKnown) {
        f.regionMaxSeqIds.forEach((region, max) -> {
          if (max >= oldestNeeded.of(region)) {
            out.add(region);
          }
        });
      }
      if (!out.isEmpty()) {
        break;
      }
    }
    return out;
  }

  /** Deletes the files taken out of the table; throws at the first that cannot be deleted. */
  static void delete(FileSystem fs, List<WalFile> victims) {
    for (WalFile f : victims) {
      try {
        fs.delete(f.path);
      } catch (IOException e) {
        throw new StorageException("cannot delete WAL file " + f.path, e);
      }
    }
  }

  int size() {
    return files.size();
  }

  List<Path> paths() {
    List<Path> out = new ArrayList<>(files.size());
    files.values().forEach(f -> out.add(f.path));
    return out;
  }
}
