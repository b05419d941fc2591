package io.bellows.store;

import io.bellows.compaction.CompactionTarget;
import io.bellows.scan.CellScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.sstable.BlockCaching;
import io.bellows.sstable.BlockSource;
import io.bellows.util.CorruptionException;
import io.bellows.util.DamagedFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * A store's files as a compaction's target: the output is written into the store's directory under
 * a new file number and committed through the store's manifest ({@link StoreFiles#commit}, which
 * deletes the inputs after their last reader), and a damaged input goes to {@link StoreDamage}.
 */
final class StoreCompactionTarget implements CompactionTarget<StoreFile> {
  private final Path dir;
  private final StoreContext ctx;
  private final StoreFiles files;
  private final StoreDamage damage;
  private final BlockCaching caching;
  private final BlockSource.Wrapper blockWrapper;

  StoreCompactionTarget(Path dir, StoreContext ctx, StoreFiles files, StoreDamage damage, BlockCaching caching,
      BlockSource.Wrapper blockWrapper) {
    this.dir = dir;
    this.ctx = ctx;
    this.files = files;
    this.damage = damage;
    this.caching = caching;
    this.blockWrapper = blockWrapper;
  }

  @Override
  public List<StoreFile> liveFiles() {
    return files.live();
  }

  @Override
  public DamagedFileException knownDamage() {
    return damage.damage();
  }

  @Override
  public StoreFile write(CellScanner merged, RetentionFilter.Mode mode, long expectedCells, boolean major) {
    long fileId = ctx.fileNumbers().allocate();
    return StoreFileWriting.write(dir, fileId, ctx, merged, StoreFileWriting.retention(ctx, mode), expectedCells,
        major, caching, blockWrapper, false);
  }

  @Override
  public void commit(StoreFile written, List<StoreFile> inputs) {
    files.commit(written == null ? List.of() : List.of(written), inputs, files.flushedSeqId());
  }

  @Override
  public RuntimeException damaged(List<StoreFile> inputs, CorruptionException e) {
    return damage.classify(inputs, e);
  }
}
