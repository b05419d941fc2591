package io.bellows.cli.shell;

import io.bellows.engine.SnapshotInfo;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code list_snapshots ['regex']}: the snapshots whose whole name matches, in name order, in
 * HBase's layout: {@code SNAPSHOT} / {@code TABLE + CREATION TIME}, {@code table (yyyy-MM-dd
 * HH:mm:ss +0000)} per snapshot (in UTC, so that output compares across machines), {@code N row(s)}.
 */
public record ListSnapshotsCommand(Pattern filter) implements Command {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

  @Override
  public void execute(ShellContext ctx) {
    List<SnapshotInfo> shown = ctx.engine().listSnapshots().stream()
        .filter(s -> filter == null || filter.matcher(s.name()).matches())
        .toList();
    TablePrinter p = ctx.printer();
    p.header("SNAPSHOT", "TABLE + CREATION TIME");
    for (SnapshotInfo s : shown) {
      p.row(s.name(), s.table() + " (" + TIME.format(Instant.ofEpochMilli(s.createdMillis())) + ")");
    }
    p.footer(shown.size());
  }
}
