package io.bellows.hbase;

import java.io.IOException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Admin's per-region methods ({@code flushRegion}, {@code compactRegion}, {@code splitRegion}, ...).
 * Bellows flushes, compacts and splits whole tables, so none is supported; but HBase's shell calls
 * them first with whatever name it was given and, on {@link IllegalArgumentException} (HBase's
 * answer for a name that is not a region's), calls the table's method. So a name that is not a
 * region name is refused with that exception, passed to the caller unchanged; a region name is
 * refused as unsupported.
 */
final class RegionNames {
  private RegionNames() {}

  /** Not a region name; {@link Exceptions} lets it through as itself, as HBase's client throws it. */
  static final class NotARegionName extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    NotARegionName(String message) {
      super(message);
    }
  }

  static RuntimeException notSupported(String method, byte[] name) {
    try {
      RegionInfo.parseRegionName(name);
    } catch (IOException | RuntimeException e) {
      return new NotARegionName("not a region name: " + Bytes.toStringBinary(name));
    }
    return new UnsupportedOperationException("Admin." + method + " is not supported by Bellows: it acts on whole tables"
        + " (name the table): " + Bytes.toStringBinary(name));
  }
}
