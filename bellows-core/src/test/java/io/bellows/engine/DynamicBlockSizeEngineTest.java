package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.sstable.DataBlockSummary;
import io.bellows.sstable.SortedFileReader;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A family's MIN_BLOCKSIZE and MAX_ENTRIES_PER_BLOCK reach the files its flushes write, and the
 * engine reads those variable-size blocks like any others; a minimum above the maximum is refused
 * when the family is described, naming the family and both sizes.
 */
@ExtendWith(SeedExtension.class)
class DynamicBlockSizeEngineTest {
  @TempDir Path dir;

  @Test
  void aDynamicFamilyWritesSmallBlocksForSmallCellsAndReadsEveryRow(Seed seed) throws IOException {
    Random rnd = seed.random();
    List<String> rows = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(String.format("row%06d", i));
      byte[] v = new byte[rnd.nextInt(50) == 0 ? 32 * 1024 : rnd.nextInt(40)];
      rnd.nextBytes(v);
      values.add(v);
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f")
          .set(Knobs.MIN_BLOCKSIZE, 2048).set(Knobs.MAX_ENTRIES_PER_BLOCK, 16).build()).build());
      Table t = db.getTable("t");
      List<Put> batch = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        batch.add(new Put(rows.get(i)).addColumn(Bytes.of("f"), Bytes.of("q"), values.get(i)));
      }
      t.put(batch);
      db.flush("t");

      List<Integer> sizes = blockPayloadSizes();
      assertThat(sizes.subList(0, sizes.size() - 1)).as("%s", seed).allSatisfy(s -> assertThat(s).isGreaterThan(2048))
          .anySatisfy(s -> assertThat(s).isLessThan(8 * 1024)); // a static 64 KiB file has none this small

      for (int i = 0; i < rows.size(); i++) {
        Result r = t.get(new Get(rows.get(i)));
        assertThat(r.getValue(Bytes.of("f"), Bytes.of("q"))).as("%s: get %s", seed, rows.get(i))
            .isEqualTo(values.get(i));
      }
      assertThat(scanRows(t, new Scan())).as("%s", seed).containsExactlyElementsOf(rows);
      List<String> reversed = new ArrayList<>(rows);
      Collections.reverse(reversed);
      assertThat(scanRows(t, new Scan().setReversed(true))).as("%s", seed).containsExactlyElementsOf(reversed);
    }
  }

  @Test
  void familiesWriteDynamicBlocksByDefaultAndStaticOnesOfTheSizeTheySetAlone(Seed seed) throws IOException {
    Random rnd = seed.random();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.of("f")).build());
      Table t = db.getTable("t");
      List<Put> batch = new ArrayList<>();
      for (int i = 0; i < 3000; i++) { // cells of about 60 bytes: 4 KiB holds more than 32 of them
        byte[] v = new byte[20 + rnd.nextInt(20)];
        rnd.nextBytes(v);
        batch.add(new Put(String.format("row%06d", i)).addColumn(Bytes.of("f"), Bytes.of("q"), v));
      }
      t.put(batch);
      db.flush("t");
      List<Integer> sizes = blockPayloadSizes();
      assertThat(sizes.subList(0, sizes.size() - 1)).as("%s", seed)
          .allSatisfy(s -> assertThat(s).isBetween(4096, 4096 + 200)); // past the minimum by less than a cell
    }
    // The rule behind it, as each file's writer resolves it.
    assertThat(ColumnFamilyDescriptor.of("f").maxEntriesPerBlock()).isEqualTo(32);
    assertThat(ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKSIZE, 16384).build().maxEntriesPerBlock())
        .as("a size asked for alone is a static size, as in HBase").isZero();
    assertThat(ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKSIZE, 16384).set(Knobs.MAX_ENTRIES_PER_BLOCK, 8)
        .build().maxEntriesPerBlock()).isEqualTo(8);
    assertThat(ColumnFamilyDescriptor.builder("f").set(Knobs.MAX_ENTRIES_PER_BLOCK, 0).build().maxEntriesPerBlock())
        .isZero();
    // describe shows what files are written with, not the knob's default.
    assertThat(ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKSIZE, 16384).build().toString())
        .contains("BLOCKSIZE => '16384'").contains("MAX_ENTRIES_PER_BLOCK => '0'");
    assertThat(ColumnFamilyDescriptor.of("f").toString()).contains("MAX_ENTRIES_PER_BLOCK => '32'");
    // A static size below the default minimum is valid: the minimum is not read.
    assertThat(ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKSIZE, 1024).build().maxEntriesPerBlock()).isZero();
  }

  @Test
  void aMinimumAboveTheMaximumIsRefusedNamingTheFamilyAndBothSizes() {
    assertThatThrownBy(() -> ColumnFamilyDescriptor.builder("events").set(Knobs.BLOCKSIZE, 8192)
        .set(Knobs.MIN_BLOCKSIZE, 16384).set(Knobs.MAX_ENTRIES_PER_BLOCK, 32).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MIN_BLOCKSIZE (16384) exceeds BLOCKSIZE (8192) in family events");
    // The default minimum (4 KiB) against a smaller maximum is refused too, not clamped.
    assertThatThrownBy(() -> ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKSIZE, 1024)
        .set(Knobs.MAX_ENTRIES_PER_BLOCK, 8).build()).hasMessageContaining("MIN_BLOCKSIZE (4096) exceeds BLOCKSIZE (1024)");
    // Static sizing never reads the minimum.
    assertThat(ColumnFamilyDescriptor.builder("f").set(Knobs.BLOCKSIZE, 1024).build().get(Knobs.BLOCKSIZE))
        .isEqualTo(1024);
    // Changing a family (an alter) checks the result the same way.
    ColumnFamilyDescriptor dynamic = ColumnFamilyDescriptor.builder("f").set(Knobs.MAX_ENTRIES_PER_BLOCK, 8).build();
    assertThatThrownBy(() -> dynamic.toBuilder().set(Knobs.BLOCKSIZE, 2048).build())
        .hasMessageContaining("MIN_BLOCKSIZE (4096) exceeds BLOCKSIZE (2048) in family f");
  }

  private static List<String> scanRows(Table t, Scan scan) {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(Bytes.str(r.row()));
      }
    }
    return out;
  }

  private List<Integer> blockPayloadSizes() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      List<Path> files = s.filter(f -> f.getFileName().toString().endsWith(".sst")).toList();
      assertThat(files).hasSize(1);
      SortedFileReader r = SortedFileReader.open(files.get(0), 0);
      try {
        return DataBlockSummary.of(r).stream().map(DataBlockSummary::uncompressedSize).toList();
      } finally {
        r.release();
      }
    }
  }
}
