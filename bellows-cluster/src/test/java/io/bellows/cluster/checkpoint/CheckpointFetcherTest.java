package io.bellows.cluster.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cluster.LogPosition;
import io.bellows.fs.LocalFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a fetch asks its leader for: few, large chunks (each one a round trip), and the bytes whole. */
class CheckpointFetcherTest {
  /** The largest chunk a leader hands (the server's Replication service refuses more). */
  private static final int LEADER_LIMIT = 4 << 20;

  @TempDir Path dir;

  @Test
  void aFileIsFetchedInChunksAsLargeAsTheLeaderHands() throws IOException {
    byte[] data = new byte[9 * (1 << 20) + 5];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31 + (i >>> 11));
    }
    String path = "region/data.bin"; // not a sorted file's name: no block check
    CheckpointManifest m = new CheckpointManifest(UUID.randomUUID(), new LogPosition(2, 40),
        List.of(new CheckpointManifest.FileEntry(path, data.length, CheckpointFiles.crc(data))));
    List<Integer> asked = new ArrayList<>();
    CheckpointSession session = new CheckpointSession() {
      @Override
      public CheckpointManifest manifest() {
        return m;
      }

      @Override
      public Chunk read(String p, long offset, int length) {
        asked.add(length);
        byte[] b = Arrays.copyOfRange(data, (int) offset, (int) Math.min(data.length, offset + Math.min(length,
            LEADER_LIMIT)));
        return new Chunk(b, CheckpointFiles.crc(b));
      }

      @Override
      public void close() {}
    };

    CheckpointFetcher.Result r = CheckpointFetcher.fetch(LocalFileSystem.INSTANCE, session, dir.resolve("staging"));

    assertThat(r.bytes()).isEqualTo(data.length);
    assertThat(Files.readAllBytes(dir.resolve("staging").resolve(path))).isEqualTo(data);
    // 4 + 4 + 1 MiB and 5 bytes: three round trips, each within what the leader hands (at 1 MiB: ten).
    assertThat(asked).hasSize(3).allMatch(n -> n <= LEADER_LIMIT);
  }
}
