package io.bellows.store;

import io.bellows.fs.FileSystem;
import io.bellows.sstable.BlockSource;
import io.bellows.sstable.IndexEntry;
import io.bellows.sstable.SortedFileReader;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks every block of one sorted file, read from the file itself (never a cache): the trailer,
 * metadata, index and Bloom blocks at open, then each data block by the index, decoding every
 * entry, and the cell count against the metadata. A damaged data block does not end the check:
 * every one is reported, each with its offset. Read-only; safe on a live file a reader holds open.
 */
public final class FileCheck {
  private FileCheck() {}

  /** One damage: the file, the offset of the damaged block (-1 if not a data block) and what is wrong. */
  public record Damage(Path file, long offset, String problem) {}

  /** What a check read and found. */
  public record Result(Path file, int blocks, long cells, List<Damage> damages) {
    public boolean clean() {
      return damages.isEmpty();
    }
  }

  /** Checks the file {@code path} (number {@code id}) of {@code fs}. */
  public static Result check(FileSystem fs, Path path, long id) {
    SortedFileReader r;
    try {
      r = SortedFileReader.open(fs, path, id, BlockSource.Wrapper.IDENTITY);
    } catch (StorageException e) {
      // Trailer, metadata, root index or Bloom block: the message names the file and the offset.
      return new Result(path, 0, 0, List.of(new Damage(path, -1, reason(e))));
    }
    try {
      List<Damage> damages = new ArrayList<>();
      List<IndexEntry> blocks;
      try {
        blocks = r.dataBlockIndex();
      } catch (StorageException e) {
        return new Result(path, 0, 0, List.of(new Damage(path, -1, reason(e))));
      }
      long cells = 0;
      for (IndexEntry e : blocks) {
        try {
          cells += r.checkDataBlock(e);
        } catch (StorageException ex) {
          damages.add(new Damage(path, e.offset(), reason(ex)));
        }
      }
      if (damages.isEmpty() && cells != r.metadata().cellCount()) {
        damages.add(new Damage(path, -1, path + ": holds " + cells + " cells, its metadata says "
            + r.metadata().cellCount()));
      }
      return new Result(path, blocks.size(), cells, List.copyOf(damages));
    } finally {
      r.release();
    }
  }

  private static String reason(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
