package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;
import java.util.List;
import java.util.Map;

/**
 * The memory store of one column family (one store): absorbs writes, serves reads of unflushed data,
 * and hands its contents to a disk flush as a snapshot. Implementations: the classic single skiplist
 * ({@code NONE}) and the Accordion compacting memory store ({@code BASIC}, {@code EAGER},
 * {@code ADAPTIVE}); {@link MemStores#create} picks one from the family's settings.
 *
 * <p>Thread-safety: {@link #add} is called concurrently by many writers and concurrently with reads
 * and with one flush at a time; {@link #snapshot} and {@link #releaseSnapshot} are called by the
 * store's flusher only, never concurrently with each other. The memory store never calls up into
 * the store, region or WAL; it reports through {@link MemStoreContext}.
 */
public interface MemStore extends AutoCloseable {
  /**
   * Adds one cell whose sequence id is already stamped. The cell's bytes may be copied (MSLAB) or
   * referenced; the caller must not modify them afterwards. Never blocks beyond an atomic swap.
   */
  void add(Cell cell);

  /**
   * Adds cells whose sequence ids are already stamped, as {@link #add} of each in order would, but
   * entering the active segment and updating the memory accounting once per slice of cells rather
   * than once per cell (a mini-batch's cells arrive together).
   */
  default void addAll(List<Cell> cells) {
    for (Cell c : cells) {
      add(c);
    }
  }

  /** Current memory accounting; O(1), never walks the data. */
  MemStoreSize size();

  /**
   * Scanners over every segment that holds data, in the order active, pipeline (newest first),
   * snapshot — so that a segment moving from one to the next during the call is seen at least once;
   * readers drop exact duplicates. The caller closes every scanner; closing releases the segments.
   */
  List<CellScanner> scanners();

  /**
   * Moves all current contents (active segment and pipeline) into the snapshot for a disk flush and
   * returns it. Throws {@link IllegalStateException} if the previous snapshot was not released.
   * Returns an empty snapshot (cellCount 0) if there is nothing to flush.
   */
  FlushSnapshot snapshot();

  /** Frees the snapshot after its sorted file is live (or after its data is otherwise durable). */
  void releaseSnapshot(FlushSnapshot snapshot);

  /**
   * The smallest sequence id of any cell in memory (active, pipeline, snapshot), or {@link
   * Long#MAX_VALUE} if empty. The WAL keeps every log file holding an edit at or above the minimum
   * of this over all stores.
   */
  long oldestUnflushedSeqId();

  /** Named counters and gauges for metrics and the shell's {@code stats}. */
  Map<String, Number> metrics();

  /** The segments now: the active one, then the pipeline's (newest first), then the snapshot's. */
  List<SegmentInfo> segments();

  /** Frees all memory, snapshot included. The memory store is unusable afterwards. */
  @Override
  void close();
}
