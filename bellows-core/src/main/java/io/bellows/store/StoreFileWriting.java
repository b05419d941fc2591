package io.bellows.store;

import io.bellows.cell.Cell;
import io.bellows.fs.AtomicFiles;
import io.bellows.manifest.StoreManifest;
import io.bellows.scan.CellScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.scan.RetentionFilters;
import io.bellows.sstable.BlockCaching;
import io.bellows.sstable.BlockSource;
import io.bellows.sstable.SortedFileOptions;
import io.bellows.sstable.SortedFileWriter;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a sorted stream of cells, through a retention filter, to a new sorted file of a store: to
 * a temporary name first, forced, then renamed to its final name (the manifest, written after, makes
 * it live). A crash before the manifest write leaves a file the store deletes on open.
 */
final class StoreFileWriting {
  private StoreFileWriting() {}

  /** The retention filter a rewrite in {@code mode} applies now: the store's rules at its readers' smallest read point. */
  static RetentionFilter retention(StoreContext ctx, RetentionFilter.Mode mode) {
    return RetentionFilters.create(ctx.options().retention(), mode, ctx.smallestReadPoint().getAsLong(),
        ctx.clock().currentTimeMillis());
  }

  /**
   * Returns the new file, opened through {@code blocks}, or null if every cell was filtered out (no
   * file is created then). A flush ({@code flush}) offers its data blocks to the block cache as it
   * writes them if the family caches on write; a compaction never does (its output is mostly cold).
   */
  static StoreFile write(Path dir, long fileId, StoreContext ctx,
      CellScanner input, RetentionFilter filter, long expectedCells, boolean major,
      BlockCaching caching, BlockSource.Wrapper blocks, boolean flush) {
    Path finalPath = dir.resolve(StoreManifest.fileName(fileId));
    Path tmp = dir.resolve(StoreManifest.fileName(fileId) + ".tmp");
    SortedFileOptions options = ctx.options().files().toBuilder()
        .expectedCellCount(Math.max(1, expectedCells))
        .majorCompaction(major)
        .compression(ctx.options().compressionOf(flush, major))
        .build();
    SortedFileWriter writer = SortedFileWriter.create(ctx.fs(), tmp, options, ctx.clock());
    java.util.function.Consumer<io.bellows.sstable.Block> cacheOnWrite = flush ? caching.onFlushedBlock(fileId) : null;
    if (cacheOnWrite != null) {
      writer.onDataBlock(cacheOnWrite);
    }
    long kept = 0;
    try {
      input.seek(io.bellows.cell.Cells.firstOnRow(io.bellows.util.Bytes.EMPTY));
      Cell c;
      Cell previous = null;
      while ((c = input.next()) != null) {
        if (previous != null && io.bellows.cell.CellComparator.sameWrite(previous, c)) {
          continue; // the same cell seen through two segments
        }
        previous = c;
        if (filter.keep(c)) {
          writer.append(c);
          kept++;
        }
      }
      if (kept == 0) {
        writer.abort();
        caching.forget(fileId);
        return null;
      }
      writer.finish();
      AtomicFiles.moveAtomically(ctx.fs(), tmp, finalPath);
    } catch (IOException e) {
      writer.abort();
      caching.forget(fileId);
      throw new StorageException("cannot write " + finalPath, e);
    } catch (RuntimeException | Error e) {
      writer.abort(); // an Error too: the open temporary file is not left behind
      caching.forget(fileId);
      throw e;
    }
    return StoreFile.open(ctx.fs(), finalPath, fileId, ctx.engineInstanceId(), blocks);
  }
}
