package io.bellows.bench;

import io.bellows.config.Compression;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;

/**
 * How the files of {@code bench read} are cut into data blocks — the part of a configuration fixed
 * at load time, so every layout is loaded once and its runs start from copies. The SAC 2024 paper's
 * static 64 KiB and 4 KiB blocks, its dynamic D(n) (blocks between 4 and 64 KiB that close past
 * 4 KiB once they hold more than n cells), and RocksDB with 64 KiB blocks.
 */
enum ReadLayout {
  STATIC_64K("64KB/S", 64 * 1024, 0),
  STATIC_4K("4KB/S", 4 * 1024, 0),
  DYNAMIC_8("D(8)", 64 * 1024, 8),
  DYNAMIC_32("D(32)", 64 * 1024, 32),
  DYNAMIC_128("D(128)", 64 * 1024, 128),
  ROCKSDB("rocksdb", 64 * 1024, 0);

  /** The paper's MinDataBlockSize of D(n). */
  static final int MIN_BLOCK = 4 * 1024;

  final String label;
  final int blockSize;
  final int maxEntriesPerBlock;

  ReadLayout(String label, int blockSize, int maxEntriesPerBlock) {
    this.label = label;
    this.blockSize = blockSize;
    this.maxEntriesPerBlock = maxEntriesPerBlock;
  }

  boolean isRocksDb() {
    return this == ROCKSDB;
  }

  /**
   * The Bellows family of this layout, uncompressed as the RocksDB layout and the paper's runs are:
   * the suite compares block sizes and the bytes read for them.
   */
  ColumnFamilyDescriptor family(String name) {
    ColumnFamilyDescriptor.Builder b = ColumnFamilyDescriptor.builder(name).set(Knobs.BLOCKSIZE, blockSize)
        .compression(Compression.NONE);
    if (maxEntriesPerBlock > 0) {
      b.set(Knobs.MIN_BLOCKSIZE, MIN_BLOCK).set(Knobs.MAX_ENTRIES_PER_BLOCK, maxEntriesPerBlock);
    }
    return b.build();
  }

  String describe() {
    return switch (this) {
      case ROCKSDB -> "RocksDB, 64 KiB blocks";
      default -> maxEntriesPerBlock == 0 ? "BLOCKSIZE " + blockSize
          : "MIN_BLOCKSIZE " + MIN_BLOCK + ", BLOCKSIZE " + blockSize + ", MAX_ENTRIES_PER_BLOCK " + maxEntriesPerBlock;
    };
  }

  static ReadLayout ofLabel(String label) {
    for (ReadLayout l : values()) {
      if (l.label.equalsIgnoreCase(label)) {
        return l;
      }
    }
    throw new IllegalArgumentException("unknown block layout '" + label + "'");
  }
}
