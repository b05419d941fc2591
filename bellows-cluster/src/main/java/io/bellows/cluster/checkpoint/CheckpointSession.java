package io.bellows.cluster.checkpoint;

import java.io.IOException;

/**
 * One checkpoint being read from its leader: its descriptor and its files' bytes, a chunk at a time.
 * {@link #read} is called from several threads at once ({@link CheckpointFetcher} keeps chunks in
 * flight ahead of the one it writes).
 */
public interface CheckpointSession extends AutoCloseable {
  /**
   * A piece of a file: its bytes and the CRC32C the source computed over them. The array is the
   * chunk's own: a session never changes or reuses it once handed out (the leader's service sends
   * it without a copy).
   */
  record Chunk(byte[] bytes, int crc32c) {}

  CheckpointManifest manifest();

  /**
   * Up to {@code length} bytes of the checkpoint's file {@code path} from {@code offset} (fewer only
   * at the file's end), with their checksum as the source read them.
   */
  Chunk read(String path, long offset, int length) throws IOException;

  /** Ends the session: the leader may delete the checkpoint. */
  @Override
  void close();
}
