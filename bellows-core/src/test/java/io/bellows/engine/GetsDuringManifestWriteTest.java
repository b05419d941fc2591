package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.MemFileSystem;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A flush or compaction writes its store's new manifest (a file written, synced, renamed, the
 * directory synced: up to a hundred milliseconds on a busy disk) while gets go on: a get must not
 * wait for a lock the committing thread holds meanwhile. The get is started from inside the
 * manifest's rename, and the committing thread watches it until it has answered or is blocked on a
 * lock the committing thread owns (no sleeps, no time limits). Before the manifest was written
 * outside the file list's lock, every get of the store waited there.
 */
class GetsDuringManifestWriteTest {
  private static final Path DIR = Path.of("/gets-during-manifest-write/data");
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final byte[] ROW = Bytes.of("r");

  @Test
  void getsDoNotWaitForAManifestWrite() throws Exception {
    MemFileSystem disk = new MemFileSystem();
    AtomicFiles.createDirectories(disk, DIR.getParent());
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(disk);
    try (Bellows db = Bellows.open(DIR, EngineOptions.defaults(), fs)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      t.put(new Put(ROW).addColumn(F, Q, 1, Bytes.of("in a file")));
      db.flush("t");
      t.put(new Put(ROW).addColumn(F, Bytes.of("other"), 2, Bytes.of("in memory")));
      assertThat(values(t.get(new Get(ROW).addColumn(F, Q)))).containsExactly("in a file"); // classes loaded

      List<String> outcomes = new ArrayList<>();
      AtomicReference<List<String>> answer = new AtomicReference<>();
      fs.beforeEach((op, path) -> {
        if (op != FaultInjectingFileSystem.Op.RENAME || !path.getFileName().toString().equals("MANIFEST.tmp")) {
          return;
        }
        Thread reader = new Thread(() -> answer.set(values(t.get(new Get(ROW).addColumn(F, Q)))), "reader");
        reader.start();
        outcomes.add(watch(reader));
      });
      db.flush("t");
      fs.clear();
      fs.beforeEach((op, path) -> {});
      assertThat(outcomes).as("gets started during the flush's manifest write").containsExactly("answered");
      assertThat(answer.get()).containsExactly("in a file");
    }
  }

  /**
   * Spins until {@code reader} ends ("answered") or waits for a lock the calling thread holds
   * ("blocked by the manifest writer"); in the second case the reader goes on once the caller
   * returns and lets go of its locks.
   */
  private static String watch(Thread reader) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long me = Thread.currentThread().getId();
    while (reader.isAlive()) {
      ThreadInfo info = mx.getThreadInfo(reader.getId());
      if (info != null && info.getLockOwnerId() == me) {
        return "blocked by the manifest writer on " + info.getLockName();
      }
      Thread.onSpinWait();
    }
    return "answered";
  }

  private static List<String> values(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.cells()) {
      out.add(Bytes.str(c.value()));
    }
    return out;
  }
}
