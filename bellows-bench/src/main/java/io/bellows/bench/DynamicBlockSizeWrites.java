package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.sstable.FileMetadata;
import io.bellows.sstable.SortedFileOptions;
import io.bellows.sstable.SortedFileWriter;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Writing one sorted file with static 64 KiB blocks against dynamic blocks D(32) (MIN_BLOCKSIZE 4
 * KiB, BLOCKSIZE 64 KiB, MAX_ENTRIES_PER_BLOCK 32), on two cell mixes held in memory: the paper's
 * rows (1 M rows of 4 columns × 25 B values) and a heavy-tailed mix (250 K rows of 4 columns whose
 * values follow a Pareto law, α = 1.1 from 16 B, capped at 64 KiB: most are tens of bytes, a few are
 * tens of KiB). Prints per mix and mode the median write throughput of {@code rounds} timed rounds
 * (after one untimed), and the file's data blocks, mean block size, index size and file size.
 *
 * <p>Run: {@code java -Xmx3g -cp bellows-bench/target/benchmarks.jar
 * io.bellows.bench.DynamicBlockSizeWrites [dir] [rounds]}.
 */
public final class DynamicBlockSizeWrites {
  private static final byte[] FAMILY = Bytes.of("f");
  private static final byte[][] QUALIFIERS = {Bytes.of("c0"), Bytes.of("c1"), Bytes.of("c2"), Bytes.of("c3")};

  private DynamicBlockSizeWrites() {}

  public static void main(String[] args) throws IOException {
    Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("bellows-blocks");
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Files.createDirectories(dir);
    run(dir, "paper 1M x 4 x 25 B", paperRows(1_000_000), rounds);
    run(dir, "heavy-tailed 250K x 4", heavyTailedRows(250_000, 42), rounds);
  }

  private static void run(Path dir, String mix, List<Cell> cells, int rounds) throws IOException {
    long bytes = 0;
    for (Cell c : cells) {
      bytes += c.length();
    }
    System.out.printf("%s: %,d cells, %.1f MB of cells%n", mix, cells.size(), bytes / 1e6);
    System.out.println("| mode | MB/s (median) | M cells/s | data blocks | mean block B | index B | file B |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|");
    SortedFileOptions base = SortedFileOptions.builder().expectedCellCount(cells.size()).build();
    report(dir, "static 64 KiB", base, cells, bytes, rounds);
    report(dir, "D(32)", base.toBuilder().minBlockSize(4096).maxEntriesPerBlock(32).build(), cells, bytes, rounds);
  }

  private static void report(Path dir, String mode, SortedFileOptions o, List<Cell> cells, long bytes, int rounds)
      throws IOException {
    double[] seconds = new double[rounds];
    FileMetadata meta = null;
    for (int i = -1; i < rounds; i++) {
      Path p = dir.resolve("blocks.sst");
      Files.deleteIfExists(p);
      long start = System.nanoTime();
      SortedFileWriter w = SortedFileWriter.create(p, o);
      for (Cell c : cells) {
        w.append(c);
      }
      meta = w.finish();
      double s = (System.nanoTime() - start) / 1e9;
      if (i >= 0) {
        seconds[i] = s;
      }
      Files.delete(p);
    }
    Arrays.sort(seconds);
    double median = seconds[rounds / 2];
    System.out.printf("| %s | %.0f | %.2f | %,d | %,d | %,d | %,d |%n", mode, bytes / 1e6 / median,
        cells.size() / 1e6 / median, meta.dataBlockCount(), meta.uncompressedDataSize() / meta.dataBlockCount(),
        meta.indexSize(), meta.fileSize());
  }

  static List<Cell> paperRows(int rows) {
    SplittableRandom rnd = new SplittableRandom(7);
    List<Cell> cells = new ArrayList<>(rows * 4);
    for (int r = 0; r < rows; r++) {
      byte[] row = Bytes.of(String.format("user%010d", r));
      for (byte[] q : QUALIFIERS) {
        cells.add(cell(row, q, randomBytes(rnd, 25)));
      }
    }
    return cells;
  }

  static List<Cell> heavyTailedRows(int rows, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Cell> cells = new ArrayList<>(rows * 4);
    for (int r = 0; r < rows; r++) {
      byte[] row = Bytes.of(String.format("user%010d", r));
      for (byte[] q : QUALIFIERS) {
        double u = 1 - rnd.nextDouble(); // (0, 1]
        int size = (int) Math.min(64 * 1024, 16 * Math.pow(u, -1 / 1.1));
        cells.add(cell(row, q, randomBytes(rnd, size)));
      }
    }
    return cells;
  }

  private static Cell cell(byte[] row, byte[] qualifier, byte[] value) {
    Cell c = Cells.put(row, FAMILY, qualifier, 1, value);
    c.setSeqId(1);
    return c;
  }

  private static byte[] randomBytes(SplittableRandom rnd, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i += 8) {
      long v = rnd.nextLong();
      for (int j = i; j < Math.min(n, i + 8); j++) {
        b[j] = (byte) v;
        v >>>= 8;
      }
    }
    return b;
  }
}
