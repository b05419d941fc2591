package io.bellows.engine;

/**
 * One region of a table as {@link Engine#regions} reports it: its engine-wide id, its row-key range
 * (start inclusive, end exclusive; an empty key is unbounded) and, for an enabled table, its size
 * now: the bytes and number of its sorted files and the bytes of data in its memory stores (all
 * three 0 for a disabled table, whose regions are not open).
 */
public record RegionInfo(int id, byte[] startKey, byte[] endKey, long storeFileBytes, int storeFiles,
    long memStoreBytes) {}
