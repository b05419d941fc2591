package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.Compression;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The index writer keeps its data-block entries encoded in one array; the index it writes must be
 * byte for byte the one built from entry objects, level by level (the format does not change with
 * how the writer holds its entries).
 */
@ExtendWith(SeedExtension.class)
class BlockIndexWriterTest {
  @Test
  void writesTheSameBytesAsTheIndexBuiltFromEntryObjects(Seed seed) throws IOException {
    Random rnd = seed.random();
    for (int round = 0; round < 200; round++) {
      int n = rnd.nextInt(round < 20 ? 3 : 2000);
      int indexBlockSize = new int[] {40, 60, 100, 1000, 64 * 1024}[rnd.nextInt(5)];
      List<IndexEntry> entries = new ArrayList<>();
      long offset = 0;
      for (int i = 0; i < n; i++) {
        byte[] key = new byte[1 + rnd.nextInt(60)];
        rnd.nextBytes(key);
        int size = 1 + rnd.nextInt(70_000);
        entries.add(new IndexEntry(key, rnd.nextLong() & Long.MAX_VALUE, offset, size));
        offset += size;
      }
      ByteArrayOutputStream written = new ByteArrayOutputStream();
      BlockIndexWriter w = new BlockIndexWriter(indexBlockSize);
      for (IndexEntry e : entries) {
        byte[] padded = new byte[e.key().length + 7]; // the writer reads the key out of a larger array
        System.arraycopy(e.key(), 0, padded, 3, e.key().length);
        w.add(padded, 3, e.key().length, e.seqId(), e.offset(), e.onDiskSize());
      }
      BlockIndexWriter.Root root = w.write(new BlockOutput(written));
      assertThat(w.size()).isEqualTo(n);

      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      BlockIndexWriter.Root expectedRoot = reference(new BlockOutput(expected), entries, indexBlockSize);
      assertThat(root).as("seed %d round %d: %d entries, index blocks of %d", seed.value(), round, n, indexBlockSize)
          .isEqualTo(expectedRoot);
      assertThat(written.toByteArray()).as("seed %d round %d", seed.value(), round).isEqualTo(expected.toByteArray());
    }
  }

  /** The index as the writer built it from a list of entry objects per level. */
  private static BlockIndexWriter.Root reference(BlockOutput out, List<IndexEntry> level, int indexBlockSize)
      throws IOException {
    int levels = 1;
    while (level.size() > 1 && size(level) > indexBlockSize) {
      List<IndexEntry> parents = new ArrayList<>();
      List<IndexEntry> chunk = new ArrayList<>();
      int chunkSize = 4;
      for (IndexEntry e : level) {
        chunk.add(e);
        chunkSize += IndexBlockCodec.entrySize(e);
        if (chunk.size() >= 2 && chunkSize >= indexBlockSize) {
          parents.add(chunk(out, chunk));
          chunk = new ArrayList<>();
          chunkSize = 4;
        }
      }
      if (!chunk.isEmpty()) {
        parents.add(chunk(out, chunk));
      }
      level = parents;
      levels++;
    }
    long rootOffset = out.position();
    int rootSize = out.write(BlockType.ROOT_INDEX, Compression.NONE, IndexBlockCodec.encode(level));
    return new BlockIndexWriter.Root(rootOffset, rootSize, levels);
  }

  private static IndexEntry chunk(BlockOutput out, List<IndexEntry> chunk) throws IOException {
    long off = out.position();
    int size = out.write(BlockType.INDEX, Compression.NONE, IndexBlockCodec.encode(chunk));
    IndexEntry last = chunk.get(chunk.size() - 1);
    return new IndexEntry(last.key(), last.seqId(), off, size);
  }

  private static int size(List<IndexEntry> entries) {
    int s = 4;
    for (IndexEntry e : entries) {
      s += IndexBlockCodec.entrySize(e);
    }
    return s;
  }
}
