package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Randomized: a store (several tables and families, data in sorted files and, for a crash image,
 * in the WAL) gets one random piece of damage to its metadata — a catalog, options file, manifest,
 * sorted file or store directory deleted, flipped or truncated — or foreign files planted anywhere
 * in it. Then:
 *
 * <ul>
 *   <li>damage: the open fails with a {@link StorageException} naming what is damaged, and the
 *       directory is exactly as before (nothing deleted, nothing written);
 *   <li>foreign files: the open works, every row reads back, and the foreign files survive writes,
 *       flushes, a major compaction, a drop and a reopen unchanged.
 * </ul>
 *
 * <p>Re-running: the seed is printed and is in every failure message; {@code
 * -Dbellows.test.seed=<seed>} repeats a run, {@code -Dbellows.damage.rounds=N} sets its length.
 */
@ExtendWith(SeedExtension.class)
class MetadataDamageTest {
  @TempDir Path root;

  enum Damage { DELETE_CATALOG, FLIP_CATALOG, TRUNCATE_CATALOG, FLIP_OPTIONS, DELETE_MANIFEST,
    FLIP_MANIFEST, TRUNCATE_MANIFEST, DELETE_SORTED_FILE, DELETE_STORE_DIRECTORY, PLANT_FOREIGN_FILES }

  @Test
  void damagedMetadataFailsTheOpenWithNothingChangedAndForeignFilesAreNeverDeleted(Seed s) throws IOException {
    long seed = s.value();
    int rounds = Integer.getInteger("bellows.damage.rounds", 40);
    Random rnd = new Random(seed);
    for (int round = 0; round < rounds; round++) {
      Damage damage = Damage.values()[round % Damage.values().length];
      long roundSeed = rnd.nextLong();
      String context = "seed " + seed + ", round " + round + " (" + damage + ")";
      Path dir = root.resolve("r" + round);
      runRound(dir, damage, new Random(roundSeed), context);
    }
  }

  private void runRound(Path dir, Damage damage, Random rnd, String context) throws IOException {
    Map<String, String> expected = build(dir, rnd);
    String named = damage == Damage.PLANT_FOREIGN_FILES ? null : apply(dir, damage, rnd);
    if (named == null) {
      checkForeignFilesSurvive(dir, rnd, expected, context);
      return;
    }
    Map<Path, String> before = DirectorySnapshot.withoutLock(dir);
    StorageException failure = null;
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      // nothing: reaching here is the failure checked below
    } catch (StorageException e) {
      failure = e;
    }
    assertThat(failure).as("%s: the open must fail", context).isNotNull();
    assertThat(messages(failure)).as("%s: the error names the damage", context).contains(named);
    assertThat(DirectorySnapshot.withoutLock(dir)).as("%s: a failed open changes nothing", context)
        .isEqualTo(before);
  }

  /** Two tables, one with two families; rows in files, in a later file, and (half the time) only in the WAL. */
  private Map<String, String> build(Path dir, Random rnd) throws IOException {
    Map<String, String> expected = new TreeMap<>();
    Path live = dir.resolveSibling(dir.getFileName() + "-live");
    boolean crashImage = rnd.nextBoolean();
    // No background compaction: the crash image is copied while the engine is open, and a real
    // crash image is one instant, which a copy racing a compaction's file deletions would not be.
    Bellows db = Bellows.open(live, EngineOptions.builder()
        .set(Knobs.COMPACTION_MAX_FILES, 100).set(Knobs.COMPACTION_MIN_FILES, 100).build());
    try {
      db.createTable(TableDescriptor.builder("a").family("f").family("g").build());
      db.createTable(TableDescriptor.builder("b").family("f").build());
      int batches = 1 + rnd.nextInt(3);
      for (int batch = 0; batch <= batches; batch++) {
        for (String table : List.of("a", "b")) {
          for (int i = 0; i < 20; i++) {
            String row = table + "-" + batch + "-" + i;
            String value = Long.toHexString(rnd.nextLong());
            Put p = new Put(row).addColumn("f", "q", value).setDurability(Durability.SYNC_WAL);
            if (table.equals("a")) {
              p.addColumn("g", "q", value);
            }
            db.getTable(table).put(p);
            expected.put(table + "/" + row, value);
          }
          if (batch < batches) {
            db.flush(table);
          }
        }
      }
      if (crashImage) {
        WalReplayAccountingTest.copyTree(live, dir);
      }
    } finally {
      db.close();
    }
    if (!crashImage) {
      WalReplayAccountingTest.copyTree(live, dir);
    }
    return expected;
  }

  /** Damages the store; returns a name the open's error must contain. */
  private String apply(Path dir, Damage damage, Random rnd) throws IOException {
    Path catalog = dir.resolve("CATALOG");
    switch (damage) {
      case DELETE_CATALOG:
        Files.delete(catalog);
        return "no CATALOG";
      case FLIP_CATALOG:
        flip(catalog, rnd);
        return "CATALOG";
      case TRUNCATE_CATALOG:
        truncate(catalog, rnd);
        return "CATALOG";
      case FLIP_OPTIONS:
        flip(dir.resolve("OPTIONS"), rnd);
        return "OPTIONS";
      default:
        break;
    }
    List<Path> stores = stores(dir);
    Path store = stores.get(rnd.nextInt(stores.size()));
    Path manifest = store.resolve(StoreManifest.FILE_NAME);
    switch (damage) {
      case DELETE_MANIFEST:
        Files.delete(manifest);
        return manifest.toString();
      case FLIP_MANIFEST:
        flip(manifest, rnd);
        return manifest.toString();
      case TRUNCATE_MANIFEST:
        truncate(manifest, rnd);
        return manifest.toString();
      case DELETE_SORTED_FILE: {
        List<Path> sorted = list(store).stream().filter(p -> p.toString().endsWith(".sst")).toList();
        Path victim = sorted.get(rnd.nextInt(sorted.size()));
        Files.delete(victim);
        return victim.getFileName().toString();
      }
      case DELETE_STORE_DIRECTORY:
        for (Path p : list(store)) {
          Files.delete(p);
        }
        Files.delete(store);
        return store.toString();
      default:
        throw new IllegalArgumentException(damage.toString());
    }
  }

  private void checkForeignFilesSurvive(Path dir, Random rnd, Map<String, String> expected, String context)
      throws IOException {
    List<Path> places = new ArrayList<>(List.of(dir, dir.resolve("tables"), dir.resolve("wal")));
    for (Path store : stores(dir)) {
      places.add(store);
      places.add(store.getParent()); // the region directory
      places.add(store.getParent().getParent()); // the table directory
    }
    Map<Path, String> foreign = new TreeMap<>();
    int n = 1 + rnd.nextInt(4);
    for (int i = 0; i < n; i++) {
      Path place = places.get(rnd.nextInt(places.size()));
      String[] names = {"notes.txt", "backup.sst.bak", "MANIFEST.old", "00000000000000000001.log.copy",
          "README", "photo.jpg"};
      Path f = place.resolve(names[rnd.nextInt(names.length)]);
      String content = "foreign " + rnd.nextLong();
      Files.writeString(f, content);
      foreign.put(f, content);
    }
    if (rnd.nextBoolean()) { // a folder that looks like a dropped table's, holding a foreign file
      Path f = dir.resolve("tables").resolve("77-photos").resolve("77").resolve("f").resolve("holiday.jpg");
      Files.createDirectories(f.getParent());
      Files.writeString(f, "jpeg");
      foreign.put(f, "jpeg");
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      for (Map.Entry<String, String> e : expected.entrySet()) {
        String table = e.getKey().substring(0, 1);
        String row = e.getKey().substring(2);
        Result r = db.getTable(table).get(new Get(row));
        assertThat(Bytes.str(r.getValue(Bytes.of("f"), Bytes.of("q")))).as("%s: %s", context, e.getKey())
            .isEqualTo(e.getValue());
      }
      db.getTable("a").put(new Put("more").addColumn("f", "q", "v"));
      db.flush("a");
      db.majorCompact("a");
      db.majorCompact("b");
      db.disableTable("b");
      db.dropTable("b");
    }
    Bellows.open(dir, EngineOptions.defaults()).close();
    for (Map.Entry<Path, String> e : foreign.entrySet()) {
      assertThat(e.getKey()).as("%s: a file Bellows did not make", context).exists();
      assertThat(Files.readString(e.getKey())).as("%s: %s", context, e.getKey()).isEqualTo(e.getValue());
    }
  }

  private static List<Path> stores(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path table : list(dir.resolve("tables"))) {
      for (Path region : list(table)) {
        if (!Files.isDirectory(region)) {
          continue;
        }
        for (Path family : list(region)) {
          if (Files.isDirectory(family)) {
            out.add(family);
          }
        }
      }
    }
    return out;
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted(Comparator.naturalOrder()).toList();
    }
  }

  private static void flip(Path file, Random rnd) throws IOException {
    byte[] b = Files.readAllBytes(file);
    int at = rnd.nextInt(b.length);
    b[at] ^= (byte) (1 << rnd.nextInt(8));
    Files.write(file, b);
  }

  private static void truncate(Path file, Random rnd) throws IOException {
    byte[] b = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(b, rnd.nextInt(b.length)));
  }

  private static String messages(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      sb.append(c.getMessage()).append(" | ");
    }
    return sb.toString();
  }
}
