package io.bellows.engine;

import java.util.UUID;

/**
 * One region of a table as {@link Engine#regions} reports it: its engine-wide id, its row-key range
 * (start inclusive, end exclusive; an empty key is unbounded) and, for an enabled table, its size
 * now: the bytes and number of its sorted files and the bytes of data in its memory stores (all
 * three 0 for a disabled table, whose regions are not open).
 *
 * <p>{@code identity} is unique across data directories (the id is unique within one only), and
 * {@code seqIdBase} is the base of the region's sequence ids: every edit of the region is numbered
 * above it (see the catalog in docs/FORMAT.md). A report that does not know them (a remote engine
 * that does not send them) has a null identity and base 0.
 */
public record RegionInfo(int id, byte[] startKey, byte[] endKey, long storeFileBytes, int storeFiles,
    long memStoreBytes, UUID identity, long seqIdBase) {

  /** A region whose identity and sequence id base are not known. */
  public RegionInfo(int id, byte[] startKey, byte[] endKey, long storeFileBytes, int storeFiles, long memStoreBytes) {
    this(id, startKey, endKey, storeFileBytes, storeFiles, memStoreBytes, null, 0);
  }
}
