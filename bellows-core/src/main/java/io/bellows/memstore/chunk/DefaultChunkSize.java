package io.bellows.memstore.chunk;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The chunk size used when {@code bellows.mslab.chunk.size} is 0 (its default): chosen from the
 * JVM's G1 heap region size so that a heap chunk is a G1 <i>humongous</i> object that fills its
 * regions. A humongous object is allocated directly outside the young generation, so young
 * collections never copy it; chunks live for seconds to minutes (as long as the memory store holds
 * their segment), and a chunk in the young generation is copied to a survivor region and then to
 * the old generation. Measured with 4 MiB regions (an 8 GB heap): 4 MiB − 64 chunks took 13–52% less
 * GC time than 2 MiB − 64 ones, which G1 treats as ordinary objects there (BENCHMARKS.md, "The
 * targets' workload: 8M rows at -Xmx8g, and chunks as large as a heap region").
 *
 * <p>The rule: G1 with regions of 1 to 8 MiB: {@code max(region, 2 MiB) − 64} bytes (an array's
 * header is 16 bytes, so the chunk and its header fit in its regions with nothing wasted, and 64
 * keeps it a multiple of 8). Any other collector, larger regions, or a JVM that does not say:
 * {@code 2 MiB − 64}, the size Bellows has always used.
 */
public final class DefaultChunkSize {
  static final long MIB = 1L << 20;
  /** The size when the region size is unknown, too large, or the collector is not G1. */
  public static final int FALLBACK = (int) (2 * MIB - 64);

  private DefaultChunkSize() {}

  /** The default chunk size for this JVM. */
  public static int forThisJvm() {
    return forRegionSize(g1RegionBytes());
  }

  /** The default chunk size for a G1 heap of {@code regionBytes} regions (0: not G1, or unknown). */
  static int forRegionSize(long regionBytes) {
    if (regionBytes < MIB || regionBytes > 8 * MIB) {
      return FALLBACK;
    }
    return (int) (Math.max(regionBytes, 2 * MIB) - 64);
  }

  /** G1's region size in bytes, or 0 if the collector is not G1 or the JVM does not tell. */
  static long g1RegionBytes() {
    try {
      HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      if (vm == null || !Boolean.parseBoolean(vm.getVMOption("UseG1GC").getValue())) {
        return 0;
      }
      return Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
    } catch (RuntimeException | LinkageError e) {
      return 0; // not a HotSpot JVM, or the option is unknown: keep the fallback
    }
  }
}
