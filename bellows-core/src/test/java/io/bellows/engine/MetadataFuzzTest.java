package io.bellows.engine;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.FuzzInputs;
import io.bellows.testing.ReaderGuard;
import io.bellows.testing.Reseal;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzing of the engine's text metadata readers, the catalog and the OPTIONS file (read and checked
 * against the engine's options as an open does): any input ends in data or a StorageException
 * (CorruptionException, or the refusal of a newer format).
 */
@ExtendWith(SeedExtension.class)
class MetadataFuzzTest {
  private static final ReaderGuard GUARD = new ReaderGuard();

  @FuzzTest(maxDuration = "5m")
  void catalog(byte[] input) {
    readCatalog(input);
  }

  @FuzzTest(maxDuration = "5m")
  void options(byte[] input) {
    readOptions(input);
  }

  @Test
  void seededMutationsOfValidCatalogs(Seed seed) {
    FuzzInputs.mutate(seed, FuzzInputs.corpus(MetadataFuzzTest.class, "catalog"), MetadataFuzzTest::readCatalog);
  }

  @Test
  void seededMutationsOfValidOptionsFiles(Seed seed) {
    FuzzInputs.mutate(seed, FuzzInputs.corpus(MetadataFuzzTest.class, "options"), MetadataFuzzTest::readOptions);
  }

  static void readCatalog(byte[] input) {
    byte[] file = FuzzInputs.resealed(input) ? Reseal.text(FuzzInputs.file(input)) : FuzzInputs.file(input);
    Path p = FuzzInputs.temp(file, Catalog.FILE_NAME);
    try {
      GUARD.check("catalog", input, () -> Catalog.load(io.bellows.fs.LocalFileSystem.INSTANCE, p.getParent()));
    } finally {
      FuzzInputs.delete(p);
    }
  }

  static void readOptions(byte[] input) {
    byte[] file = FuzzInputs.resealed(input) ? Reseal.text(FuzzInputs.file(input)) : FuzzInputs.file(input);
    Path p = FuzzInputs.temp(file, OptionsFile.FILE_NAME);
    try {
      GUARD.check("options file", input, () -> OptionsFile.check(io.bellows.fs.LocalFileSystem.INSTANCE, p.getParent(), EngineOptions.defaults()));
    } finally {
      FuzzInputs.delete(p);
    }
  }

  /** Writes a data directory's catalog and options as the corpus: tables, options, regions, a disabled table. */
  @Test
  @EnabledIfSystemProperty(named = "bellows.fuzz.writeCorpus", matches = "true")
  void writeCorpus() throws IOException {
    Path dir = Files.createTempDirectory("corpus");
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().set(Knobs.WAL_ROLL_SIZE, 1L << 20).build())) {
      FuzzInputs.writeCorpusFile(MetadataFuzzTest.class, "catalog", "valid-empty", Files.readAllBytes(dir.resolve(Catalog.FILE_NAME)));
      db.createTable(TableDescriptor.builder("users").flushSize(1L << 20)
          .family(ColumnFamilyDescriptor.builder("f").maxVersions(3).ttlSeconds(60).build())
          .family(ColumnFamilyDescriptor.builder("g").build()).build(), List.of(Bytes.of("g"), new byte[] {(byte) 0xff, 0}));
      db.createTable(TableDescriptor.builder("logs").family(ColumnFamilyDescriptor.builder("d").build()).build());
      db.disableTable("logs");
    }
    FuzzInputs.writeCorpusFile(MetadataFuzzTest.class, "catalog", "valid-tables", Files.readAllBytes(dir.resolve(Catalog.FILE_NAME)));
    FuzzInputs.writeCorpusFile(MetadataFuzzTest.class, "options", "valid-changed", Files.readAllBytes(dir.resolve(OptionsFile.FILE_NAME)));
    Path plain = Files.createTempDirectory("corpus");
    Bellows.open(plain, EngineOptions.defaults()).close();
    FuzzInputs.writeCorpusFile(MetadataFuzzTest.class, "options", "valid-defaults", Files.readAllBytes(plain.resolve(OptionsFile.FILE_NAME)));
  }
}
