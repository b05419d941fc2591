package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.CompactionCompression;
import io.bellows.config.Compression;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.sstable.SortedFileReader;
import io.bellows.util.Bytes;
import io.bellows.util.EventListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * COMPRESSION_COMPACT_MINOR and _MAJOR: each kind of write reads its compression from the file it
 * wrote (the listener opens each new file while it is live), and the data reads back through files
 * of three codecs.
 */
class CompactionCompressionTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private record Written(String kind, Compression compression) {}

  @Test
  void flushesAndMinorAndMajorCompactionsEachWriteTheirCompression() {
    List<Written> written = new CopyOnWriteArrayList<>();
    EventListener probe = new EventListener() {
      @Override
      public void flushEnd(FlushInfo info) {
        written.add(new Written("flush", compressionOf(info.fileId())));
      }

      @Override
      public void compactionEnd(CompactionInfo info) {
        written.add(new Written(info.major() ? "major" : "minor", compressionOf(info.outputFileId())));
      }
    };
    // Exactly three files make a minor compaction, whether the background or the explicit call runs it.
    EngineOptions opts = EngineOptions.builder().set(Knobs.COMPACTION_MIN_FILES, 3).set(Knobs.COMPACTION_MAX_FILES, 3)
        .eventListener(probe).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f")
          .set(Knobs.COMPRESSION_COMPACT_MINOR, CompactionCompression.NONE)
          .set(Knobs.COMPRESSION_COMPACT_MAJOR, CompactionCompression.ZSTD).build()).build());
      Table t = db.getTable("t");
      for (int batch = 0; batch < 3; batch++) {
        for (int i = 0; i < 300; i++) {
          t.put(new Put(Bytes.of(String.format("r%04d", i))).addColumn(F, Q, Bytes.of("v" + batch + "-" + i)));
        }
        db.flush("t");
      }
      db.compact("t");
      db.majorCompact("t"); // waits for a minor compaction still running in the background

      assertThat(written).containsExactly(new Written("flush", Compression.LZ4), new Written("flush", Compression.LZ4),
          new Written("flush", Compression.LZ4), new Written("minor", Compression.NONE),
          new Written("major", Compression.ZSTD));
      int rows = 0;
      try (ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          assertThat(Bytes.str(r.getValue(F, Q))).isEqualTo("v2-" + Integer.parseInt(Bytes.str(r.row()).substring(1)));
          rows++;
        }
      }
      assertThat(rows).isEqualTo(300);
      assertThat(Bytes.str(t.get(new Get(Bytes.of("r0007"))).getValue(F, Q))).isEqualTo("v2-7");
    }
  }

  private Compression compressionOf(long fileId) {
    try (Stream<Path> files = Files.walk(dir)) {
      Path p = files.filter(f -> f.getFileName().toString().equals(StoreManifest.fileName(fileId))).findFirst()
          .orElseThrow();
      SortedFileReader r = SortedFileReader.open(p, 0);
      try {
        return r.metadata().compression();
      } finally {
        r.release();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
