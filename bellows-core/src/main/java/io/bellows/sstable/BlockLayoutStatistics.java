package io.bellows.sstable;

import java.io.PrintStream;
import java.util.List;

/**
 * How a file's data blocks are sized: a histogram of uncompressed block sizes and the cells per
 * block (min, mean, max and a histogram), both in power-of-two buckets. Shows whether dynamic block
 * sizing (MIN_BLOCKSIZE, MAX_ENTRIES_PER_BLOCK) put small cells in small blocks. Immutable once
 * built.
 */
public final class BlockLayoutStatistics {
  private final PowerOfTwoHistogram sizes = new PowerOfTwoHistogram();
  private final PowerOfTwoHistogram cells = new PowerOfTwoHistogram();
  private final int blocks;
  private final long totalCells;
  private final long totalBytes;
  private final int minCells;
  private final int maxCells;

  public BlockLayoutStatistics(List<DataBlockSummary> summaries) {
    long cellSum = 0;
    long byteSum = 0;
    int min = Integer.MAX_VALUE;
    int max = 0;
    for (DataBlockSummary s : summaries) {
      sizes.add(s.uncompressedSize());
      cells.add(s.cells());
      cellSum += s.cells();
      byteSum += s.uncompressedSize();
      min = Math.min(min, s.cells());
      max = Math.max(max, s.cells());
    }
    this.blocks = summaries.size();
    this.totalCells = cellSum;
    this.totalBytes = byteSum;
    this.minCells = blocks == 0 ? 0 : min;
    this.maxCells = max;
  }

  public int blocks() {
    return blocks;
  }

  public int minCells() {
    return minCells;
  }

  public int maxCells() {
    return maxCells;
  }

  public double meanCells() {
    return blocks == 0 ? 0 : (double) totalCells / blocks;
  }

  public double meanBytes() {
    return blocks == 0 ? 0 : (double) totalBytes / blocks;
  }

  /** Blocks whose uncompressed size lies in the power-of-two bucket holding {@code bytes}. */
  public long blocksOfSizeNear(long bytes) {
    return sizes.countAt(bytes);
  }

  /** Blocks whose cell count lies in the power-of-two bucket holding {@code count}. */
  public long blocksWithCellsNear(long count) {
    return cells.countAt(count);
  }

  public void print(PrintStream out) {
    out.println("Data block sizes (uncompressed, power-of-two buckets):");
    if (blocks == 0) {
      out.println("  no data blocks");
      return;
    }
    out.println(String.format("  blocks=%d mean=%.1f bytes", blocks, meanBytes()));
    sizes.print(out, "  ", PowerOfTwoHistogram::bytes);
    out.println("Cells per block:");
    out.println(String.format("  min=%d mean=%.1f max=%d", minCells, meanCells(), maxCells));
    cells.print(out, "  ", String::valueOf);
  }
}
