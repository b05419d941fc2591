package io.bellows.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A local file's other callers never fail because one caller was interrupted. */
@ExtendWith(SeedExtension.class)
class LocalFileInterruptTest {
  private static final int FILE_BYTES = 1 << 20;

  @TempDir
  Path tmp;

  private Path fileOf(Random random) throws IOException {
    byte[] b = new byte[FILE_BYTES];
    random.nextBytes(b);
    return Files.write(tmp.resolve("f"), b);
  }

  private static byte[] readAt(ReadableFile f, long pos, int len) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(len);
    while (buf.hasRemaining()) {
      int n = f.read(buf, pos + buf.position());
      assertThat(n).isPositive();
    }
    return buf.array();
  }

  private static byte[] slice(byte[] b, long pos, int len) {
    byte[] out = new byte[len];
    System.arraycopy(b, (int) pos, out, 0, len);
    return out;
  }

  @Test
  void anInterruptedReaderFailsAloneAndKeepsItsFlag(Seed seed) throws Exception {
    Path p = fileOf(seed.random());
    byte[] want = Files.readAllBytes(p);
    try (ReadableFile f = LocalFileSystem.INSTANCE.open(p)) {
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicBoolean flagKept = new AtomicBoolean();
      Thread t = new Thread(() -> {
        Thread.currentThread().interrupt();
        try {
          readAt(f, 0, 4096);
        } catch (Throwable e) {
          failure.set(e);
        }
        flagKept.set(Thread.currentThread().isInterrupted());
      });
      t.start();
      t.join();
      assertThat(failure.get()).isInstanceOf(InterruptedIOException.class);
      assertThat(flagKept).isTrue();
      assertThat(readAt(f, 1000, 5000)).isEqualTo(slice(want, 1000, 5000));
      assertThat(f.length()).isEqualTo(FILE_BYTES);
    }
  }

  @Test
  void aChannelClosedUnderAReaderIsReopenedAndTheReadRetried(Seed seed) throws Exception {
    Path p = fileOf(seed.random());
    byte[] want = Files.readAllBytes(p);
    try (LocalReadableFile f = (LocalReadableFile) LocalFileSystem.INSTANCE.open(p)) {
      f.channelForTest().close(); // what another thread's interrupt does to the shared channel
      assertThat(readAt(f, 77, 300)).isEqualTo(slice(want, 77, 300));
      f.channelForTest().close();
      assertThat(f.length()).isEqualTo(FILE_BYTES);
    }
  }

  @Test
  void aClosedFileStaysClosed(Seed seed) throws Exception {
    ReadableFile f = LocalFileSystem.INSTANCE.open(fileOf(seed.random()));
    f.close();
    assertThatThrownBy(() -> readAt(f, 0, 10)).isInstanceOf(IOException.class)
        .isNotInstanceOf(InterruptedIOException.class);
  }

  /**
   * Readers share one file while a victim thread reading the same file is interrupted again and
   * again (mid-read, whenever the interrupt lands): every read of every other reader succeeds.
   */
  @Test
  void readersOfAFileKeepWorkingWhileAnotherReaderIsInterrupted(Seed seed) throws Exception {
    Path p = fileOf(seed.random());
    byte[] want = Files.readAllBytes(p);
    int readers = 3;
    int readsEach = 2000;
    try (ReadableFile f = LocalFileSystem.INSTANCE.open(p)) {
      AtomicBoolean victimDone = new AtomicBoolean();
      int[] victimFailures = new int[1];
      Thread victim = new Thread(() -> {
        Random r = seed.random(-1);
        while (!victimDone.get()) {
          try {
            readAt(f, r.nextInt(FILE_BYTES - 65536), 65536);
          } catch (InterruptedIOException e) {
            victimFailures[0]++;
            Thread.interrupted(); // clear, and read again
          } catch (IOException e) {
            throw new AssertionError("the victim got a failure other than its interrupt", e);
          }
        }
      });
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      CountDownLatch readersDone = new CountDownLatch(readers);
      for (int i = 0; i < readers; i++) {
        int id = i;
        threads.add(new Thread(() -> {
          Random r = seed.random(id);
          try {
            for (int n = 0; n < readsEach; n++) {
              int len = 1 + r.nextInt(16384);
              long pos = r.nextInt(FILE_BYTES - len);
              byte[] got = readAt(f, pos, len);
              if (!java.util.Arrays.equals(got, slice(want, pos, len))) {
                throw new AssertionError("wrong bytes at " + pos);
              }
            }
          } catch (Throwable e) {
            failures.add(e);
          } finally {
            readersDone.countDown();
          }
        }));
      }
      victim.start();
      threads.forEach(Thread::start);
      while (readersDone.getCount() > 0) { // interrupt the victim until the readers are done
        victim.interrupt();
        Thread.yield();
      }
      victimDone.set(true);
      victim.interrupt();
      victim.join();
      for (Thread t : threads) {
        t.join();
      }
      assertThat(failures).isEmpty();
      System.out.println("victim was interrupted in " + victimFailures[0] + " reads");
      assertThat(readAt(f, 0, 100)).isEqualTo(slice(want, 0, 100));
    }
  }

  @Test
  void anInterruptedWriterFailsAloneAndTheFileKeepsEveryAcknowledgedByte(Seed seed) throws Exception {
    Path p = tmp.resolve("w");
    Random random = seed.random();
    java.io.ByteArrayOutputStream acked = new java.io.ByteArrayOutputStream();
    try (WritableFile f = LocalFileSystem.INSTANCE.create(p)) {
      for (int round = 0; round < 50; round++) {
        byte[] b = new byte[1 + random.nextInt(3000)];
        random.nextBytes(b);
        f.append(ByteBuffer.wrap(b));
        acked.write(b);
        if (random.nextBoolean()) {
          ((LocalWritableFile) f).channelForTest().close(); // as an interrupt elsewhere would
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
          Thread.currentThread().interrupt();
          try {
            if (random.nextBoolean()) {
              f.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            } else {
              f.syncData();
            }
          } catch (Throwable e) {
            failure.set(e);
          }
        });
        t.start();
        t.join();
        assertThat(failure.get()).isInstanceOf(InterruptedIOException.class);
        f.syncData();
        assertThat(f.size()).isEqualTo(acked.size());
      }
      f.sync();
    }
    assertThat(Files.readAllBytes(p)).isEqualTo(acked.toByteArray());
  }
}
