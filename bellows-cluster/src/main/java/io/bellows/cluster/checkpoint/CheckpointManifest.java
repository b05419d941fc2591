package io.bellows.cluster.checkpoint;

import io.bellows.cluster.LogPosition;
import io.bellows.fs.ChecksummedText;
import io.bellows.fs.FileSystem;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What a checkpoint of a region's replica holds: the group, the log position its files cover (every
 * entry up to it is in them; an entry after it may be too, which the stores skip when the log hands
 * it again), and every file with its length and CRC32C, by its path relative to the checkpoint's
 * directory ({@code region/...}). Stored as the checkpoint's {@code CHECKPOINT} file
 * ({@link ChecksummedText}; docs/FORMAT.md), which is not in its own list.
 */
public record CheckpointManifest(UUID group, LogPosition position, List<FileEntry> files) {
  public static final String FILE_NAME = "CHECKPOINT";
  static final String HEADER = "bellows-checkpoint 1";

  /** One file of the checkpoint: its path under the checkpoint's directory ('/'-separated), length and CRC32C. */
  public record FileEntry(String path, long length, int crc32c) {
    public FileEntry {
      checkPath(path);
      if (length < 0) {
        throw new IllegalArgumentException("a checkpoint file's length is >= 0: " + path + " " + length);
      }
    }
  }

  public CheckpointManifest {
    files = List.copyOf(files);
  }

  /** Refuses a path that could leave the checkpoint's directory or is not one of its names. */
  static void checkPath(String path) {
    if (path.isEmpty() || path.startsWith("/") || path.contains("\\") || path.contains("//")
        || path.endsWith("/") || path.contains("\t") || path.contains("\n")) {
      throw new IllegalArgumentException("not a checkpoint file path: '" + path + "'");
    }
    for (String part : path.split("/")) {
      if (part.equals(".") || part.equals("..")) {
        throw new IllegalArgumentException("not a checkpoint file path: '" + path + "'");
      }
    }
  }

  /** The file {@code path} of the list, or null. */
  public FileEntry file(String path) {
    for (FileEntry f : files) {
      if (f.path().equals(path)) {
        return f;
      }
    }
    return null;
  }

  public long bytes() {
    long n = 0;
    for (FileEntry f : files) {
      n += f.length();
    }
    return n;
  }

  /** The text of the {@code CHECKPOINT} file, checksum line included. */
  public String render() {
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    sb.append("group ").append(group).append('\n');
    sb.append("term ").append(position.term()).append('\n');
    sb.append("index ").append(position.index()).append('\n');
    for (FileEntry f : files) {
      sb.append("file ").append(f.length()).append(' ').append(String.format("%08x", f.crc32c())).append(' ')
          .append(f.path()).append('\n');
    }
    return ChecksummedText.render(sb.toString());
  }

  /** Writes the {@code CHECKPOINT} file into {@code dir}, atomically. */
  public void write(FileSystem fs, Path dir) throws IOException {
    io.bellows.fs.AtomicFiles.write(fs, dir.resolve(FILE_NAME), render().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Reads the {@code CHECKPOINT} file of {@code dir}; damage is a {@link CorruptionException} naming it. */
  public static CheckpointManifest read(FileSystem fs, Path dir) throws IOException {
    Path p = dir.resolve(FILE_NAME);
    return parse(ChecksummedText.read(fs, p, HEADER, "checkpoint"), p.toString());
  }

  /** Parses the text {@link #render} makes (checksum line excluded or included). */
  public static CheckpointManifest parse(String body, String source) {
    UUID group = null;
    long term = -1;
    long index = -1;
    List<FileEntry> files = new ArrayList<>();
    String[] lines = body.split("\n");
    if (lines.length == 0 || !lines[0].equals(HEADER)) {
      throw new CorruptionException(source + ": not a Bellows checkpoint (bad header)");
    }
    try {
      for (int i = 1; i < lines.length; i++) {
        String line = lines[i];
        if (line.startsWith("group ")) {
          group = UUID.fromString(line.substring(6));
        } else if (line.startsWith("term ")) {
          term = Long.parseLong(line.substring(5));
        } else if (line.startsWith("index ")) {
          index = Long.parseLong(line.substring(6));
        } else if (line.startsWith("file ")) {
          String[] f = line.substring(5).split(" ", 3);
          files.add(new FileEntry(f[2], Long.parseLong(f[0]), Integer.parseUnsignedInt(f[1], 16)));
        } else if (!line.startsWith("crc32c ") && !line.isEmpty()) {
          throw new CorruptionException(source + ": unknown line '" + line + "'");
        }
      }
    } catch (RuntimeException e) {
      if (e instanceof CorruptionException c) {
        throw c;
      }
      throw new CorruptionException(source + ": bad checkpoint line: " + e.getMessage(), e);
    }
    if (group == null || term < 0 || index < 0) {
      throw new CorruptionException(source + ": a checkpoint names its group, term and index");
    }
    return new CheckpointManifest(group, new LogPosition(term, index), files);
  }
}
