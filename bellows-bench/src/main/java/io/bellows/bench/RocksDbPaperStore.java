package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.client.Put;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * {@link PaperStore} over RocksDB, with {@link RocksDbRun}'s setups and cell encoding (a key per
 * cell: row length, row, family, qualifier). A scan reads cells from the start row and counts row
 * changes. Counters come from RocksDB's statistics and an event listener, as in {@link RocksDbRun}.
 */
final class RocksDbPaperStore implements PaperStore {
  private final Statistics stats = new Statistics();
  private final AtomicLong flushes = new AtomicLong();
  private final AtomicLong compactions = new AtomicLong();
  private final Options options;
  private final RocksDB db;
  private final WriteOptions writeOptions = new WriteOptions().setSync(false);

  RocksDbPaperStore(Path dir, RocksDbRun.Setup setup, long flushSize) throws RocksDBException {
    this(dir, setup, flushSize, null);
  }

  /** A store of {@code setup} whose compression is {@code compression} unless null. */
  RocksDbPaperStore(Path dir, RocksDbRun.Setup setup, long flushSize, io.bellows.config.Compression compression)
      throws RocksDBException {
    AbstractEventListener counter = new AbstractEventListener() {
      @Override
      public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
        flushes.incrementAndGet();
      }

      @Override
      public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
        compactions.incrementAndGet();
      }
    };
    this.options = RocksDbRun.options(setup, flushSize, compression).setStatistics(stats).setListeners(List.of(counter));
    this.db = RocksDB.open(options, dir.toString());
  }

  @Override
  public void write(List<Put> rows) throws RocksDBException {
    try (WriteBatch b = new WriteBatch()) {
      for (Put put : rows) {
        for (Cell c : put.cells()) {
          b.put(RocksDbRun.cellKey(c.row(), c.family(), c.qualifier()), c.value());
        }
      }
      db.write(writeOptions, b);
    }
  }

  @Override
  public boolean getCell(byte[] row, byte[] qualifier) throws RocksDBException {
    return db.get(RocksDbRun.cellKey(row, PaperRows.FAMILY, qualifier)) != null;
  }

  @Override
  public int scan(byte[] startRow, int rows) {
    int n = 0;
    byte[] current = null;
    try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro)) {
      for (it.seek(RocksDbRun.rowPrefix(startRow)); it.isValid(); it.next()) {
        byte[] key = it.key();
        int len = ((key[0] & 0xff) << 8) | (key[1] & 0xff);
        if (current == null || !RocksDbRun.startsWith(key, current)) {
          if (n == rows) {
            break;
          }
          current = java.util.Arrays.copyOf(key, 2 + len);
          n++;
        }
        it.value();
      }
    }
    return n;
  }

  @Override
  public void flush() throws RocksDBException {
    try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      db.flush(fo);
    }
  }

  @Override
  public Counters counters() {
    return new Counters(flushes.get(), compactions.get(), stats.getTickerCount(TickerType.FLUSH_WRITE_BYTES),
        stats.getTickerCount(TickerType.COMPACT_WRITE_BYTES), stats.getTickerCount(TickerType.WAL_FILE_BYTES),
        stats.getTickerCount(TickerType.STALL_MICROS) * 1000, db.getLiveFilesMetaData().size());
  }

  @Override
  public void close() {
    db.close();
    writeOptions.close();
    options.close();
    stats.close();
  }
}
