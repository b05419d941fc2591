package io.bellows.engine;

import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.region.Region;
import io.bellows.store.FileCheck;
import io.bellows.store.Store;
import io.bellows.util.StorageException;
import io.bellows.wal.WalDump;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link Engine#verify()}: the online scrub. Checks what {@code bellows repair} checks offline, as
 * far as it can under a running engine: each store's manifest read back, every block of every live
 * sorted file (each held by a reference while checked, so a compaction cannot delete it under the
 * check; a file a compaction replaced meanwhile is still checked whole), and every WAL file but the
 * one being written. Read-only.
 */
final class Verifier {
  private static final Pattern AT = Pattern.compile("@(\\d+)");

  private final FileSystem fs;
  private final Path dir;
  private final List<VerifyReport.Damage> damages = new ArrayList<>();
  private int stores;
  private int manifests;
  private int files;
  private long blocks;
  private long cells;
  private int walFiles;

  private Verifier(FileSystem fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  /** Checks the regions' stores and the WAL files {@code walFiles} (oldest first) of data directory {@code dir}. */
  static VerifyReport run(FileSystem fs, Path dir, List<Region> regions, List<Path> walFiles) {
    Verifier v = new Verifier(fs, dir);
    for (Region r : regions) {
      for (Store s : r.stores().values()) {
        v.checkStore(s);
      }
    }
    v.checkWal(walFiles);
    return new VerifyReport(v.stores, v.manifests, v.files, v.blocks, v.cells, v.walFiles, v.damages);
  }

  private void checkStore(Store s) {
    stores++;
    try {
      StoreManifest.load(fs, s.directory());
      manifests++;
    } catch (java.io.IOException | RuntimeException e) {
      damage(s.directory().resolve(StoreManifest.FILE_NAME), -1, reason(e));
    }
    for (FileCheck.Result r : s.verifyFiles()) {
      files++;
      blocks += r.blocks();
      cells += r.cells();
      for (FileCheck.Damage d : r.damages()) {
        damage(d.file(), d.offset(), d.problem());
      }
    }
  }

  /**
   * WAL files through {@link WalDump}, which reads the local disk only: on another file system they
   * are left out (the count says so). The newest file is skipped: its tail may be being written.
   */
  private void checkWal(List<Path> wal) {
    if (!(fs instanceof LocalFileSystem) || wal.size() < 2) {
      return;
    }
    for (Path f : wal.subList(0, wal.size() - 1)) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      boolean sound;
      try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
        sound = WalDump.print(f, out);
      } catch (StorageException e) {
        if (fs.exists(f)) {
          damage(f, -1, reason(e));
          walFiles++;
        }
        continue; // else deleted meanwhile: its edits were flushed
      }
      walFiles++;
      if (sound) {
        continue;
      }
      for (String line : buf.toString(StandardCharsets.UTF_8).split("\n")) {
        String t = line.strip();
        if (t.startsWith("DAMAGED") || t.startsWith("UNSUPPORTED") || t.contains("not a Bellows WAL file")) {
          Matcher m = AT.matcher(t);
          damage(f, m.find() ? Long.parseLong(m.group(1)) : -1, t);
        }
      }
    }
  }

  private void damage(Path file, long offset, String problem) {
    damages.add(new VerifyReport.Damage(dir.relativize(file.toAbsolutePath()).toString(), offset, problem));
  }

  private static String reason(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
