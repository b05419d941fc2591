package io.bellows.sstable;

import io.bellows.config.Compression;
import io.bellows.fs.ReadableFile;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Reads blocks from a sorted file with positional reads ({@link ReadableFile#read(ByteBuffer,
 * long)}, which do not move a shared position, so threads need no lock), verifies each block's type
 * byte, lengths and CRC32C, and decompresses it. Thread-safe. Counts the bytes and the blocks (by type) it reads.
 *
 * <p>Invariant: every block returned passed its checksum; every failed check is reported as a
 * {@link CorruptionException} naming the file and the block offset.
 */
final class FileBlockSource implements BlockSource {
  private final Path path;
  private final ReadableFile channel;
  /** Blocks must lie in [0, limit): the trailer is never read as a block. */
  private final long limit;
  private final BlockCodec codec = new BlockCodec();
  /** The page size read amplification is counted in. */
  static final int PAGE = 4096;
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicLong pagesRead = new AtomicLong();
  /** Blocks read, by {@link BlockType#ordinal()}. */
  private final AtomicLongArray blocksRead = new AtomicLongArray(BlockType.values().length);

  FileBlockSource(Path path, ReadableFile channel, long limit) {
    this.path = path;
    this.channel = channel;
    this.limit = limit;
  }

  long bytesRead() {
    return bytesRead.get();
  }

  /** 4 KiB pages of the file the reads touched, counted per read (read amplification as the SAC 2024 paper counts it). */
  long pagesRead() {
    return pagesRead.get();
  }

  long blocksRead(BlockType type) {
    return blocksRead.get(type.ordinal());
  }

  /**
   * Each thread's buffer for the raw bytes of a block, which are garbage as soon as the payload is
   * copied or decompressed out of them: reading a block then allocates only its payload (half the
   * allocation of a read of uncompressed blocks, and so half the young collections under a churning
   * block cache). Blocks over {@link #MAX_REUSED_BYTES} get an array of their own.
   */
  private static final ThreadLocal<byte[]> RAW_BUFFER = ThreadLocal.withInitial(() -> new byte[0]);
  static final int MAX_REUSED_BYTES = 256 * 1024;

  /** Reads exactly {@code len} bytes at {@code pos}; a short file is corruption. */
  byte[] readFully(long pos, int len) {
    byte[] b = new byte[len];
    readInto(b, pos, len);
    return b;
  }

  /** A buffer of at least {@code len} bytes, this thread's own unless the block is too large. */
  private static byte[] rawBuffer(int len) {
    if (len > MAX_REUSED_BYTES) {
      return new byte[len];
    }
    byte[] b = RAW_BUFFER.get();
    if (b.length < len) {
      b = new byte[Math.min(MAX_REUSED_BYTES, Math.max(len, 2 * b.length))];
      RAW_BUFFER.set(b);
    }
    return b;
  }

  /** Reads exactly {@code len} bytes at {@code pos} into {@code b[0, len)}; a short file is corruption. */
  private void readInto(byte[] b, long pos, int len) {
    ByteBuffer buf = ByteBuffer.wrap(b, 0, len);
    try {
      while (buf.hasRemaining()) {
        int n = channel.read(buf, pos + buf.position());
        if (n < 0) {
          throw new CorruptionException(
              path + ": unexpected end of file reading " + len + " bytes at offset " + pos + " (truncated file?)");
        }
      }
    } catch (IOException e) {
      throw new StorageException(path + ": read of " + len + " bytes at offset " + pos + " failed: "
          + StorageException.reason(e), e);
    }
    bytesRead.addAndGet(len);
    if (len > 0) {
      pagesRead.addAndGet((pos + len - 1) / PAGE - pos / PAGE + 1);
    }
  }

  @Override
  public Block read(long offset, int onDiskSize) {
    if (offset < 0 || onDiskSize < BlockFormat.OVERHEAD || offset + onDiskSize > limit) {
      throw new CorruptionException(path + ": block at offset " + offset + " of " + onDiskSize
          + " bytes does not lie within the block area [0, " + limit + ")");
    }
    byte[] raw = rawBuffer(onDiskSize); // only raw[0, onDiskSize) is this block
    readInto(raw, offset, onDiskSize);
    int storedLen = Bytes.getInt(raw, 6);
    if (storedLen != onDiskSize - BlockFormat.OVERHEAD) {
      throw new CorruptionException(path + ": block at offset " + offset + " has stored length " + storedLen
          + " but occupies " + onDiskSize + " bytes");
    }
    int expected = Bytes.getInt(raw, BlockFormat.HEADER + storedLen);
    int actual = BlockFormat.crc(raw, 0, BlockFormat.HEADER + storedLen);
    if (expected != actual) {
      throw new CorruptionException(String.format("%s: checksum mismatch in block at offset %d (stored %08x, computed %08x)",
          path, offset, expected, actual));
    }
    BlockType type = BlockType.fromCodeOrNull(raw[0]);
    if (type == null) {
      throw new CorruptionException(path + ": unknown block type " + (raw[0] & 0xff) + " at offset " + offset);
    }
    int uncompressedLen = Bytes.getInt(raw, 2);
    if (uncompressedLen < 0 || uncompressedLen > BlockFormat.MAX_PAYLOAD) {
      throw new CorruptionException(path + ": block at offset " + offset + " claims " + uncompressedLen + " bytes");
    }
    blocksRead.incrementAndGet(type.ordinal());
    byte[] payload;
    try {
      Compression c = Compression.fromCode(raw[1]);
      payload = codec.decompress(c, raw, BlockFormat.HEADER, storedLen, uncompressedLen);
    } catch (IllegalArgumentException e) {
      throw new CorruptionException(path + ": cannot decompress block at offset " + offset + ": " + e.getMessage(), e);
    }
    return new Block(type, offset, onDiskSize, payload);
  }
}
