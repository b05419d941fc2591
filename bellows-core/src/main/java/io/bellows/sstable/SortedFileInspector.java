package io.bellows.sstable;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Prints a sorted file's structure as readable text for {@code bellows inspect FILE}: trailer,
 * metadata, every data block (offset, on-disk size, cells, first key), the block layout (histograms
 * of block sizes and cells per block), index levels with their entry counts, and the Bloom filter.
 * Reads the file through a fresh reader; stateless.
 */
public final class SortedFileInspector {
  private SortedFileInspector() {}

  public static void print(Path file, PrintStream out) {
    SortedFileReader r = SortedFileReader.open(file, -1);
    try {
      Trailer t = r.trailer();
      out.println("File: " + file);
      out.println("Trailer:");
      out.println("  formatVersion=" + t.version());
      out.println("  dataEnd=" + t.dataEnd());
      out.println("  rootIndex offset=" + t.rootIndexOffset() + " size=" + t.rootIndexSize() + " levels=" + t.indexLevels());
      out.println("  meta offset=" + t.metaOffset() + " size=" + t.metaSize());
      out.println("  bloom offset=" + t.bloomOffset() + " size=" + t.bloomSize());
      out.println("Metadata:");
      for (String line : r.metadata().toString().split("\n")) {
        out.println("  " + line);
      }
      java.util.List<java.util.List<IndexEntry>> levels = r.index().allLevels();
      java.util.List<DataBlockSummary> blocks = DataBlockSummary.of(r);
      out.println("Data blocks:");
      int n = 0;
      for (DataBlockSummary b : blocks) {
        out.println("  #" + n + " offset=" + b.offset() + " onDiskSize=" + b.onDiskSize() + " uncompressed="
            + b.uncompressedSize() + " cells=" + b.cells() + " firstKey=" + b.first());
        n++;
      }
      new BlockLayoutStatistics(blocks).print(out);
      out.println("Index:");
      out.println("  levels=" + levels.size());
      for (int i = 0; i < levels.size(); i++) {
        String what = i == 0 ? "root" : i == levels.size() - 1 ? "leaf" : "intermediate";
        out.println("  level " + (levels.size() - i) + " (" + what + "): " + levels.get(i).size() + " entries");
      }
      BloomFilter bloom = r.bloomFilter();
      out.println("Bloom:");
      if (bloom == null) {
        out.println("  type=NONE");
      } else {
        out.println("  type=" + bloom.type() + " layout=" + bloom.layout() + " bits=" + bloom.numBits() + " hashes=" + bloom.hashCount() + " keys="
            + bloom.keyCount() + " targetFpRate=" + r.metadata().bloomErrorRate()
            + String.format(" expectedFpRate=%.6f", bloom.expectedFalsePositiveRate()));
      }
    } finally {
      r.release();
    }
  }
}
