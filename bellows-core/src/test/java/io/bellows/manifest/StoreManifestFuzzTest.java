package io.bellows.manifest;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bellows.testing.FuzzInputs;
import io.bellows.testing.ReaderGuard;
import io.bellows.testing.Reseal;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/** Fuzzing of the store manifest reader: any input ends in a manifest or a CorruptionException. */
@ExtendWith(SeedExtension.class)
class StoreManifestFuzzTest {
  private static final ReaderGuard GUARD = new ReaderGuard();

  @FuzzTest(maxDuration = "5m")
  void manifest(byte[] input) {
    read(input);
  }

  @Test
  void seededMutationsOfValidFiles(Seed seed) {
    FuzzInputs.mutate(seed, FuzzInputs.corpus(StoreManifestFuzzTest.class, "manifest"), StoreManifestFuzzTest::read);
  }

  static void read(byte[] input) {
    byte[] file = FuzzInputs.file(input);
    if (FuzzInputs.resealed(input)) {
      Reseal.manifest(file);
    }
    Path p = FuzzInputs.temp(file, StoreManifest.FILE_NAME);
    try {
      GUARD.check("store manifest", input, () -> StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, p.getParent()));
    } finally {
      FuzzInputs.delete(p);
    }
  }

  @Test
  @EnabledIfSystemProperty(named = "bellows.fuzz.writeCorpus", matches = "true")
  void writeCorpus() throws IOException {
    List<StoreManifest> manifests = List.of(StoreManifest.empty(), new StoreManifest(5, 9, List.of(3L, 4L)),
        new StoreManifest((1L << 33) + 5, 1000, List.of(7L, 8L, 9L, 10L, 11L, 12L)));
    int n = 0;
    for (StoreManifest m : manifests) {
      Path dir = Files.createTempDirectory("corpus");
      m.write(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
      FuzzInputs.writeCorpusFile(StoreManifestFuzzTest.class, "manifest", "valid-" + n++,
          Files.readAllBytes(dir.resolve(StoreManifest.FILE_NAME)));
    }
  }
}
