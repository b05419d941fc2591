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
   * needed by no region any more — a fenced file only together with the file after it.
   *
   * <p>A fenced file and the next one, whose header says where the fenced file's forced part ends,
   * are read as a pair by replay, which takes the fence for the file just before the one naming
   * it. So they go together or not at all (a chain of them, if the next one was fenced too): were
   * the next one deleted alone, the fenced file's damaged tail would meet replay as corruption;
   * were the fenced file deleted alone, the fence would cut the file kept before it, and drop its
   * acknowledged edits.
   */
  List<WalFile> removeObsolete(OldestNeeded oldestNeeded, WalFile keep) {
    List<WalFile> victims = new ArrayList<>();
    List<WalFile> chain = new ArrayList<>(); // files linked by fences, ending with one that is not fenced
    boolean chainNeeded = false;
    for (WalFile f : files.values()) {
      chain.add(f);
      chainNeeded |= f == keep || f.needed(oldestNeeded);
      if (!f.fenced) {
        if (!chainNeeded) {
          victims.addAll(chain);
        }
        chain.clear();
        chainNeeded = false;
      }
    }
    // A chain still open holds the last file, fenced with no file after it yet (the log failed): it stays.
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
