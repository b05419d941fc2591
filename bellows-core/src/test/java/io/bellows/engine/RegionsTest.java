package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.manifest.StoreManifest;
import io.bellows.scan.CellScanner;
import io.bellows.schema.TableDescriptor;
import io.bellows.sstable.SortedFileReader;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tables split into regions: routing, batches, scans across regions, pre-splitting, the catalog, recovery. */
class RegionsTest {
  private static final List<byte[]> SPLITS = List.of(Bytes.of("g"), Bytes.of("n"), Bytes.of("t"));
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private static TableDescriptor table(String name) {
    return TableDescriptor.builder(name).family("f").build();
  }

  @Test
  void rowsLandInTheRegionWhoseRangeHoldsThem() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      List<RegionInfo> regions = db.regions("t");
      assertThat(regions).hasSize(4);
      assertThat(regions).extracting(r -> Bytes.str(r.startKey())).containsExactly("", "g", "n", "t");
      assertThat(regions).extracting(r -> Bytes.str(r.endKey())).containsExactly("g", "n", "t", "");
      // One batch spanning regions 1, 2 and 4 (none in [n, t)); boundary rows on both sides.
      List<Put> batch = new ArrayList<>();
      for (String row : List.of("zebra", "a", "g", "f\u00ff", "t", "h", "\u0001", "zz", "m")) {
        batch.add(new Put(row).addColumn("f", "q", row));
      }
      db.getTable("t").put(batch);
      List<RegionInfo> before = db.regions("t");
      assertThat(before.get(0).memStoreBytes()).isPositive();
      assertThat(before.get(1).memStoreBytes()).isPositive();
      assertThat(before.get(2).memStoreBytes()).isZero();
      assertThat(before.get(3).memStoreBytes()).isPositive();
      db.flush("t");
      List<RegionInfo> after = db.regions("t");
      assertThat(after).extracting(RegionInfo::storeFiles).containsExactly(1, 1, 0, 1);
      assertThat(after).extracting(RegionInfo::memStoreBytes).containsOnly(0L);
      assertThat(after.get(0).storeFileBytes()).isPositive();
      assertThat(after.get(2).storeFileBytes()).isZero();
      Table t = db.getTable("t");
      for (Put p : batch) {
        assertThat(t.get(new Get(p.row())).getValue(F, Q)).isEqualTo(p.row());
      }
    }
    // The region directories hold their own rows: read each region's one file directly.
    List<Path> regionDirs = StoreDirs.regions(dir, "t");
    assertThat(regionDirs).hasSize(4);
    assertThat(rowsInFiles(regionDirs.get(0).resolve("f"))).containsExactly("\u0001", "a", "f\u00ff");
    assertThat(rowsInFiles(regionDirs.get(1).resolve("f"))).containsExactly("g", "h", "m");
    assertThat(rowsInFiles(regionDirs.get(2).resolve("f"))).isEmpty();
    assertThat(rowsInFiles(regionDirs.get(3).resolve("f"))).containsExactly("t", "zebra", "zz");
  }

  /** The rows in the sorted files a store directory's manifest lists, read from the files. */
  private static List<String> rowsInFiles(Path store) throws IOException {
    List<String> rows = new ArrayList<>();
    StoreManifest m = StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, store);
    for (long id : m.fileIds()) {
      SortedFileReader r = SortedFileReader.open(store.resolve(StoreManifest.fileName(id)), id);
      try (CellScanner s = r.scanner()) {
        s.seek(Cells.firstOnRow(new byte[] {0}));
        for (Cell c = s.next(); c != null; c = s.next()) {
          rows.add(new String(c.row(), StandardCharsets.UTF_8));
        }
      } finally {
        r.release();
      }
    }
    return rows;
  }

  @Test
  void aBatchWithABadRowAppliesNothingInAnyRegion() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      Table t = db.getTable("t");
      List<Put> batch = List.of(new Put("a").addColumn("f", "q", "1"), new Put("h").addColumn("f", "q", "2"),
          new Put("z").addColumn("nofamily", "q", "3"));
      assertThatThrownBy(() -> t.put(batch)).isInstanceOf(NoSuchColumnFamilyException.class);
      assertThat(t.get(new Get("a")).isEmpty()).isTrue();
      assertThat(t.get(new Get("h")).isEmpty()).isTrue();
    }
  }

  @Test
  void repeatedRowsOfABatchSpanningRegionsApplyInBatchOrder() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      Table t = db.getTable("t");
      t.put(List.of(new Put(Bytes.of("a"), 5).addColumn(F, Q, Bytes.of("first")), new Put("x").addColumn("f", "q", "x"),
          new Put(Bytes.of("a"), 5).addColumn(F, Q, Bytes.of("second"))));
      assertThat(Bytes.str(t.get(new Get("a")).getValue(F, Q))).isEqualTo("second");
    }
  }

  @Test
  void storeMetricsSumTheRegions() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").family("g").build(), SPLITS);
      for (String row : List.of("a", "h", "z")) {
        db.getTable("t").put(new Put(row).addColumn("f", "q", "v").addColumn("g", "q", "w"));
        db.flush("t");
      }
      Map<String, Map<String, Number>> m = db.storeMetrics("t");
      assertThat(m).containsOnlyKeys("f", "g");
      assertThat(m.get("f").get("store.files").longValue()).isEqualTo(3);
      assertThat(m.get("g").get("flush.count").longValue()).isEqualTo(3);
      long bytes = db.regions("t").stream().mapToLong(RegionInfo::storeFileBytes).sum();
      assertThat(m.get("f").get("store.files.bytes").longValue() + m.get("g").get("store.files.bytes").longValue())
          .isEqualTo(bytes);
      assertThat(db.regions("t")).extracting(RegionInfo::storeFiles).containsExactly(2, 2, 0, 2);
      assertThat(db.metrics().get("regions.open").intValue()).isEqualTo(4);
    }
  }

  @Test
  void checkAndPutAndIncrementRouteByRow() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      Table t = db.getTable("t");
      for (String row : List.of("b", "k", "p", "w")) {
        assertThat(t.checkAndPut(Bytes.of(row), F, Q, null, new Put(row).addColumn("f", "q", "v"))).isTrue();
        assertThat(t.checkAndPut(Bytes.of(row), F, Q, null, new Put(row).addColumn("f", "q", "w"))).isFalse();
        assertThat(t.incrementColumnValue(Bytes.of(row), F, Bytes.of("n"), 3)).isEqualTo(3);
        assertThat(t.incrementColumnValue(Bytes.of(row), F, Bytes.of("n"), 4)).isEqualTo(7);
      }
      assertThat(db.regions("t")).extracting(RegionInfo::memStoreBytes).allMatch(b -> b > 0);
    }
  }

  @Test
  void scansAcrossRegionsMatchASortedMap() {
    Random rnd = new Random(42);
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), List.of(Bytes.of("c"), Bytes.of("f"), Bytes.of("fa"), Bytes.of("m"),
          Bytes.of("x")));
      Table t = db.getTable("t");
      NavigableMap<String, String> ref = new TreeMap<>();
      List<Put> batch = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        String row = randomRow(rnd);
        ref.put(row, "v" + i);
        batch.add(new Put(row).addColumn("f", "q", "v" + i));
        if (batch.size() == 37) {
          t.put(batch);
          batch = new ArrayList<>();
        }
        if (i == 200) {
          t.put(batch);
          batch = new ArrayList<>();
          db.flush("t"); // some rows in files, some in memory
        }
      }
      t.put(batch);
      for (int round = 0; round < 500; round++) {
        String a = rnd.nextInt(5) == 0 ? "" : randomRow(rnd);
        String b = rnd.nextInt(5) == 0 ? "" : randomRow(rnd);
        if (!a.isEmpty() && !b.isEmpty() && a.compareTo(b) > 0) {
          String x = a;
          a = b;
          b = x;
        }
        boolean startIncl = rnd.nextBoolean();
        boolean stopIncl = rnd.nextBoolean();
        long limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(60) : Long.MAX_VALUE;
        NavigableMap<String, String> want = ref;
        if (!a.isEmpty()) {
          want = want.tailMap(a, startIncl);
        }
        if (!b.isEmpty()) {
          want = want.headMap(b, stopIncl);
        }
        List<String> expected = new ArrayList<>();
        for (Map.Entry<String, String> e : want.entrySet()) {
          if (expected.size() >= limit) {
            break;
          }
          expected.add(e.getKey() + "=" + e.getValue());
        }
        Scan scan = new Scan();
        if (!a.isEmpty()) {
          scan.withStartRow(Bytes.of(a), startIncl);
        }
        if (!b.isEmpty()) {
          scan.withStopRow(Bytes.of(b), stopIncl);
        }
        if (limit != Long.MAX_VALUE) {
          scan.setLimit(limit);
        }
        List<String> got = new ArrayList<>();
        try (ResultScanner s = t.getScanner(scan)) {
          for (Result r : s) {
            got.add(Bytes.str(r.row()) + "=" + Bytes.str(r.getValue(F, Q)));
          }
        }
        assertThat(got).as("[%s%s, %s%s] limit %d", startIncl ? "" : "(", a, b, stopIncl ? "" : ")", limit)
            .isEqualTo(expected);
      }
    }
  }

  /** Rows of 1..3 letters from a small alphabet straddling the split keys, often equal to one. */
  private static String randomRow(Random rnd) {
    String[] near = {"c", "f", "fa", "m", "x"};
    if (rnd.nextInt(8) == 0) {
      return near[rnd.nextInt(near.length)];
    }
    StringBuilder sb = new StringBuilder();
    int n = 1 + rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      sb.append("abcfgmnxyz".charAt(rnd.nextInt(10)));
    }
    return sb.toString();
  }

  @Test
  void splitAlgorithmsGiveHBasesBoundaries() {
    assertThat(SplitKeys.hexString(4)).extracting(Bytes::str).containsExactly("40000000", "80000000", "c0000000");
    assertThat(SplitKeys.hexString(2)).extracting(Bytes::str).containsExactly("80000000");
    HexFormat hex = HexFormat.of();
    assertThat(SplitKeys.uniform(4)).extracting(hex::formatHex)
        .containsExactly("4000000000000000", "8000000000000000", "c000000000000000");
    assertThat(SplitKeys.uniform(3)).extracting(hex::formatHex)
        .containsExactly("5555555555555555", "aaaaaaaaaaaaaaaa");
    assertThat(SplitKeys.of("HexStringSplit", 16)).hasSize(15);
    assertThatThrownBy(() -> SplitKeys.of("NoSuchSplit", 4)).hasMessageContaining("unknown split algorithm");
    assertThatThrownBy(() -> SplitKeys.hexString(1)).hasMessageContaining("number of regions must be 2");
  }

  @Test
  void preSplitTablesHaveExactBoundariesAndRouteEvenly() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("hex"), SplitKeys.hexString(8));
      db.createTable(table("uni"), SplitKeys.uniform(4));
      List<RegionInfo> hex = db.regions("hex");
      assertThat(hex).hasSize(8);
      assertThat(Bytes.str(hex.get(1).startKey())).isEqualTo("20000000");
      assertThat(Bytes.str(hex.get(7).startKey())).isEqualTo("e0000000");
      for (int i = 1; i < hex.size(); i++) {
        assertThat(hex.get(i).startKey()).isEqualTo(hex.get(i - 1).endKey());
      }
      List<RegionInfo> uni = db.regions("uni");
      assertThat(uni).extracting(r -> HexFormat.of().formatHex(r.startKey()))
          .containsExactly("", "4000000000000000", "8000000000000000", "c000000000000000");
      // Region ids are engine-wide: the second table's continue after the first's.
      assertThat(hex).extracting(RegionInfo::id).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
      assertThat(uni).extracting(RegionInfo::id).containsExactly(9, 10, 11, 12);
      Table t = db.getTable("hex");
      for (int i = 0; i < 800; i++) {
        t.put(new Put(String.format("%08x", i * 5_368_709L)).addColumn("f", "q", "v"));
      }
      assertThat(db.regions("hex")).extracting(RegionInfo::memStoreBytes).allMatch(b -> b > 0);
    }
  }

  @Test
  void badSplitKeysAreRefusedWithClearErrors() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThatThrownBy(() -> db.createTable(table("t"), List.of(Bytes.of("b"), Bytes.of("a"))))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be sorted");
      assertThatThrownBy(() -> db.createTable(table("t"), List.of(Bytes.of("a"), Bytes.of("a"))))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("given twice");
      assertThatThrownBy(() -> db.createTable(table("t"), List.of(Bytes.of("a"), Bytes.EMPTY)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is empty");
      assertThat(db.tableExists("t")).isFalse();
      db.createTable(table("t"), List.of(Bytes.of("a")));
      assertThat(db.regions("t")).extracting(RegionInfo::id).containsExactly(1, 2);
    }
  }

  /** Regions with identities 1, 2, ... in order (a golden text needs them fixed) and the given base. */
  private static List<Catalog.Span> fixedIdentities(List<Catalog.Span> spans, long firstIdentity, long seqIdBase) {
    List<Catalog.Span> out = new java.util.ArrayList<>();
    for (Catalog.Span s : spans) {
      out.add(new Catalog.Span(s.id(), s.start(), s.end(), new java.util.UUID(0, firstIdentity++), seqIdBase));
    }
    return out;
  }

  @Test
  void catalogRoundTripAndGoldenText() throws IOException {
    Catalog c = Catalog.empty();
    c = c.with(new Catalog.Entry(c.nextTableId(), TableDescriptor.builder("users").family("f").build(), true,
        fixedIdentities(c.newRegions(List.of(Bytes.of("g"), new byte[] {(byte) 0xff, 0}), 0), 1, 0)));
    c = c.with(new Catalog.Entry(c.nextTableId(), TableDescriptor.builder("logs").family("d").build(), false,
        fixedIdentities(c.newRegions(List.of(), 0), 4, 42)));
    c.write(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
    String text = Files.readString(dir.resolve("CATALOG"));
    assertThat(text).isEqualTo("""
        bellows-catalog 3
        next-table-id 3
        next-region-id 5
        table 1 users enabled
        family 1 f
        region 1 1 - 67 00000000-0000-0000-0000-000000000001 0
        region 1 2 67 ff00 00000000-0000-0000-0000-000000000002 0
        region 1 3 ff00 - 00000000-0000-0000-0000-000000000003 0
        table 2 logs disabled
        family 2 d
        region 2 4 - - 00000000-0000-0000-0000-000000000004 42
        crc32c 50f0120b
        """);
    Catalog back = Catalog.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
    assertThat(back.upgraded()).isFalse();
    assertThat(back.nextRegionId()).isEqualTo(5);
    assertThat(back.nextTableId()).isEqualTo(3);
    List<Catalog.Span> users = back.tables().get("users").regions();
    assertThat(users).extracting(Catalog.Span::id).containsExactly(1, 2, 3);
    assertThat(users.get(1).start()).isEqualTo(Bytes.of("g"));
    assertThat(users.get(1).end()).isEqualTo(new byte[] {(byte) 0xff, 0});
    assertThat(users.get(2).identity()).isEqualTo(new java.util.UUID(0, 3));
    assertThat(back.tables().get("logs").regions().get(0).seqIdBase()).isEqualTo(42);
    assertThat(back.tables().get("logs").enabled()).isFalse();
    // Dropping a table never lowers the next region id: ids are not reused.
    assertThat(back.without("logs").nextRegionId()).isEqualTo(5);
  }

  /** Golden: the bytes a version 2 catalog (before region identities) has are still read. */
  @Test
  void aVersion2CatalogIsStillRead() throws IOException {
    Files.writeString(dir.resolve("CATALOG"), """
        bellows-catalog 2
        next-table-id 3
        next-region-id 5
        table 1 users enabled
        family 1 f
        region 1 1 - 67
        region 1 2 67 ff00
        region 1 3 ff00 -
        table 2 logs disabled
        family 2 d
        region 2 4 - -
        crc32c e261b604
        """);
    Catalog back = Catalog.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
    assertThat(back.upgraded()).as("to be written as version 3 at open").isTrue();
    assertThat(back.nextRegionId()).isEqualTo(5);
    assertThat(back.nextTableId()).isEqualTo(3);
    List<Catalog.Span> users = back.tables().get("users").regions();
    assertThat(users).extracting(Catalog.Span::id).containsExactly(1, 2, 3);
    assertThat(users.get(1).start()).isEqualTo(Bytes.of("g"));
    assertThat(users.get(1).end()).isEqualTo(new byte[] {(byte) 0xff, 0});
    assertThat(back.tables().get("logs").enabled()).isFalse();
    List<Catalog.Span> all = new java.util.ArrayList<>(users);
    all.addAll(back.tables().get("logs").regions());
    assertThat(all).extracting(Catalog.Span::seqIdBase).containsOnly(0L);
    assertThat(all).extracting(Catalog.Span::identity).doesNotContainNull().doesNotHaveDuplicates();
  }

  /** Golden: a version 2 catalog with options, written by the build before region identities. */
  @Test
  void theVersion2CatalogOfTheCorpusIsStillRead() throws Exception {
    Path from = Path.of(RegionsTest.class.getResource("catalog-v2/CATALOG").toURI());
    Files.copy(from, dir.resolve("CATALOG"));
    Catalog back = Catalog.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
    assertThat(back.tables().keySet()).containsExactly("users", "logs");
    assertThat(back.tables().get("users").descriptor().family("f").maxVersions()).isEqualTo(3);
    assertThat(back.tables().get("users").regions()).hasSize(3);
  }

  /**
   * A data directory whose catalog is of version 2 opens with every row, its regions get
   * identities, and the catalog is written as version 3 at once: the identities stay the same
   * across reopens.
   */
  @Test
  void aDataDirectoryWithAVersion2CatalogOpensAndKeepsItsNewIdentities() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), List.of(Bytes.of("m")));
      db.getTable("t").put(new Put(Bytes.of("a")).addColumn(F, Q, Bytes.of("1")));
      db.getTable("t").put(new Put(Bytes.of("x")).addColumn(F, Q, Bytes.of("2")));
    }
    String v3 = Files.readString(dir.resolve("CATALOG"));
    StringBuilder v2 = new StringBuilder();
    for (String line : v3.split("\n")) {
      if (line.startsWith("crc32c")) {
        continue;
      }
      String[] f = line.split(" ");
      if (line.startsWith("bellows-catalog")) {
        line = "bellows-catalog 2";
      } else if (f[0].equals("region")) {
        line = String.join(" ", f[0], f[1], f[2], f[3], f[4]); // no identity, no base
      }
      v2.append(line).append('\n');
    }
    io.bellows.fs.ChecksummedText.write(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("CATALOG"), v2.toString());
    List<RegionInfo> first;
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      first = db.regions("t");
      assertThat(first).extracting(RegionInfo::identity).doesNotContainNull().doesNotHaveDuplicates();
      assertThat(first).extracting(RegionInfo::seqIdBase).containsOnly(0L);
      assertThat(Bytes.str(db.getTable("t").get(new io.bellows.client.Get(Bytes.of("x"))).getValue(F, Q))).isEqualTo("2");
    }
    assertThat(Files.readString(dir.resolve("CATALOG"))).startsWith("bellows-catalog 3\n");
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.regions("t")).extracting(RegionInfo::identity)
          .containsExactlyElementsOf(first.stream().map(RegionInfo::identity).toList());
    }
  }

  @Test
  void aCatalogOfVersion1IsRefusedWithAClearMessage() throws IOException {
    Files.writeString(dir.resolve("CATALOG"), "bellows-catalog 1\nnext-table-id 1\ncrc32c 00000000\n");
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults())).isInstanceOf(StorageException.class)
        .hasMessageContaining("catalog format version 1 is not supported");
  }

  @Test
  void regionsThatDoNotCoverTheKeySpaceAreDamage() throws IOException {
    String body = "bellows-catalog 2\nnext-table-id 2\nnext-region-id 3\ntable 1 t enabled\nfamily 1 f\n"
        + "region 1 1 - 67\nregion 1 2 68 -\n";
    io.bellows.fs.ChecksummedText.write(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("CATALOG"), body);
    assertThatThrownBy(() -> Catalog.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining("do not cover the key space");
  }

  @Test
  void reopeningKeepsTheRegionsAndTheirData() {
    List<RegionInfo> before;
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      for (char c = 'a'; c <= 'z'; c++) {
        db.getTable("t").put(new Put(String.valueOf(c)).addColumn("f", "q", "v" + c));
      }
      before = db.regions("t");
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      List<RegionInfo> after = db.regions("t");
      assertThat(after).extracting(RegionInfo::id).isEqualTo(before.stream().map(RegionInfo::id).toList());
      for (int i = 0; i < after.size(); i++) {
        assertThat(after.get(i).startKey()).isEqualTo(before.get(i).startKey());
        assertThat(after.get(i).endKey()).isEqualTo(before.get(i).endKey());
      }
      assertThat(after).extracting(RegionInfo::storeFiles).containsOnly(1); // the close flushed each region
      for (char c = 'a'; c <= 'z'; c++) {
        assertThat(Bytes.str(db.getTable("t").get(new Get(String.valueOf(c))).getValue(F, Q))).isEqualTo("v" + c);
      }
      db.disableTable("t");
      assertThat(db.regions("t")).extracting(RegionInfo::storeFiles).containsOnly(0); // not open
      db.enableTable("t");
      assertThat(db.regions("t")).extracting(RegionInfo::storeFiles).containsOnly(1);
      db.createTable(table("u"));
      assertThat(db.regions("u")).extracting(RegionInfo::id).containsExactly(5);
      db.disableTable("u");
      db.dropTable("u");
      db.createTable(table("u"));
      assertThat(db.regions("u")).extracting(RegionInfo::id).containsExactly(6); // never reused
    }
  }

  @Test
  void walReplayAfterACrashFillsTheRightRegions() throws IOException {
    Path live = dir.resolve("live");
    Path image = dir.resolve("image");
    try (Bellows db = Bellows.open(live, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      db.createTable(table("one"));
      Table t = db.getTable("t");
      List<Put> batch = new ArrayList<>();
      for (char c = 'a'; c <= 'z'; c++) {
        batch.add(new Put(c + "1").addColumn("f", "q", "v" + c).setDurability(Durability.SYNC_WAL));
      }
      t.put(batch);
      db.flush("t");
      for (char c = 'a'; c <= 'm'; c++) { // regions 1 and 2 only
        t.put(new Put(c + "2").addColumn("f", "q", "w" + c).setDurability(Durability.SYNC_WAL));
      }
      db.getTable("one").put(new Put("x").addColumn("f", "q", "1").setDurability(Durability.SYNC_WAL));
      WalReplayAccountingTest.copyTree(live, image); // what a crash now would leave
    }
    try (Bellows db = Bellows.open(image, EngineOptions.defaults())) {
      assertThat(db.metrics().get("wal.edits.replayed").longValue()).isEqualTo(14);
      List<RegionInfo> regions = db.regions("t");
      assertThat(regions).extracting(r -> r.memStoreBytes() > 0).containsExactly(true, true, false, false);
      assertThat(regions).extracting(RegionInfo::storeFiles).containsOnly(1);
      Table t = db.getTable("t");
      for (char c = 'a'; c <= 'z'; c++) {
        assertThat(Bytes.str(t.get(new Get(c + "1")).getValue(F, Q))).isEqualTo("v" + c);
      }
      for (char c = 'a'; c <= 'm'; c++) {
        assertThat(Bytes.str(t.get(new Get(c + "2")).getValue(F, Q))).isEqualTo("w" + c);
      }
      assertThat(db.getTable("one").get(new Get("x")).isEmpty()).isFalse();
    }
  }

  /** Each WAL edit names the region of its rows (not the table), and a batch is logged per region. */
  @Test
  void walEditsCarryTheRegionIds() throws IOException {
    Path live = dir.resolve("live");
    Path image = dir.resolve("image");
    try (Bellows db = Bellows.open(live, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      db.getTable("t").put(List.of(new Put("a").addColumn("f", "q", "1"), new Put("z").addColumn("f", "q", "2"),
          new Put("h").addColumn("f", "q", "3"), new Put("b").addColumn("f", "q", "4")));
      db.getTable("t").put(new Put("o").addColumn("f", "q", "5").setDurability(Durability.SYNC_WAL));
      WalReplayAccountingTest.copyTree(live, image);
    }
    Map<Integer, List<String>> rowsByRegion = new TreeMap<>();
    try (io.bellows.wal.Wal wal = io.bellows.wal.Wal.open(image.resolve("wal"), new io.bellows.wal.WalOptions(
        64L * 1024 * 1024, 1000))) {
      wal.replay(edit -> {
        for (Cell c : edit.cells()) {
          rowsByRegion.computeIfAbsent(edit.regionId(), k -> new ArrayList<>()).add(Bytes.str(c.row()));
        }
      });
    }
    assertThat(rowsByRegion).containsExactly(Map.entry(1, List.of("a", "b")), Map.entry(2, List.of("h")),
        Map.entry(3, List.of("o")), Map.entry(4, List.of("z")));
  }

  @Test
  void handlesAndScannersOfASplitTableFailOnceItIsDisabledOrDropped() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      for (String row : List.of("a", "h", "o", "z")) {
        db.getTable("t").put(new Put(row).addColumn("f", "q", "v"));
      }
      Table old = db.getTable("t");
      try (ResultScanner s = old.getScanner(new Scan().setLimit(4))) {
        assertThat(s.next()).isNotNull();
        db.disableTable("t");
        assertThatThrownBy(() -> {
          while (s.next() != null) {
            // the rows of the first region may have been fetched already
          }
        }).isInstanceOf(io.bellows.util.TableNotEnabledException.class);
      }
      db.dropTable("t");
      db.createTable(table("t"), List.of(Bytes.of("m")));
      assertThatThrownBy(() -> old.put(new Put("b").addColumn("f", "q", "v")))
          .isInstanceOf(io.bellows.util.TableNotFoundException.class);
      assertThat(db.getTable("t").get(new Get("a")).isEmpty()).isTrue();
      assertThat(db.regions("t")).extracting(RegionInfo::id).containsExactly(5, 6);
    }
  }

  @Test
  void aMissingRegionDirectoryFailsTheOpen() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      db.getTable("t").put(new Put("a").addColumn("f", "q", "v"));
    }
    Path region = StoreDirs.regions(dir, "t").get(2);
    Path aside = dir.resolve("aside");
    Files.move(region, aside);
    Map<Path, String> before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults())).isInstanceOf(StorageException.class);
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
    Files.move(aside, region);
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.getTable("t").get(new Get("a")).isEmpty()).isFalse();
    }
  }

  @Test
  void droppingARegionedTableDeletesOnlyBellowsFiles() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), SPLITS);
      db.getTable("t").put(new Put("a").addColumn("f", "q", "v"));
      db.flush("t");
      Path foreign = StoreDirs.regions(dir, "t").get(1).resolve("notes.txt");
      Files.writeString(foreign, "mine");
      Path tableDir = StoreDirs.table(dir, "t");
      db.disableTable("t");
      db.dropTable("t");
      assertThat(foreign).hasContent("mine");
      try (Stream<Path> s = Files.walk(tableDir)) {
        assertThat(s.filter(Files::isRegularFile).toList()).containsExactly(foreign);
      }
    }
  }
}
