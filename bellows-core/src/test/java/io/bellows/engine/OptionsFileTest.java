package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OPTIONS file records formats and options; a newer format is refused with nothing changed. */
class OptionsFileTest {
  @TempDir Path dir;

  @Test
  void theLayoutIsAsDocumented() {
    // The worked example of docs/FORMAT.md; the checksum was computed independently.
    Map<String, Integer> formats = new LinkedHashMap<>();
    formats.put("wal", 2);
    Map<String, String> options = new LinkedHashMap<>();
    options.put("bellows.wal.roll.size", "67108864");
    assertThat(OptionsFile.render(formats, options)).isEqualTo("bellows-options 1\nformat wal 2\n"
        + "option bellows.wal.roll.size 67108864\ncrc32c 2ebafdc1\n");
  }

  @Test
  void anOpenRecordsTheFormatsAndTheOptionsInEffect() throws IOException {
    Bellows.open(dir, EngineOptions.builder().set(Knobs.WAL_ROLL_SIZE, 1L << 20).build()).close();
    String text = Files.readString(dir.resolve("OPTIONS"));
    assertThat(text).startsWith("bellows-options 1\n").contains("format wal 4\n").contains("format sstable 4\n")
        .contains("option bellows.wal.roll.size 1048576\n");
    Bellows.open(dir, EngineOptions.builder().set(Knobs.WAL_ROLL_SIZE, 1L << 21).build()).close();
    assertThat(Files.readString(dir.resolve("OPTIONS"))).contains("option bellows.wal.roll.size 2097152\n");
  }

  @Test
  void aDirectoryWrittenInANewerFormatIsRefusedWithNothingChanged() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
    }
    Map<String, Integer> formats = OptionsFile.currentFormats();
    formats.put("sstable", 99);
    Files.writeString(dir.resolve("OPTIONS"), OptionsFile.render(formats, Map.of()), StandardCharsets.UTF_8);
    Map<Path, String> before = DirectorySnapshot.withoutLock(dir);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults()))
        .isInstanceOf(StorageException.class).hasMessageContaining("newer Bellows")
        .hasMessageContaining("sstable format 99").hasMessageContaining("nothing was changed");
    assertThat(DirectorySnapshot.withoutLock(dir)).isEqualTo(before);
  }

  @Test
  void aDamagedOptionsFileIsReportedAsDamage() throws IOException {
    Bellows.open(dir, EngineOptions.defaults()).close();
    Path p = dir.resolve("OPTIONS");
    byte[] b = Files.readAllBytes(p);
    for (int i = 0; i < b.length; i++) {
      byte[] damaged = b.clone();
      damaged[i] ^= 0x01;
      Files.write(p, damaged);
      assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults())).as("flip at %d", i)
          .isInstanceOf(CorruptionException.class).hasMessageContaining("OPTIONS");
    }
  }
}
