package io.bellows.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a power loss leaves of a {@link MemFileSystem}: synced bytes and synced directory entries. */
class MemFileSystemTest {
  private static final Path DIR = Path.of("/data");
  private final Random random = new Random(1);
  private MemFileSystem fs;

  @BeforeEach
  void durableDirectory() throws IOException {
    fs = new MemFileSystem();
    fs.createDirectories(DIR);
    fs.syncDirectory(DIR.getParent());
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private WritableFile createDurably(Path p) throws IOException {
    WritableFile f = fs.create(p);
    fs.syncDirectory(p.getParent());
    return f;
  }

  @Test
  void syncedBytesSurviveAndTheUnsyncedTailDoesNot() throws IOException {
    Path p = DIR.resolve("f");
    WritableFile f = createDurably(p);
    f.append(ByteBuffer.wrap(bytes(100, 1)));
    f.sync();
    f.append(ByteBuffer.wrap(bytes(50, 2)));
    assertThat(fs.length(p)).isEqualTo(150);
    MemFileSystem after = fs.crash(random, false);
    assertThat(after.readAll(p)).isEqualTo(bytes(100, 1));
  }

  @Test
  void aTornTailKeepsTheSyncedBytesAndAPrefixOfTheRest() throws IOException {
    Path p = DIR.resolve("f");
    WritableFile f = createDurably(p);
    f.append(ByteBuffer.wrap(bytes(100, 1)));
    f.sync();
    byte[] tail = bytes(1000, 2);
    f.append(ByteBuffer.wrap(tail));
    byte[] whole = new byte[1100];
    System.arraycopy(bytes(100, 1), 0, whole, 0, 100);
    System.arraycopy(tail, 0, whole, 100, 1000);
    int shorter = 0;
    for (int seed = 0; seed < 20; seed++) {
      // the same state, crashed with different seeds: every result is a prefix of at least the synced bytes
      byte[] got = crashCopyOf(whole, 100, seed);
      assertThat(got.length).isBetween(100, 1100);
      assertThat(got).isEqualTo(Arrays.copyOf(whole, got.length));
      if (got.length < 1100) {
        shorter++;
      }
    }
    assertThat(shorter).as("tearing cuts somewhere").isPositive();
    assertThat(fs.crash(new Random(5), true).readAll(p).length).isBetween(100, 1100);
  }

  @Test
  void aGarbageTailKeepsTheSyncedBytesThenAPrefixOfTheRestThenRandomBytesNoLongerThanTheFile() throws IOException {
    byte[] synced = bytes(100, 1);
    byte[] tail = bytes(1000, 2);
    int garbled = 0;
    for (int seed = 0; seed < 20; seed++) {
      // the same state, crashed with different seeds
      MemFileSystem m = new MemFileSystem();
      m.createDirectories(DIR);
      m.syncDirectory(DIR.getParent());
      Path p = DIR.resolve("f");
      WritableFile f = m.create(p);
      m.syncDirectory(DIR);
      f.append(ByteBuffer.wrap(synced));
      f.sync();
      f.append(ByteBuffer.wrap(tail));
      byte[] got = m.crash(new Random(seed), MemFileSystem.Tail.GARBAGE).readAll(p);
      assertThat(got.length).isBetween(100, 1100);
      assertThat(Arrays.copyOf(got, 100)).as("the synced bytes").isEqualTo(synced);
      int same = 100;
      while (same < got.length && got[same] == tail[same - 100]) {
        same++;
      }
      // after the real prefix, the rest is junk: it differs from what was written (but for a
      // chance byte or two)
      if (got.length - same > 8) {
        garbled++;
      }
    }
    assertThat(garbled).as("crashes that left junk after the real bytes").isPositive();
  }

  @Test
  void aLyingSyncReportsSuccessButItsBytesAreAnUnsyncedTailAtThePowerLoss() throws IOException {
    Path wal = DIR.resolve("wal-1");
    Path other = DIR.resolve("other");
    WritableFile w = createDurably(wal);
    WritableFile o = createDurably(other);
    w.append(ByteBuffer.wrap(bytes(100, 1)));
    w.sync(); // a true sync
    fs.lyingSyncs("/wal-");
    w.append(ByteBuffer.wrap(bytes(50, 2)));
    w.sync(); // lies
    o.append(ByteBuffer.wrap(bytes(70, 3)));
    o.sync(); // not selected: true
    assertThat(fs.lies()).isEqualTo(1);
    assertThat(fs.length(wal)).as("the data is readable until the power goes").isEqualTo(150);
    MemFileSystem after = fs.crash(random, MemFileSystem.Tail.DROP);
    assertThat(after.readAll(wal)).isEqualTo(bytes(100, 1));
    assertThat(after.readAll(other)).isEqualTo(bytes(70, 3));
  }

  @Test
  void syncsAreTrueAgainOnceLyingIsSwitchedOff() throws IOException {
    Path p = DIR.resolve("f");
    WritableFile f = createDurably(p);
    fs.lyingSyncs("");
    f.append(ByteBuffer.wrap(bytes(10, 1)));
    f.sync();
    fs.lyingSyncs(null);
    f.append(ByteBuffer.wrap(bytes(10, 2)));
    f.sync();
    assertThat(fs.lies()).isEqualTo(1);
    assertThat(fs.crash(random, MemFileSystem.Tail.DROP).readAll(p)).hasSize(20);
  }

  private static byte[] crashCopyOf(byte[] whole, int synced, int seed) throws IOException {
    MemFileSystem m = new MemFileSystem();
    m.createDirectories(DIR);
    m.syncDirectory(DIR.getParent());
    Path p = DIR.resolve("f");
    WritableFile f = m.create(p);
    m.syncDirectory(DIR);
    f.append(ByteBuffer.wrap(whole, 0, synced));
    f.sync();
    f.append(ByteBuffer.wrap(whole, synced, whole.length - synced));
    return m.crash(new Random(seed), true).readAll(p);
  }

  @Test
  void aCreatedFileWithoutADirectorySyncIsGoneEvenIfSynced() throws IOException {
    Path p = DIR.resolve("f");
    WritableFile f = fs.create(p);
    f.append(ByteBuffer.wrap(bytes(10, 1)));
    f.sync();
    assertThat(fs.crash(random, false).exists(p)).isFalse();
  }

  @Test
  void aRenameWithoutADirectorySyncIsUndone() throws IOException {
    Path tmp = DIR.resolve("x.tmp");
    Path target = DIR.resolve("x");
    WritableFile old = createDurably(target);
    old.append(ByteBuffer.wrap(bytes(10, 1)));
    old.sync();
    WritableFile f = createDurably(tmp);
    f.append(ByteBuffer.wrap(bytes(20, 2)));
    f.sync();
    fs.rename(tmp, target);
    MemFileSystem undone = fs.crash(random, false);
    assertThat(undone.readAll(target)).isEqualTo(bytes(10, 1));
    assertThat(undone.readAll(tmp)).isEqualTo(bytes(20, 2));
  }

  @Test
  void aRenameFollowedByADirectorySyncIsDurable() throws IOException {
    Path tmp = DIR.resolve("x.tmp");
    Path target = DIR.resolve("x");
    WritableFile f = createDurably(tmp);
    f.append(ByteBuffer.wrap(bytes(20, 2)));
    f.sync();
    AtomicFiles.moveAtomically(fs, tmp, target);
    MemFileSystem after = fs.crash(random, false);
    assertThat(after.readAll(target)).isEqualTo(bytes(20, 2));
    assertThat(after.exists(tmp)).isFalse();
  }

  @Test
  void aDeletionWithoutADirectorySyncIsUndone() throws IOException {
    Path p = DIR.resolve("f");
    WritableFile f = createDurably(p);
    f.append(ByteBuffer.wrap(bytes(10, 1)));
    f.sync();
    fs.delete(p);
    assertThat(fs.exists(p)).isFalse();
    assertThat(fs.crash(random, false).readAll(p)).isEqualTo(bytes(10, 1));
  }

  @Test
  void aDirectoryNeverSyncedIntoItsParentIsGoneWithItsContents() throws IOException {
    Path sub = DIR.resolve("sub").resolve("deeper");
    fs.createDirectories(sub);
    WritableFile f = createDurably(sub.resolve("f"));
    f.append(ByteBuffer.wrap(bytes(10, 1)));
    f.sync();
    fs.syncDirectory(sub.getParent()); // "deeper" is in "sub", but "sub" is not durably in DIR
    assertThat(fs.crash(random, false).exists(DIR.resolve("sub"))).isFalse();
  }

  @Test
  void durablyMadeDirectoriesSurvive() throws IOException {
    Path sub = DIR.resolve("sub").resolve("deeper");
    AtomicFiles.createDirectories(fs, sub);
    MemFileSystem after = fs.crash(random, false);
    assertThat(after.isDirectory(sub)).isTrue();
  }

  @Test
  void aLinkIsASecondDurableNameOfTheSameBytes() throws IOException {
    Path p = DIR.resolve("f");
    WritableFile f = createDurably(p);
    f.append(ByteBuffer.wrap(bytes(10, 1)));
    f.sync();
    fs.createDirectories(DIR.resolve("d"));
    fs.syncDirectory(DIR);
    fs.link(p, DIR.resolve("d").resolve("f"));
    assertThat(fs.crash(random, false).exists(DIR.resolve("d").resolve("f"))).isFalse();
  }

  @Test
  void anArmedCrashHappensJustBeforeThatOperationAndTheOldInstanceIsDown() throws IOException {
    long before = fs.mutations();
    fs.crashAtOperation(before + 3, random, false);
    Path p = DIR.resolve("f");
    WritableFile f = fs.create(p);                 // before + 0
    fs.syncDirectory(DIR);                         // before + 1
    f.append(ByteBuffer.wrap(bytes(10, 1)));       // before + 2
    assertThat(fs.crashed()).isNull();
    assertThatThrownBy(f::sync).isInstanceOf(IOException.class).hasMessageContaining("power lost"); // before + 3
    MemFileSystem after = fs.crashed();
    assertThat(after).isNotNull();
    assertThat(after.exists(p)).isTrue();
    assertThat(after.readAll(p)).isEmpty(); // the append was never synced
    assertThatThrownBy(() -> fs.create(DIR.resolve("g"))).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> fs.readAll(p)).isInstanceOf(IOException.class);
    assertThat(fs.exists(p)).isFalse();
    after.create(DIR.resolve("g")).close(); // the survivor works
  }

  @Test
  void locksDoNotSurviveACrash() throws IOException {
    Path lock = DIR.resolve("LOCK");
    assertThat(fs.tryLock(lock, true)).isNotNull();
    fs.syncDirectory(DIR);
    MemFileSystem after = fs.crash(random, false);
    assertThat(after.tryLock(lock, false)).isNotNull();
  }
}
