package io.bellows.cli.shell;

import io.bellows.engine.ClusterStatus;
import io.bellows.engine.RegionInfo;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code list_regions}: one line per region of a table, in key order, in the layout of HBase's
 * {@code list_regions} (right-aligned columns between {@code |}, a dashed line under the header, an
 * {@code N rows} footer). Columns: the region id, start and end key (printable, empty for
 * unbounded), SIZE (bytes of its sorted files), STOREFILES (their number), MEMSTORE_SIZE (bytes of
 * data in its memory stores). HBase's SERVER_NAME, REQ and LOCALITY have no meaning in an embedded
 * engine and are left out; its SIZE is in MB, Bellows' in bytes. A disabled table is refused, as
 * HBase refuses it.
 *
 * <p>Over a cluster, one line per replica of each region (HBase lists a region's replicas so too),
 * its leader's first: SERVER_NAME (the member's id and address), the region and its keys, ROLE
 * (Raft's: LEADER, FOLLOWER, CANDIDATE), TERM, APPLIED_INDEX (the last log entry it applied), LAG
 * (entries behind the leader, as both reported), and the replica's own sizes; then a line for each
 * member that did not answer, whose replicas are unknown.
 */
public record ListRegionsCommand(String table) implements Command {
  static final List<String> COLUMNS = List.of("REGION_ID", "START_KEY", "END_KEY", "SIZE", "STOREFILES",
      "MEMSTORE_SIZE");
  static final List<String> CLUSTER_COLUMNS = List.of("SERVER_NAME", "REGION_ID", "START_KEY", "END_KEY", "ROLE", "TERM",
      "APPLIED_INDEX", "LAG", "SIZE", "STOREFILES", "MEMSTORE_SIZE");

  @Override
  public void execute(ShellContext ctx) {
    ctx.requireEnabledTable(table, List.of()); // as HBase: a disabled table's regions are not served
    List<RegionInfo> regions = ctx.engine().regions(table);
    Optional<ClusterStatus> cluster = ctx.engine().clusterStatus();
    if (cluster.isPresent()) {
      printReplicas(ctx, regions, cluster.get());
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    for (RegionInfo r : regions) {
      rows.add(List.of(String.valueOf(r.id()), Bytes.toStringBinary(r.startKey()), Bytes.toStringBinary(r.endKey()),
          String.valueOf(r.storeFileBytes()), String.valueOf(r.storeFiles()), String.valueOf(r.memStoreBytes())));
    }
    for (String line : render(COLUMNS, rows)) {
      ctx.printer().line(line);
    }
    ctx.printer().line(" " + rows.size() + " rows");
  }

  private void printReplicas(ShellContext ctx, List<RegionInfo> regions, ClusterStatus c) {
    List<List<String>> rows = new ArrayList<>();
    for (RegionInfo region : regions) {
      for (ClusterStatus.Replica r : c.replicasOf(table)) {
        if (r.regionId() != region.id()) {
          continue;
        }
        String lag = r.leads() ? "0" : c.lag(r).map(String::valueOf).orElse("?");
        rows.add(List.of(StatusCommand.member(c, r.member()), String.valueOf(region.id()),
            Bytes.toStringBinary(region.startKey()), Bytes.toStringBinary(region.endKey()), r.role(),
            String.valueOf(r.term()), String.valueOf(r.appliedIndex()), lag, String.valueOf(r.storeFileBytes()),
            String.valueOf(r.storeFiles()), String.valueOf(r.memStoreBytes())));
      }
    }
    for (String line : render(CLUSTER_COLUMNS, rows)) {
      ctx.printer().line(line);
    }
    ctx.printer().line(" " + rows.size() + " rows");
    for (ClusterStatus.Member m : c.members()) {
      if (!m.reported()) {
        ctx.printer().line(" " + m.id() + " " + m.address() + " did not answer: its replicas are not listed");
      }
    }
  }

  /** The header, the dashed line and the rows, each cell right-aligned to its column's width. */
  static List<String> render(List<String> columns, List<List<String>> rows) {
    int[] width = new int[columns.size()];
    for (int c = 0; c < width.length; c++) {
      width[c] = columns.get(c).length();
      for (List<String> r : rows) {
        width[c] = Math.max(width[c], r.get(c).length());
      }
    }
    List<String> out = new ArrayList<>();
    out.add(line(columns, width, ' '));
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
