package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.sstable.SortedFileReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole-row get reads each sorted file at most once: the block index (all levels) and the Bloom
 * filter are in memory from the file's open, so a get costs one data-block read per file that may
 * hold the row, and none for a file whose Bloom filter rules the row out. Counted by the metric
 * {@code store.files.blocks.read}, on files whose index has more than one level (before, each
 * get also read a leaf index block). Blocks end between rows (format version 4), so a row whose
 * cells reach the end of a block ends there and the next block is not read.
 */
class GetBlockReadsTest {
  @TempDir Path dir;

  private static final int ROWS = 30_000;

  @Test
  void aGetReadsOneDataBlockPerFileAndNoneWhenTheBloomFilterSaysNo() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t") // no block cache: every data block comes from the file
          .family(ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKSIZE, 1024).set(Knobs.BLOCKCACHE, false).build())
          .build());
      Table t = db.getTable("t");
      write(t, 0, ROWS, 2); // even rows
      db.flush("t");
      assertThat(indexLevelsOfFiles()).containsExactly(2); // one file, a two-level index
      List<String> lastRows = lastRowOfEachBlock();
      assertThat(lastRows.size()).isGreaterThan(1000);
      int endingABlock = 0;
      for (int i = 0; i < ROWS; i += 97) {
        String r = row(i * 2);
        long before = blocksRead(db);
        assertThat(t.get(new Get(r)).size()).isEqualTo(4);
        assertThat(blocksRead(db) - before).as("get of row %s", r).isEqualTo(1);
        endingABlock += lastRows.contains(r) ? 1 : 0;
      }
      // Every block ends at a row's end, so some of the 310 rows end one: they too read one block.
      assertThat(endingABlock).isPositive();
      int rejected = 0;
      for (int i = 1; i < 2 * ROWS; i += 2 * 101) { // odd rows: absent, inside the file's key range
        long before = blocksRead(db);
        assertThat(t.get(new Get(row(i))).isEmpty()).isTrue();
        long reads = blocksRead(db) - before;
        assertThat(reads).isLessThanOrEqualTo(1); // a Bloom false positive reads one block
        rejected += reads == 0 ? 1 : 0;
      }
      assertThat(rejected).isGreaterThan(250); // about 99% of 297 at the default 1% error rate

      write(t, 0, ROWS, 4); // every fourth row again: a second file
      db.flush("t");
      assertThat(indexLevelsOfFiles()).hasSize(2);
      long before = blocksRead(db);
      assertThat(t.get(new Get(row(400))).size()).isEqualTo(4);
      assertThat(blocksRead(db) - before).as("a row in both files").isEqualTo(2);
      before = blocksRead(db);
      assertThat(t.get(new Get(row(402))).size()).isEqualTo(4);
      assertThat(blocksRead(db) - before).as("a row in one file").isBetween(1L, 2L); // 2 only on a Bloom false positive
    }
  }

  /** Gets fill the cache and a repeated get is served from it; a compaction's reads leave it alone. */
  @Test
  void withTheBlockCacheARepeatedGetReadsNothingFromTheFile() {
    // An on-heap cache only: without an L2, L1 takes every data block (admission NONE falls back to ALL).
    EngineOptions cacheOnly = EngineOptions.builder().set(Knobs.BLOCKCACHE_L1_SIZE, 1L << 20)
        .set(Knobs.BLOCKCACHE_L2_FRACTION, 0.0).build();
    try (Bellows db = Bellows.open(dir, cacheOnly)) {
      Table t = tableOfSmallBlocks(db);
      write(t, 0, 2000, 4);
      db.flush("t");
      write(t, 2, 2000, 4);
      db.flush("t");
      db.majorCompact("t"); // reads every block of both files, around the cache
      assertThat(db.metrics().get("cache.l1.blocks").longValue()).isZero();
      long before = blocksRead(db);
      long hits = db.metrics().get("cache.l1.data.hits").longValue();
      assertThat(t.get(new Get(row(1000))).size()).isEqualTo(4);
      assertThat(blocksRead(db) - before).isBetween(1L, 2L);
      before = blocksRead(db);
      assertThat(t.get(new Get(row(1000))).size()).isEqualTo(4);
      assertThat(blocksRead(db) - before).isZero();
      assertThat(db.metrics().get("cache.l1.data.hits").longValue()).isGreaterThan(hits);
      assertThat(db.metrics().get("cache.l1.bytes").longValue()).isPositive();
    }
  }

  /**
   * With L1 off, data blocks are cached off the heap only and gets read them where L2 holds them:
   * every row comes back whole (rows that run into the next block too), and a repeated get reads
   * nothing from the file.
   */
  @Test
  void withOnlyTheOffHeapCacheGetsReadItsBlocksInPlace() {
    EngineOptions l2Only = EngineOptions.builder().set(Knobs.BLOCKCACHE_L1_FRACTION, 0.0)
        .set(Knobs.BLOCKCACHE_L2_SIZE, 8L << 20).build();
    try (Bellows db = Bellows.open(dir, l2Only)) {
      Table t = tableOfSmallBlocks(db);
      write(t, 0, 3000, 2);
      db.flush("t");
      assertThat(db.metrics()).doesNotContainKey("cache.l1.blocks");
      for (int round = 0; round < 2; round++) {
        long before = blocksRead(db);
        long hits = db.metrics().get("cache.l2.data.hits").longValue();
        for (int i = 0; i < 6000; i += 2) {
          Result r = t.get(new Get(row(i)));
          for (int q = 0; q < 4; q++) {
            assertThat(new String(r.getValue(bytes("f"), bytes("q" + q)), StandardCharsets.UTF_8)).as("row %d, round %d", i, round).isEqualTo("value-" + i + "-" + q);
          }
        }
        if (round == 1) {
          assertThat(blocksRead(db) - before).as("blocks read from the file by the second round").isZero();
          assertThat(db.metrics().get("cache.l2.data.hits").longValue() - hits).isGreaterThanOrEqualTo(3000);
        }
      }
    }
  }

  /** BLOCKCACHE off keeps a family out, IN_MEMORY puts it in the in-memory area, cache-on-write caches flushes. */
  @Test
  void familySettingsAndCacheOnWriteDecideWhatIsCached() {
    EngineOptions options = EngineOptions.builder().set(Knobs.BLOCKCACHE_L1_SIZE, 4L << 20).build();
    try (Bellows db = Bellows.open(dir, options)) {
      db.createTable(TableDescriptor.builder("off")
          .family(ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKCACHE, false).build()).build());
      db.createTable(TableDescriptor.builder("mem")
          .family(ColumnFamilyDescriptor.builder("f").set(Knobs.IN_MEMORY, true).build()).build());
      for (String table : new String[] {"off", "mem"}) {
        write(db.getTable(table), 0, 100, 1);
        db.flush(table);
      }
      assertThat(db.metrics().get("cache.l1.blocks").longValue()).isZero(); // no cache-on-write by default
      db.getTable("off").get(new Get(row(10)));
      assertThat(db.metrics().get("cache.l1.blocks").longValue()).isZero();
      db.getTable("mem").get(new Get(row(10)));
      Map<String, Number> m = db.metrics();
      assertThat(m.get("cache.l1.blocks").longValue()).isEqualTo(1);
      assertThat(m.get("cache.l1.memory.bytes").longValue()).isEqualTo(m.get("cache.l1.bytes").longValue());
    }
    EngineOptions onWrite = EngineOptions.builder().set(Knobs.BLOCKCACHE_L1_SIZE, 4L << 20)
        .set(Knobs.BLOCKCACHE_CACHE_ON_WRITE, true).build();
    try (Bellows db = Bellows.open(dir, onWrite)) {
      long before = db.metrics().get("cache.l1.blocks").longValue();
      write(db.getTable("mem"), 1, 100, 2);
      db.flush("mem");
      assertThat(db.metrics().get("cache.l1.blocks").longValue()).isGreaterThan(before);
      long reads = blocksRead(db);
      assertThat(db.getTable("mem").get(new Get(row(11))).size()).isEqualTo(4);
      // The row is in both files: the old file's one block is read (this open's cache is new), the
      // new file's block was cached as the flush wrote it.
      assertThat(blocksRead(db) - reads).isEqualTo(1);
    }
  }

  /** Table t, family f, 1 KiB blocks, the block cache on: many blocks from few rows. */
  private static Table tableOfSmallBlocks(Bellows db) {
    db.createTable(TableDescriptor.builder("t")
        .family(ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKSIZE, 1024).build()).build());
    return db.getTable("t");
  }

  private static void write(Table t, int from, int to, int step) {
    List<Put> batch = new ArrayList<>();
    for (int i = from; i < to * 2; i += step) {
      Put p = new Put(row(i));
      for (int q = 0; q < 4; q++) {
        p.addColumn("f", "q" + q, "value-" + i + "-" + q);
      }
      batch.add(p);
      if (batch.size() == 1000) {
        t.put(batch);
        batch = new ArrayList<>();
      }
    }
    t.put(batch);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String row(int i) {
    return String.format("row%08d", i);
  }

  private static long blocksRead(Bellows db) {
    return db.metrics().get("store.files.blocks.read").longValue();
  }

  private List<String> lastRowOfEachBlock() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      Path p = s.filter(f -> f.getFileName().toString().endsWith(".sst")).findFirst().orElseThrow();
      SortedFileReader r = SortedFileReader.open(p, 0);
      try {
        return r.dataBlockIndex().stream().map(e -> new String(e.keyAsCell().row(), StandardCharsets.UTF_8)).toList();
      } finally {
        r.release();
      }
    }
  }

  private List<Integer> indexLevelsOfFiles() throws IOException {
    List<Integer> levels = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".sst")).toList()) {
        SortedFileReader r = SortedFileReader.open(p, 0);
        try {
          levels.add(r.trailer().indexLevels());
        } finally {
          r.release();
        }
      }
    }
    return levels;
  }

  /** With READ_AGAIN admission a block read once stays out of L1, and the second read caches it. */
  @Test
  void readAgainAdmissionCachesABlockOnItsSecondRead() {
    EngineOptions options = EngineOptions.builder().set(Knobs.BLOCKCACHE_L1_SIZE, 4L << 20)
        .set(Knobs.BLOCKCACHE_L1_ADMISSION, io.bellows.config.L1Admission.READ_AGAIN).build();
    try (Bellows db = Bellows.open(dir, options)) {
      db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f").build()).build());
      write(db.getTable("t"), 0, 100, 1);
      db.flush("t");
      assertThat(db.getTable("t").get(new Get(row(10))).size()).isEqualTo(4);
      Map<String, Number> m = db.metrics();
      assertThat(m.get("cache.l1.blocks").longValue()).as("read once").isZero();
      assertThat(m.get("cache.l1.not.admitted").longValue()).isEqualTo(1);
      assertThat(db.getTable("t").get(new Get(row(10))).size()).isEqualTo(4);
      assertThat(db.metrics().get("cache.l1.blocks").longValue()).as("read again").isEqualTo(1);
    }
  }
}
