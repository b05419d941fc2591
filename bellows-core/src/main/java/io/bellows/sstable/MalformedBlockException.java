package io.bellows.sstable;

/**
 * A block payload that passed its checksum does not decode (a writer bug or a collision). Internal:
 * the reader converts it into a {@link io.bellows.util.CorruptionException} naming file and offset.
 */
final class MalformedBlockException extends RuntimeException {
  MalformedBlockException(String message) {
    super(message);
  }
}
