package io.bellows.cli.shell;

import io.bellows.engine.RegionInfo;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code list_regions}: one line per region of a table, in key order, in the layout of HBase's
 * {@code list_regions} (right-aligned columns between {@code |}, a dashed line under the header, an
 * {@code N rows} footer). Columns: the region id, start and end key (printable, empty for
 * unbounded), SIZE (bytes of its sorted files), STOREFILES (their number), MEMSTORE_SIZE (bytes of
 * data in its memory stores). HBase's SERVER_NAME, REQ and LOCALITY have no meaning in an embedded
 * engine and are left out; its SIZE is in MB, Bellows' in bytes. A disabled table is refused, as
 * HBase refuses it.
 */
public record ListRegionsCommand(String table) implements Command {
  static final List<String> COLUMNS = List.of("REGION_ID", "START_KEY", "END_KEY", "SIZE", "STOREFILES",
      "MEMSTORE_SIZE");

  @Override
  public void execute(ShellContext ctx) {
    ctx.requireEnabledTable(table, List.of()); // as HBase: a disabled table's regions are not served
    List<List<String>> rows = new ArrayList<>();
    for (RegionInfo r : ctx.engine().regions(table)) {
      rows.add(List.of(String.valueOf(r.id()), Bytes.toStringBinary(r.startKey()), Bytes.toStringBinary(r.endKey()),
          String.valueOf(r.storeFileBytes()), String.valueOf(r.storeFiles()), String.valueOf(r.memStoreBytes())));
    }
    for (String line : render(rows)) {
      ctx.printer().line(line);
    }
    ctx.printer().line(" " + rows.size() + " rows");
  }

  /** The header, the dashed line and the rows, each cell right-aligned to its column's width. */
  static List<String> render(List<List<String>> rows) {
    int[] width = new int[COLUMNS.size()];
    for (int c = 0; c < width.length; c++) {
      width[c] = COLUMNS.get(c).length();
      for (List<String> r : rows) {
        width[c] = Math.max(width[c], r.get(c).length());
      }
    }
    List<String> out = new ArrayList<>();
    out.add(line(COLUMNS, width, ' '));
    List<String> dashes = new ArrayList<>();
    for (int w : width) {
      dashes.add("-".repeat(w));
    }
    out.add(line(dashes, width, ' '));
    for (List<String> r : rows) {
      out.add(line(r, width, ' '));
    }
    return out;
  }

  private static String line(List<String> cells, int[] width, char pad) {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < width.length; c++) {
      String v = cells.get(c);
      sb.append(' ').append(String.valueOf(pad).repeat(width[c] - v.length())).append(v).append(" |");
    }
    return sb.toString();
  }
}
