package io.bellows.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the engine relies on from every file system, checked on the local disk and in memory alike. */
class FileSystemContractTest {
  @TempDir
  static Path tmp;

  record Target(String name, FileSystem fs, Path root) {
    @Override
    public String toString() {
      return name;
    }
  }

  static int n;

  static Stream<Target> fileSystems() {
    n++;
    return Stream.of(new Target("local", LocalFileSystem.INSTANCE, tmp.resolve("t" + n)),
        new Target("memory", new MemFileSystem(), Path.of("/mem/t" + n)));
  }

  private static void write(FileSystem fs, Path p, String s) throws IOException {
    try (WritableFile f = fs.create(p)) {
      f.append(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)));
      assertThat(f.size()).isEqualTo(s.length());
      f.sync();
    }
  }

  private static String read(FileSystem fs, Path p) throws IOException {
    return new String(fs.readAll(p), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void filesAreCreatedOnceAppendedAndReadAtPositions(Target t) throws IOException {
    FileSystem fs = t.fs();
    fs.createDirectories(t.root());
    Path a = t.root().resolve("a");
    write(fs, a, "hello world");
    assertThat(fs.length(a)).isEqualTo(11);
    assertThat(fs.isFile(a)).isTrue();
    assertThat(fs.isDirectory(a)).isFalse();
    try (ReadableFile r = fs.open(a)) {
      ByteBuffer b = ByteBuffer.allocate(5);
      assertThat(r.read(b, 6)).isEqualTo(5);
      assertThat(new String(b.array(), StandardCharsets.UTF_8)).isEqualTo("world");
      assertThat(r.read(ByteBuffer.allocate(1), 11)).isEqualTo(-1);
      assertThat(r.length()).isEqualTo(11);
    }
    assertThatThrownBy(() -> fs.create(a)).isInstanceOf(IOException.class);
    assertThat(read(fs, a)).isEqualTo("hello world");
    assertThatThrownBy(() -> fs.open(t.root())).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> fs.open(t.root().resolve("missing"))).isInstanceOf(IOException.class);
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void renameReplacesLinkSharesDeleteAndTruncate(Target t) throws IOException {
    FileSystem fs = t.fs();
    fs.createDirectories(t.root());
    Path a = t.root().resolve("a");
    Path b = t.root().resolve("b");
    write(fs, a, "new");
    write(fs, b, "old");
    fs.rename(a, b);
    assertThat(fs.exists(a)).isFalse();
    assertThat(read(fs, b)).isEqualTo("new");
    Path c = t.root().resolve("c");
    fs.link(b, c);
    assertThat(read(fs, c)).isEqualTo("new");
    assertThatThrownBy(() -> fs.link(b, c)).isInstanceOf(IOException.class);
    assertThat(fs.delete(b)).isTrue();
    assertThat(fs.delete(b)).isFalse();
    assertThat(read(fs, c)).isEqualTo("new");
    fs.truncate(c, 2);
    assertThat(read(fs, c)).isEqualTo("ne");
    assertThatThrownBy(() -> fs.truncate(c, 5)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> fs.delete(t.root())).isInstanceOf(IOException.class);
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void directoriesAreListedSortedAndDeletedOnlyWhenEmpty(Target t) throws IOException {
    FileSystem fs = t.fs();
    Path d = t.root().resolve("x").resolve("y");
    fs.createDirectories(d);
    fs.createDirectories(d); // idempotent
    write(fs, d.resolve("b"), "1");
    write(fs, d.resolve("a"), "2");
    fs.createDirectories(d.resolve("c"));
    assertThat(fs.list(d)).containsExactly(d.resolve("a"), d.resolve("b"), d.resolve("c"));
    assertThatThrownBy(() -> fs.deleteDirectory(d)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> fs.list(d.resolve("a"))).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> fs.list(d.resolve("missing"))).isInstanceOf(IOException.class);
    fs.syncDirectory(d);
    for (Path p : List.of(d.resolve("a"), d.resolve("b"))) {
      fs.delete(p);
    }
    assertThat(fs.deleteDirectory(d.resolve("c"))).isTrue();
    assertThat(fs.deleteDirectory(d)).isTrue();
    assertThat(fs.deleteDirectory(d)).isFalse();
    assertThat(fs.exists(d)).isFalse();
    assertThat(fs.isDirectory(t.root().resolve("x"))).isTrue();
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void aLockIsExclusiveUntilReleased(Target t) throws IOException {
    FileSystem fs = t.fs();
    fs.createDirectories(t.root());
    Path lock = t.root().resolve("LOCK");
    assertThatThrownBy(() -> fs.tryLock(lock, false)).isInstanceOf(IOException.class);
    FileSystem.Lock held = fs.tryLock(lock, true);
    assertThat(held).isNotNull();
    assertThat(fs.tryLock(lock, true)).isNull();
    assertThat(fs.tryLock(lock, false)).isNull();
    held.close();
    FileSystem.Lock again = fs.tryLock(lock, false);
    assertThat(again).isNotNull();
    again.close();
  }
}
