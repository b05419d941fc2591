package io.bellows.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/** Every file and directory under a root with a checksum of its content: to prove nothing changed. */
final class DirectorySnapshot {
  private DirectorySnapshot() {}

  static Map<Path, String> of(Path root) throws IOException {
    Map<Path, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      s.forEach(p -> out.put(root.relativize(p), describe(p)));
    }
    return out;
  }

  /** As {@link #of}, without the lock file, which an open creates (empty) and leaves. */
  static Map<Path, String> withoutLock(Path root) throws IOException {
    Map<Path, String> out = of(root);
    out.remove(Path.of("LOCK"));
    return out;
  }

  private static String describe(Path p) {
    if (Files.isDirectory(p)) {
      return "dir";
    }
    try {
      byte[] b = Files.readAllBytes(p);
      CRC32C crc = new CRC32C();
      crc.update(b);
      return b.length + ":" + HexFormat.of().toHexDigits((int) crc.getValue());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
