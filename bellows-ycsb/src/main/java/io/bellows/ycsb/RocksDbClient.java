package io.bellows.ycsb;

import io.bellows.config.Compression;
import io.bellows.config.Knobs;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The YCSB binding of RocksDB ({@code -db io.bellows.ycsb.RocksDbClient}), written here so that the
 * same YCSB run can drive both stores (none is on Maven Central). A field is a key {@code [table
 * length: 1][table][row][0x00][field]} with the field's bytes as value: a record's fields are
 * adjacent, records sort as their keys' bytes do (as Bellows' rows; YCSB keys hold no 0x00), and an
 * update writes only its fields, as a wide-column store does. A record's fields are written in one
 * {@link WriteBatch}. Properties:
 *
 * <ul>
 *   <li>{@code rocksdb.dir} — the database directory (required);
 *   <li>{@code rocksdb.tuned} — {@code true}: two background jobs, 64 MiB write buffers × 4, the
 *       compression of Bellows' default (LZ4), pipelined writes, a block cache of the heap's share
 *       Bellows' block caches take by default ({@code bellows.blockcache.l1.fraction} + {@code
 *       l2.fraction}: equal cache memory; RocksDB's own default is 32 MiB) and a Bloom filter of 10
 *       bits per key; {@code
 *       false} (default): {@code new Options()};
 *   <li>{@code rocksdb.compression} — {@code NONE}, {@code LZ4} or {@code ZSTD}: overrides either
 *       setup's compression;
 *   <li>{@code rocksdb.sync} — sync the WAL on every write (default {@code false}, as RocksDB's
 *       default write: each write reaches the operating system, as with Bellows' default durability,
 *       SYNC_WAL).
 * </ul>
 */
public final class RocksDbClient extends DB {
  private static final Map<String, Shared> OPEN = new HashMap<>();

  static {
    RocksDB.loadLibrary();
  }

  /** One RocksDB per directory for all clients of the JVM, reference-counted. */
  private static final class Shared {
    final RocksDB db;
    final Options options;
    int users;

    Shared(RocksDB db, Options options) {
      this.db = db;
      this.options = options;
    }
  }

  private String dir;
  private Shared shared;
  private WriteOptions writeOptions;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    dir = p.getProperty("rocksdb.dir");
    if (dir == null || dir.isBlank()) {
      throw new DBException("set rocksdb.dir to the RocksDB directory (-p rocksdb.dir=/path)");
    }
    synchronized (OPEN) {
      shared = OPEN.get(dir);
      if (shared == null) {
        Options o = new Options().setCreateIfMissing(true);
        if (Boolean.parseBoolean(p.getProperty("rocksdb.tuned", "false"))) {
          o.setMaxBackgroundJobs(2).setWriteBufferSize(64L << 20).setMaxWriteBufferNumber(4)
              .setCompressionType(compressionType(Knobs.COMPRESSION.defaultValue())).setEnablePipelinedWrite(true)
              .setBytesPerSync(1L << 20)
              .setTableFormatConfig(new BlockBasedTableConfig()
                  .setBlockCache(new LRUCache((long) (Runtime.getRuntime().maxMemory()
                      * (Knobs.BLOCKCACHE_L1_FRACTION.defaultValue() + Knobs.BLOCKCACHE_L2_FRACTION.defaultValue()))))
                  .setFilterPolicy(new BloomFilter(10)));
        }
        String compression = p.getProperty("rocksdb.compression");
        if (compression != null) {
          try {
            o.setCompressionType(compressionType(Knobs.COMPRESSION.parse(compression)));
          } catch (IllegalArgumentException e) {
            o.close();
            throw new DBException("rocksdb.compression: " + e.getMessage(), e);
          }
        }
        try {
          shared = new Shared(RocksDB.open(o, dir), o);
        } catch (RocksDBException e) {
          o.close();
          throw new DBException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
        }
        OPEN.put(dir, shared);
      }
      shared.users++;
    }
    writeOptions = new WriteOptions().setSync(Boolean.parseBoolean(p.getProperty("rocksdb.sync", "false")));
  }

  /** RocksDB's name for a Bellows compression (the same libraries' formats). */
  private static CompressionType compressionType(Compression c) {
    return switch (c) {
      case NONE -> CompressionType.NO_COMPRESSION;
      case LZ4 -> CompressionType.LZ4_COMPRESSION;
      case ZSTD -> CompressionType.ZSTD_COMPRESSION;
    };
  }

  @Override
  public void cleanup() {
    writeOptions.close();
    synchronized (OPEN) {
      if (--shared.users == 0) {
        OPEN.remove(dir);
        shared.db.close();
        shared.options.close();
      }
    }
  }

  static byte[] tablePrefix(String table) {
    byte[] t = table.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(1 + t.length).put((byte) t.length).put(t).array();
  }

  static byte[] recordPrefix(String table, String key) {
    byte[] t = tablePrefix(table);
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(t.length + k.length + 1).put(t).put(k).put((byte) 0).array();
  }

  private static byte[] fieldKey(byte[] prefix, String field) {
    byte[] f = field.getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(prefix, prefix.length + f.length);
    System.arraycopy(f, 0, out, prefix.length, f.length);
    return out;
  }

  /** Reads the record at the iterator's position (which starts with {@code prefix}) into {@code out}. */
  private static void readRecord(RocksIterator it, byte[] prefix, Set<String> fields, Map<String, ByteIterator> out) {
    for (; it.isValid() && startsWith(it.key(), prefix); it.next()) {
      byte[] k = it.key();
      String field = new String(k, prefix.length, k.length - prefix.length, StandardCharsets.UTF_8);
      if (fields == null || fields.contains(field)) {
        out.put(field, new ByteArrayByteIterator(it.value()));
      }
    }
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    byte[] prefix = recordPrefix(table, key);
    try (ReadOptions ro = new ReadOptions(); RocksIterator it = shared.db.newIterator(ro)) {
      it.seek(prefix);
      readRecord(it, prefix, fields, result);
      return result.isEmpty() ? Status.NOT_FOUND : Status.OK;
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    byte[] tablePrefix = tablePrefix(table);
    try (ReadOptions ro = new ReadOptions(); RocksIterator it = shared.db.newIterator(ro)) {
      it.seek(recordPrefix(table, startkey));
      while (result.size() < recordcount && it.isValid() && startsWith(it.key(), tablePrefix)) {
        byte[] k = it.key();
        int end = tablePrefix.length;
        while (k[end] != 0) {
          end++;
        }
        byte[] prefix = Arrays.copyOf(k, end + 1);
        HashMap<String, ByteIterator> row = new HashMap<>();
        readRecord(it, prefix, fields, row);
        if (!row.isEmpty()) {
          result.add(row);
        }
      }
      return Status.OK;
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return insert(table, key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    byte[] prefix = recordPrefix(table, key);
    try (WriteBatch b = new WriteBatch()) {
      for (Map.Entry<String, ByteIterator> v : values.entrySet()) {
        b.put(fieldKey(prefix, v.getKey()), v.getValue().toArray());
      }
      shared.db.write(writeOptions, b);
      return Status.OK;
    } catch (RocksDBException e) {
      System.err.println("rocksdb: " + e);
      return Status.ERROR;
    }
  }

  @Override
  public Status delete(String table, String key) {
    byte[] prefix = recordPrefix(table, key);
    byte[] end = Arrays.copyOf(prefix, prefix.length + 1);
    end[prefix.length] = (byte) 0xff; // field names are UTF-8 text: no byte 0xff
    try {
      shared.db.deleteRange(writeOptions, prefix, end);
      return Status.OK;
    } catch (RocksDBException e) {
      System.err.println("rocksdb: " + e);
      return Status.ERROR;
    }
  }
}
