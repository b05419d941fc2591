package io.bellows.bench;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** {@link PaperStore} over Bellows' public API: table {@code usertable} configured as {@link EngineRun} does. */
final class BellowsPaperStore implements PaperStore {
  private final Bellows db;
  private final Table table;

  BellowsPaperStore(Path dir, StoreConfig config, EngineWorkload w) {
    this.db = Bellows.open(dir, EngineRun.engineOptions(config, w.engineSettings()));
    db.createTable(TableDescriptor.builder(EngineRun.TABLE)
        .durability(w.durability())
        .flushSize(config.flushSize())
        .family(config.family())
        .build(), w.splitKeys());
    this.table = db.getTable(EngineRun.TABLE);
  }

  @Override
  public void write(List<Put> rows) {
    table.put(rows);
  }

  @Override
  public boolean getCell(byte[] row, byte[] qualifier) {
    return !table.get(new Get(row).addColumn(PaperRows.FAMILY, qualifier)).isEmpty();
  }

  @Override
  public int scan(byte[] startRow, int rows) {
    int n = 0;
    try (ResultScanner s = table.getScanner(new Scan().withStartRow(startRow).setLimit(rows))) {
      for (Result r : s) {
        n++;
      }
    }
    return n;
  }

  @Override
  public void flush() {
    db.flush(EngineRun.TABLE);
  }

  @Override
  public Counters counters() {
    Map<String, Number> m = db.metrics();
    return new Counters(value(m, "flush.count"), value(m, "compaction.count"), value(m, "flush.bytes.written"),
        value(m, "compaction.bytes.written"), value(m, "wal.bytes.appended"), value(m, "writes.blocked.nanos"),
        value(m, "store.files"));
  }

  private static long value(Map<String, Number> m, String name) {
    Number n = m.get(name);
    return n == null ? 0 : n.longValue();
  }

  @Override
  public void close() {
    db.close();
  }
}
