package io.bellows.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Each way a {@link Fault} selects operations, and what an injected fault does. */
class FaultInjectingFileSystemTest {
  private static final Path DIR = Path.of("/data");
  private final MemFileSystem mem = new MemFileSystem();
  private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);

  FaultInjectingFileSystemTest() throws IOException {
    mem.createDirectories(DIR);
  }

  private static ByteBuffer some() {
    return ByteBuffer.wrap(new byte[] {1, 2, 3});
  }

  @Test
  void aFaultSelectsByOperationKindAndRaisesItsError() throws IOException {
    fs.inject(Fault.on(Error.ENOSPC, Op.WRITE));
    WritableFile f = fs.create(DIR.resolve("a"));
    assertThatThrownBy(() -> f.append(some())).isInstanceOf(IOException.class)
        .hasMessageContaining("No space left on device");
    f.sync(); // other kinds pass
    assertThat(mem.length(DIR.resolve("a"))).as("a failed operation changes nothing").isZero();
    assertThat(fs.injected(Op.WRITE)).isEqualTo(1);
    assertThat(fs.injected(Op.SYNC)).isZero();
    assertThat(fs.injected(Error.ENOSPC)).isEqualTo(1);
    assertThat(fs.injected()).isEqualTo(1);
  }

  @Test
  void everyOperationKindCanBeFailed() throws IOException {
    Path a = DIR.resolve("a");
    mem.create(a).close();
    for (Op op : Op.values()) {
      fs.clear();
      fs.inject(Fault.on(Error.EIO, op));
      assertThatThrownBy(() -> attempt(op, a)).as("%s", op).isInstanceOf(IOException.class)
          .hasMessageContaining("Input/output error");
      assertThat(fs.injected(op)).as("%s", op).isEqualTo(1);
    }
  }

  private void attempt(Op op, Path a) throws IOException {
    Path dir = DIR.resolve("d");
    switch (op) {
      case CREATE -> fs.create(DIR.resolve("new"));
      case WRITE -> { fs.inner().delete(DIR.resolve("w")); fs.create(DIR.resolve("w")).append(some()); }
      case SYNC -> { fs.inner().delete(DIR.resolve("s")); fs.create(DIR.resolve("s")).sync(); }
      case READ -> fs.readAll(a);
      case RENAME -> fs.rename(a, DIR.resolve("b"));
      case LINK -> fs.link(a, DIR.resolve("l"));
      case DELETE -> fs.delete(a);
      case TRUNCATE -> fs.truncate(a, 0);
      case LIST -> fs.list(DIR);
      case CREATE_DIRECTORY -> fs.createDirectories(dir);
      case DELETE_DIRECTORY -> fs.deleteDirectory(dir);
      case SYNC_DIRECTORY -> fs.syncDirectory(DIR);
      case LOCK -> fs.tryLock(DIR.resolve("LOCK"), true);
      default -> throw new AssertionError(op);
    }
  }

  @Test
  void aPathPatternNarrowsTheFault() throws IOException {
    fs.inject(Fault.on(Error.FSYNC, Op.SYNC).paths("/wal/"));
    mem.createDirectories(DIR.resolve("wal"));
    WritableFile sst = fs.create(DIR.resolve("x.sst"));
    sst.sync();
    WritableFile log = fs.create(DIR.resolve("wal").resolve("1.log"));
    assertThatThrownBy(log::sync).hasMessageContaining("fsync failed");
    assertThat(fs.injected(Error.FSYNC)).isEqualTo(1);
  }

  @Test
  void theNthSelectedCallFailsOnce() throws IOException {
    Fault f = fs.inject(Fault.on(Error.EIO, Op.CREATE).nth(3));
    fs.create(DIR.resolve("1"));
    fs.create(DIR.resolve("2"));
    assertThatThrownBy(() -> fs.create(DIR.resolve("3"))).isInstanceOf(IOException.class);
    fs.create(DIR.resolve("4"));
    assertThat(f.fired()).isEqualTo(1);
    assertThat(mem.exists(DIR.resolve("3"))).isFalse();
  }

  @Test
  void fromTheNthSelectedCallOnEveryCallFails() throws IOException {
    fs.inject(Fault.on(Error.ENOSPC, Op.CREATE).from(2));
    fs.create(DIR.resolve("1"));
    assertThatThrownBy(() -> fs.create(DIR.resolve("2"))).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> fs.create(DIR.resolve("3"))).isInstanceOf(IOException.class);
    assertThat(fs.injected(Op.CREATE)).isEqualTo(2);
  }

  @Test
  void aProbabilityFiresAsItsSeededGeneratorSays() throws IOException {
    long seed = 42;
    fs.inject(Fault.on(Error.EIO, Op.LIST).probability(0.3, seed));
    Random expected = new Random(seed);
    int failures = 0;
    for (int i = 0; i < 200; i++) {
      boolean shouldFail = expected.nextDouble() < 0.3;
      boolean failed;
      try {
        fs.list(DIR);
        failed = false;
      } catch (IOException e) {
        failed = true;
        failures++;
      }
      assertThat(failed).as("call %d", i).isEqualTo(shouldFail);
    }
    assertThat(failures).isBetween(30, 90);
  }

  @Test
  void aFaultIsSwitchedOffAndOnAtRunTime() throws IOException {
    Fault full = fs.inject(Fault.on(Error.ENOSPC, Op.CREATE));
    assertThatThrownBy(() -> fs.create(DIR.resolve("a"))).isInstanceOf(IOException.class);
    full.disable(); // space freed
    fs.create(DIR.resolve("a")).close();
    full.enable();
    assertThatThrownBy(() -> fs.create(DIR.resolve("b"))).isInstanceOf(IOException.class);
    assertThat(fs.injected(Op.CREATE)).isEqualTo(2);
  }
}
