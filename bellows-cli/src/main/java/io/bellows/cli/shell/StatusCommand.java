package io.bellows.cli.shell;

import io.bellows.engine.Engine;
import io.bellows.engine.RegionInfo;
import java.util.Locale;
import java.util.Map;

/**
 * {@code status}: HBase's summary line, adapted honestly to one engine — one active "master" and
 * one server (the engine), none dead, the average load being its online regions — then what
 * Bellows can say of that engine in HBase's {@code key=value} style: tables, online regions (of
 * enabled tables), sorted files and their bytes, memory-store bytes, the memory-store limit and
 * used heap when the engine reports them, and its background error. Over {@code --connect} these
 * are the server's numbers.
 */
public record StatusCommand() implements Command {
  @Override
  public void execute(ShellContext ctx) {
    Engine engine = ctx.engine();
    int tables = 0;
    int disabled = 0;
    long regions = 0;
    long files = 0;
    long fileBytes = 0;
    long memBytes = 0;
    for (String t : engine.listTables()) {
      tables++;
      if (!engine.isTableEnabled(t)) {
        disabled++; // its regions are closed: not online, as in HBase
        continue;
      }
      for (RegionInfo r : engine.regions(t)) {
        regions++;
        files += r.storeFiles();
        fileBytes += r.storeFileBytes();
        memBytes += r.memStoreBytes();
      }
    }
    TablePrinter p = ctx.printer();
    p.line(String.format(Locale.ROOT, "1 active master, 0 backup masters, 1 servers, 0 dead, %.4f average load",
        (double) regions));
    Map<String, Number> m = engine.metrics();
    p.line("numberOfTables=" + tables + " (" + disabled + " disabled), numberOfOnlineRegions=" + regions
        + ", numberOfStorefiles=" + files + ", storefileSizeBytes=" + fileBytes + ", memstoreSizeBytes=" + memBytes
        + metric(m, "memstore.global.limit.bytes", "memstoreLimitBytes") + metric(m, "jvm.heap.used", "usedHeapBytes"));
    p.line("background error: " + engine.backgroundError().map(BackgroundErrorCommand::describe).orElse("none"));
  }

  private static String metric(Map<String, Number> m, String name, String label) {
    Number v = m.get(name);
    return v == null ? "" : ", " + label + "=" + v;
  }
}
