package io.bellows.cluster.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cluster.LogPosition;
import io.bellows.fs.LocalFileSystem;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a fetch asks its leader for: few, large chunks (each one a round trip), the next ones asked
 * for while one is written (never more than {@link CheckpointFetcher#IN_FLIGHT} ahead), and the
 * bytes whole, checked as they are written rather than read back.
 */
class CheckpointFetcherTest {
  /** The largest chunk a leader hands (the server's Replication service refuses more). */
  private static final int LEADER_LIMIT = 4 << 20;
  private static final int MIB = 1 << 20;

  @TempDir Path dir;

  /** Bytes that differ from chunk to chunk. */
  private static byte[] data(int length, int salt) {
    byte[] data = new byte[length];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31 + (i >>> 11) + salt);
    }
    return data;
  }

  private static CheckpointManifest manifest(Map<String, byte[]> files) {
    List<CheckpointManifest.FileEntry> entries = new ArrayList<>();
    files.forEach((path, b) -> entries.add(new CheckpointManifest.FileEntry(path, b.length, CheckpointFiles.crc(b))));
    return new CheckpointManifest(UUID.randomUUID(), new LogPosition(2, 40), entries);
  }

  /** A leader in memory; {@code before} runs at the start of each read, with the read's file and offset. */
  private static CheckpointSession session(CheckpointManifest m, Map<String, byte[]> files, ReadHook before) {
    return new CheckpointSession() {
      @Override
      public CheckpointManifest manifest() {
        return m;
      }

      @Override
      public Chunk read(String p, long offset, int length) throws IOException {
        before.reading(p, offset);
        byte[] data = files.get(p);
        byte[] b = Arrays.copyOfRange(data, (int) offset, (int) Math.min(data.length, offset + Math.min(length,
            LEADER_LIMIT)));
        return new Chunk(b, CheckpointFiles.crc(b));
      }

      @Override
      public void close() {}
    };
  }

  private interface ReadHook {
    void reading(String path, long offset) throws IOException;
  }

  @Test
  void aFileIsFetchedInChunksAsLargeAsTheLeaderHands() throws IOException {
    byte[] data = data(9 * MIB + 5, 0);
    String path = "region/data.bin"; // not a sorted file's name: no block check
    Map<String, byte[]> files = Map.of(path, data);
    List<Long> asked = Collections.synchronizedList(new ArrayList<>());

    CheckpointFetcher.Result r = CheckpointFetcher.fetch(LocalFileSystem.INSTANCE,
        session(manifest(files), files, (p, offset) -> asked.add(offset)), dir.resolve("staging"));

    assertThat(r.bytes()).isEqualTo(data.length);
    assertThat(Files.readAllBytes(dir.resolve("staging").resolve(path))).isEqualTo(data);
    // 4 + 4 + 1 MiB and 5 bytes: three round trips, each within what the leader hands (at 1 MiB: ten).
    assertThat(asked).containsExactlyInAnyOrder(0L, 4L * MIB, 8L * MIB);
  }

  @Test
  void theNextChunkIsOnItsWayWhileOneIsAwaited() throws IOException, InterruptedException {
    byte[] data = data(9 * MIB + 5, 0);
    String path = "region/data.bin";
    Map<String, byte[]> files = Map.of(path, data);
    CountDownLatch secondAsked = new CountDownLatch(1);
    AtomicInteger outstanding = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Boolean> firstSawSecond = Collections.synchronizedList(new ArrayList<>());
    CheckpointSession leader = session(manifest(files), files, (p, offset) -> {
      most.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
      try {
        if (offset == 0) {
          // The first chunk's answer is held until the second is asked for: a fetch that asks
          // for one at a time never asks, and the bound below only spares the test a hang then.
          firstSawSecond.add(secondAsked.await(10, TimeUnit.SECONDS));
        } else if (offset == 4L * MIB) {
          secondAsked.countDown();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      } finally {
        outstanding.decrementAndGet();
      }
    });

    CheckpointFetcher.fetch(LocalFileSystem.INSTANCE, leader, dir.resolve("staging"));

    assertThat(firstSawSecond).containsExactly(true);
    assertThat(most.get()).isBetween(2, CheckpointFetcher.IN_FLIGHT);
    assertThat(Files.readAllBytes(dir.resolve("staging").resolve(path))).isEqualTo(data);
  }

  @Test
  void chunksAskedForAndNotYetWrittenStayWithinTheBoundAcrossFiles() throws IOException {
    // Files of several chunks and of less than one, in the descriptor's order: chunks are asked for
    // ahead across a file's end, and every file still arrives whole.
    Map<String, byte[]> files = new java.util.LinkedHashMap<>();
    files.put("region/a.bin", data(10 * MIB + 7, 1));
    files.put("region/b.bin", data(1000, 2));
    files.put("region/empty.bin", new byte[0]);
    files.put("region/cf/c.bin", data(13 * MIB, 3));
    WatchedFileSystem fs = new WatchedFileSystem();
    AtomicInteger asked = new AtomicInteger();
    AtomicInteger mostAhead = new AtomicInteger();
    CheckpointSession leader = session(manifest(files), files, (p, offset) -> {
      // Asked for (this one included) less written: what the fetch holds or awaits.
      int n = asked.incrementAndGet();
      mostAhead.accumulateAndGet(n - chunksWritten(fs.appended.get()), Math::max);
    });

    CheckpointFetcher.Result r = CheckpointFetcher.fetch(fs, leader, dir.resolve("staging"));

    assertThat(r.files()).isEqualTo(4);
    assertThat(asked.get()).isEqualTo(3 + 1 + 4);
    assertThat(mostAhead.get()).isBetween(1, CheckpointFetcher.IN_FLIGHT);
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      assertThat(Files.readAllBytes(CheckpointFiles.resolve(dir.resolve("staging"), e.getKey())))
          .as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  /** Whole chunks written, the files being a.bin (10 MiB + 7: chunks of 4, 4, 2 MiB + 7), b.bin (one), c.bin. */
  private static int chunksWritten(long appended) {
    long a = 10L * MIB + 7;
    if (appended < a) {
      return (int) (appended / (4 * MIB));
    }
    if (appended < a + 1000) {
      return 3;
    }
    return 4 + (int) ((appended - a - 1000) / (4 * MIB));
  }

  @Test
  void aFetchedFileIsCheckedAsWrittenNotReadBack() throws IOException {
    byte[] data = data(6 * MIB, 4);
    String path = "region/data.bin";
    Map<String, byte[]> files = Map.of(path, data);
    WatchedFileSystem fs = new WatchedFileSystem();

    CheckpointFetcher.fetch(fs, session(manifest(files), files, (p, offset) -> {}), dir.resolve("staging"));

    Path staged = dir.resolve("staging").resolve(path);
    assertThat(Files.readAllBytes(staged)).isEqualTo(data);
    assertThat(fs.opened).doesNotContain(staged, staged.resolveSibling("data.bin" + CheckpointFetcher.PART));
  }

  @Test
  void bytesThatDoNotMatchTheDescriptorAreNotKept() throws IOException {
    byte[] data = data(5 * MIB, 5);
    String path = "region/data.bin";
    Map<String, byte[]> files = Map.of(path, data);
    CheckpointManifest m = manifest(files);
    CheckpointManifest wrong = new CheckpointManifest(m.group(), m.position(),
        List.of(new CheckpointManifest.FileEntry(path, data.length, m.files().get(0).crc32c() ^ 1)));

    assertThatThrownBy(() -> CheckpointFetcher.fetch(LocalFileSystem.INSTANCE,
        session(wrong, files, (p, offset) -> {}), dir.resolve("staging")))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("nothing of the file was kept");
    assertThat(dir.resolve("staging").resolve(path)).doesNotExist();
    assertThat(dir.resolve("staging").resolve("region").resolve("data.bin" + CheckpointFetcher.PART)).doesNotExist();
  }

  @Test
  void aSortedFileThatDoesNotOpenIsRefusedThoughItsChecksumMatches() throws IOException {
    String path = "region/cf/" + String.format("%020d", 17) + ".sst";
    Map<String, byte[]> files = Map.of(path, data(3 * MIB, 6)); // the leader's bytes, but not a sorted file

    assertThatThrownBy(() -> CheckpointFetcher.fetch(LocalFileSystem.INSTANCE,
        session(manifest(files), files, (p, offset) -> {}), dir.resolve("staging")))
        .isInstanceOf(CorruptionException.class).hasMessageContaining(path).hasMessageContaining("nothing of it was kept");
    assertThat(CheckpointFiles.resolve(dir.resolve("staging"), path)).doesNotExist();
  }

  @Test
  void aChunkThatCannotBeReadFailsTheFetchWithItsCause() {
    byte[] data = data(12 * MIB, 7);
    String path = "region/data.bin";
    Map<String, byte[]> files = Map.of(path, data);

    assertThatThrownBy(() -> CheckpointFetcher.fetch(LocalFileSystem.INSTANCE,
        session(manifest(files), files, (p, offset) -> {
          if (offset == 4L * MIB) {
            throw new IOException("the leader went away");
          }
        }), dir.resolve("staging")))
        .isInstanceOf(IOException.class).hasMessage("the leader went away");
    assertThat(dir.resolve("staging").resolve(path)).doesNotExist();
  }
}
