package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.ChecksummedText;
import io.bellows.fs.FileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.sstable.Trailer;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import io.bellows.wal.Wal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code OPTIONS} file of a data directory: the on-disk format versions this build writes and
 * the engine options in effect at the last open, so that a directory says how it was written.
 *
 * <p>At open it is checked before anything else changes: a directory written in a format newer
 * than this build reads is refused with a message naming the format, and nothing is touched.
 * Engine options that differ from the last open are logged one per line; none is refused, because
 * no engine option changes how data already on disk is read (table and family settings, which do,
 * live in the catalog and in each sorted file). The file is then rewritten with the current
 * values. Text, replaced atomically, last line a CRC32C of the rest (see docs/FORMAT.md):
 *
 * <pre>
 *   bellows-options 1
 *   format &lt;catalog|manifest|wal|sstable&gt; &lt;version&gt;
 *   option &lt;knob name&gt; &lt;value&gt;
 *   crc32c &lt;8 hex digits&gt;
 * </pre>
 */
final class OptionsFile {
  static final String FILE_NAME = "OPTIONS";
  private static final Logger LOG = LoggerFactory.getLogger(OptionsFile.class);
  private static final String HEADER = "bellows-options 1";

  /** The format versions this build writes; it reads these and older ones. */
  static Map<String, Integer> currentFormats() {
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("catalog", Catalog.VERSION);
    m.put("manifest", (int) StoreManifest.VERSION);
    m.put("wal", Wal.FORMAT_VERSION);
    m.put("sstable", Trailer.CURRENT_VERSION);
    return m;
  }

  private OptionsFile() {}

  /**
   * Checks the directory's recorded formats against this build and logs changed options. Throws
   * {@link StorageException} if the directory was written in a format this build cannot read.
   * Writes nothing: {@link #record} does, once the open has succeeded.
   */
  static void check(FileSystem fs, Path dir, EngineOptions options) throws IOException {
    Path p = dir.resolve(FILE_NAME);
    if (fs.exists(p)) {
      Recorded previous = load(fs, p);
      Map<String, Integer> ours = currentFormats();
      for (Map.Entry<String, Integer> f : previous.formats().entrySet()) {
        Integer supported = ours.get(f.getKey());
        if (supported == null || f.getValue() > supported) {
          throw new StorageException("cannot open " + dir + ": it was written by a newer Bellows ("
              + f.getKey() + " format " + f.getValue() + "; this build reads "
              + (supported == null ? "no such format" : "up to " + supported) + "); nothing was changed."
              + " Open it with that newer Bellows");
        }
      }
      Map<String, String> now = optionValues(options);
      for (Map.Entry<String, String> o : previous.options().entrySet()) {
        String current = now.get(o.getKey());
        if (current == null) {
          LOG.info("{}: option {} of the last open is unknown to this build; ignored", dir, o.getKey());
        } else if (!current.equals(o.getValue())) {
          LOG.info("{}: option {} changed from {} to {} since the last open", dir, o.getKey(), o.getValue(), current);
        }
      }
    }
  }

  /** Records this build's formats and the options in effect (replacing the file atomically). */
  static void record(FileSystem fs, Path dir, EngineOptions options) throws IOException {
    byte[] content = render(currentFormats(), optionValues(options)).getBytes(StandardCharsets.UTF_8);
    Path p = dir.resolve(FILE_NAME);
    if (!fs.exists(p) || !java.util.Arrays.equals(fs.readAll(p), content)) {
      AtomicFiles.write(fs, p, content);
    }
  }

  /** What an OPTIONS file holds. */
  record Recorded(Map<String, Integer> formats, Map<String, String> options) {}

  static Map<String, String> optionValues(EngineOptions options) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Knob<?> k : Knobs.ALL) {
      if (k.scope() == Knob.Scope.ENGINE) {
        m.put(k.name(), String.valueOf(options.get(k)));
      }
    }
    return m;
  }

  static String render(Map<String, Integer> formats, Map<String, String> options) {
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    formats.forEach((k, v) -> sb.append("format ").append(k).append(' ').append(v).append('\n'));
    options.forEach((k, v) -> sb.append("option ").append(k).append(' ').append(v).append('\n'));
    return ChecksummedText.render(sb.toString());
  }

  static Recorded load(FileSystem fs, Path p) throws IOException {
    String body = ChecksummedText.read(fs, p, HEADER, "options file");
    Map<String, Integer> formats = new LinkedHashMap<>();
    Map<String, String> options = new LinkedHashMap<>();
    String[] lines = body.split("\n");
    for (int i = 1; i < lines.length; i++) {
      String[] f = lines[i].split(" ", 3);
      try {
        if (f[0].equals("format") && f.length == 3) {
          formats.put(f[1], Integer.parseInt(f[2]));
        } else if (f[0].equals("option") && f.length == 3) {
          options.put(f[1], f[2]);
        } else {
          throw new CorruptionException(p + ": bad options line " + (i + 1) + ": " + lines[i]);
        }
      } catch (NumberFormatException e) {
        throw new CorruptionException(p + ": bad options line " + (i + 1) + ": " + lines[i], e);
      }
    }
    return new Recorded(formats, options);
  }
}
