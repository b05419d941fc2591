package io.bellows.wal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

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
   * Takes out and returns every file but {@code keep} (null for none) whose edits are all known to
   * be below {@code oldestUnflushedSeqId}: no store needs them any more.
   */
  List<WalFile> removeObsolete(long oldestUnflushedSeqId, WalFile keep) {
    List<WalFile> victims = new ArrayList<>();
    for (WalFile f : files.values()) {
      if (f != keep && f.seqKnown && f.maxSeqId < oldestUnflushedSeqId) {
        victims.add(f);
      }
    }
    for (WalFile f : victims) {
      files.remove(f.number);
    }
    return victims;
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
