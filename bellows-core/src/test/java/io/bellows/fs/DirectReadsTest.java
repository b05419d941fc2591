package io.bellows.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads past the page cache ({@link LocalFileSystem#DIRECT_READS}) return exactly the bytes a
 * plain read returns, at any offset and length, across block boundaries and the end of the file.
 * Where the file system has no direct I/O (tmpfs), opening must fail rather than read through the
 * cache unnoticed.
 */
@ExtendWith(SeedExtension.class)
class DirectReadsTest {
  @TempDir Path dir;

  private static boolean directIoWorksIn(Path dir) throws IOException {
    Path probe = Files.write(dir.resolve("probe"), new byte[DirectReadableFile.ALIGN]);
    try (FileChannel ignored = FileChannel.open(probe, StandardOpenOption.READ,
        com.sun.nio.file.ExtendedOpenOption.DIRECT)) {
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  @Test
  void everyReadReturnsThePlainBytesAtAnyOffsetAndLength(Seed seed) throws IOException {
    Random random = seed.random();
    byte[] bytes = new byte[1_000_000 + random.nextInt(10_000)]; // not a multiple of a block
    random.nextBytes(bytes);
    Path f = Files.write(dir.resolve("f"), bytes);
    if (!directIoWorksIn(dir)) {
      System.out.println("no direct I/O in " + dir + ": checking that it is refused");
      assertThatThrownBy(() -> LocalFileSystem.DIRECT_READS.open(f)).isInstanceOf(IOException.class);
      return;
    }
    try (ReadableFile r = LocalFileSystem.DIRECT_READS.open(f)) {
      assertThat(r.length()).isEqualTo(bytes.length);
      for (int i = 0; i < 2_000; i++) {
        // Within the file (a read at its end answers -1, checked below), near its end one time in ten.
        long position = i % 10 == 0 ? bytes.length - 1 - random.nextInt(5_000) : random.nextInt(bytes.length);
        int length = 1 + random.nextInt(i % 3 == 0 ? 70_000 : 5_000);
        ByteBuffer dst = i % 2 == 0 ? ByteBuffer.allocate(length) : ByteBuffer.allocateDirect(length);
        int n = r.read(dst, position);
        int expected = (int) Math.min(length, bytes.length - position);
        assertThat(n).as("read of %d at %d", length, position).isEqualTo(expected);
        assertThat(dst.position()).isEqualTo(n);
        byte[] got = new byte[n];
        dst.flip().get(got);
        assertThat(got).as("bytes at %d", position)
            .isEqualTo(Arrays.copyOfRange(bytes, (int) position, (int) position + n));
      }
      assertThat(r.read(ByteBuffer.allocate(10), bytes.length)).as("at the end").isEqualTo(-1);
      assertThat(r.read(ByteBuffer.allocate(10), bytes.length + 100_000L)).as("past the end").isEqualTo(-1);
      assertThat(r.read(ByteBuffer.allocate(0), 5)).isZero();
    }
    assertThat(LocalFileSystem.DIRECT_READS.readAll(f)).isEqualTo(bytes);
  }
}
