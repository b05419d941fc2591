package io.bellows.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;


import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MANIFEST layout of docs/FORMAT.md, byte for byte, and its damage checks. */
class StoreManifestTest {
  /** flushedSeqId 2^33 + 5, nextFileId 9, files [3, 4]. */
  static final String GOLDEN = "424c4d460100000002000000050000000000000009000000020000000000000003000000000000000454a07e1a";

  @TempDir Path dir;

  @Test
  void writesTheDocumentedBytes() throws IOException {
    new StoreManifest((1L << 33) + 5, 9, List.of(3L, 4L)).write(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
    byte[] bytes = Files.readAllBytes(dir.resolve(StoreManifest.FILE_NAME));
    assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(GOLDEN);
    assertThat(StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir)).isEqualTo(new StoreManifest((1L << 33) + 5, 9, List.of(3L, 4L)));
    assertThat(Files.exists(dir.resolve(StoreManifest.FILE_NAME + ".tmp"))).isFalse();
  }

  @Test
  void aNewStoreHasAnEmptyManifest() throws IOException {
    StoreManifest.initialize(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("f"));
    assertThat(StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("f"))).isEqualTo(StoreManifest.empty());
  }

  @Test
  void anAbsentManifestIsDamageNotAnEmptyStore() throws IOException {
    Files.writeString(dir.resolve(StoreManifest.fileName(7)), "data");
    assertThatThrownBy(() -> StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining("MANIFEST").hasMessageContaining("1 sorted files present");
    assertThatThrownBy(() -> StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir.resolve("gone"))).isInstanceOf(CorruptionException.class)
        .hasMessageContaining("store directory is missing");
  }

  @Test
  void onlyTheManifestAndSortedFileNamesAreTheStores() {
    assertThat(StoreManifest.isStoreFileName("MANIFEST")).isTrue();
    assertThat(StoreManifest.isStoreFileName("MANIFEST.tmp")).isTrue();
    assertThat(StoreManifest.isStoreFileName(StoreManifest.fileName(12))).isTrue();
    assertThat(StoreManifest.isStoreFileName(StoreManifest.fileName(12) + ".tmp")).isTrue();
    assertThat(StoreManifest.isStoreFileName("notes.txt")).isFalse();
    assertThat(StoreManifest.isStoreFileName("12.sst")).isFalse();
    assertThat(StoreManifest.isStoreFileName("MANIFEST.bak")).isFalse();
  }

  @Test
  void everyFlippedByteAndEveryTruncationIsDetected() throws IOException {
    new StoreManifest(77, 5, List.of(1L, 2L, 3L)).write(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
    Path p = dir.resolve(StoreManifest.FILE_NAME);
    byte[] good = Files.readAllBytes(p);
    for (int i = 0; i < good.length; i++) {
      byte[] bad = good.clone();
      bad[i] ^= 0x01;
      Files.write(p, bad);
      assertThatThrownBy(() -> StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir)).as("flip at %d", i)
          .isInstanceOf(CorruptionException.class).hasMessageContaining("MANIFEST");
    }
    for (int len = 0; len < good.length; len++) {
      Files.write(p, java.util.Arrays.copyOf(good, len));
      final int l = len;
      assertThatThrownBy(() -> StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir)).as("truncated to %d", l)
          .isInstanceOf(CorruptionException.class);
    }
  }

  @Test
  void fileNamesRoundTrip() {
    assertThat(StoreManifest.fileName(42)).isEqualTo("00000000000000000042.sst");
    assertThat(StoreManifest.parseFileId("00000000000000000042.sst")).isEqualTo(42);
    assertThat(StoreManifest.parseFileId("00000000000000000042.sst.tmp")).isEqualTo(-1);
    assertThat(StoreManifest.parseFileId("MANIFEST")).isEqualTo(-1);
  }
}
