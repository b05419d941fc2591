package io.bellows.sstable;

import io.bellows.cell.Cell;
import java.util.ArrayList;
import java.util.List;

/**
 * One data block as inspection sees it: where it lies, its on-disk and uncompressed sizes, how many
 * cells it holds and its first cell.
 */
public record DataBlockSummary(long offset, int onDiskSize, int uncompressedSize, int cells, Cell first) {
  /**
   * Reads every data block of the file in order, from the file (never the cache), decoding each
   * completely: a malformed block is reported as corruption naming its offset. For inspection and
   * tests; it reads the whole file.
   */
  public static List<DataBlockSummary> of(SortedFileReader r) {
    List<DataBlockSummary> out = new ArrayList<>();
    for (IndexEntry e : r.dataBlockIndex()) {
      Block b = r.readDataBlock(e.offset(), e.onDiskSize(), false);
      DataBlockCursor c = r.cursor(b);
      Cell first = null;
      int cells = 0;
      try {
        for (c.seekToFirst(); c.valid(); c.advance()) {
          if (first == null) {
            first = c.current();
          }
          cells++;
        }
      } catch (MalformedBlockException ex) {
        throw r.corrupt(b.offset(), ex);
      }
      out.add(new DataBlockSummary(b.offset(), b.onDiskSize(), b.payload().length, cells, first));
    }
    return out;
  }
}
